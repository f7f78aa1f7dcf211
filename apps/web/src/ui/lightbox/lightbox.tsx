import { Trans, useLingui } from '@lingui/react/macro';
import type { Picture } from '@share-arts/contract';
import { ChevronLeft, ChevronRight, Download, ExternalLink, Minus, Plus, X } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { createPortal } from 'react-dom';
import { formatBytes, largestVariantWidth } from '../../lib/picture-shape';
import { thumbHashDataUrl } from '../../lib/thumbhash';
import { PictureSources } from '../responsive-picture';
import { useBackToClose } from './use-back-to-close';
import { useZoomPan } from './use-zoom-pan';
import { fitScale, needsOriginal } from './zoom';
import styles from './lightbox.module.css';

export interface LightboxItem {
  picture: Picture;
  alt: string;
  /**
   * The part of the work it is in, when not the work itself: "Process" (its process pictures, issue 41). The
   * viewer steps through all the items in order, and shows each section as a strip of its own to go to.
   */
  section?: string;
}

interface LightboxProps {
  items: readonly LightboxItem[];
  /** The picture it opens on. */
  start: number;
  /** Closes it (Esc, Back, the close button), with the picture last shown: focus goes back there. */
  onClose: (index: number) => void;
  /** Offers Download: the artist allows it (a Creative Commons licence, or downloads on; issue 23). */
  downloadable?: boolean;
}

const FOCUSABLE = 'a[href], button:not([disabled]), [tabindex]:not([tabindex="-1"])';

function reducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** What a key press on leaves to the control itself (Enter, Space). */
const CONTROLS = 'a, button';

/** "image/png" → "PNG". */
function formatName(mimeType: string | undefined): string | undefined {
  const subtype = mimeType?.split('/')[1];
  return subtype ? subtype.replace(/^x-/, '').toUpperCase() : undefined;
}

/**
 * The viewer: a post's pictures full screen on a dark neutral mat, whatever the theme. Each opens fitted to
 * the screen; the wheel, a pinch, a double-click or double-tap and + - 0 zoom it up to 100 % of the original's
 * pixels and beyond, a drag or the arrow keys pan it, ←/→ (or a swipe, or the side buttons) go between
 * pictures. Variants serve the fitted view; from 100 % on, or once the screen shows more than the largest
 * variant holds, the original file is fetched and drawn. A modal dialog: labelled, focus kept inside, Esc or
 * Back closes it, and the opener takes focus again.
 */
export default function Lightbox({ items, start, onClose, downloadable = true }: LightboxProps) {
  const { t } = useLingui();
  // Where a picture stands, for screen readers: "picture 2 of 5", "process picture 1 of 3".
  const picturePosition = (place: number, total: number) => {
    const number = place + 1;
    return t`picture ${number} of ${total}`;
  };
  const sectionPosition = (section: string, place: number, total: number) => {
    const number = place + 1;
    return t`${section} picture ${number} of ${total}`;
  };
  const sectionPictureLabel = (section: string, number: number, alt: string) => t`${section} picture ${number}: ${alt}`;
  const titleId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(() => Math.min(items.length - 1, Math.max(0, start)));
  // Originals that have arrived: once there, a picture keeps showing its original.
  const [originals, setOriginals] = useState<ReadonlySet<string>>(() => new Set());
  const [announced, setAnnounced] = useState('');

  const item = items[index] ?? items[0]!;
  const { picture, alt } = item;
  const count = items.length;
  // The pictures of the shown one's part (the work, or a section: its place is counted there), and the sections.
  const group = items.filter((other) => other.section === item.section);
  const place = group.indexOf(item);
  const sections = [...new Set(items.flatMap((other) => (other.section ? [other.section] : [])))];

  const closing = useRef(false);
  const close = () => {
    if (closing.current) return;
    closing.current = true;
    onClose(index);
  };
  useBackToClose(close);

  const go = (target: number) => {
    if (target < 0 || target >= count || target === index) return;
    setIndex(target);
    // A side button hides at the end of the row: focus stays in the dialog rather than falling to the page.
    const atEnd = target === 0 || target === count - 1;
    if (atEnd && document.activeElement instanceof HTMLElement && document.activeElement.dataset.side) {
      dialogRef.current?.focus();
    }
  };

  // Open as a modal before the stage is measured (a closed dialog has no size): the page behind is inert.
  // What had focus when the viewer was asked for gets it back when it closes (the parent may then move it
  // to the picture last shown).
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    opener.current ??= document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const zoom = useZoomPan({
    stageRef,
    pictureKey: picture._id,
    picture,
    pixelated: picture.pixelated,
    // A swipe towards the start of the line shows the next picture: leftwards, or rightwards right to left.
    onSwipe: (direction) => go(index + direction * (document.documentElement.dir === 'rtl' ? -1 : 1)),
  });
  const { view, fit, zoomed, actions } = zoom;

  // Focus goes in, and the page does not scroll behind.
  useEffect(() => {
    const dialog = dialogRef.current;
    const from = opener.current;
    dialog?.focus();
    const { overflow } = document.documentElement.style;
    document.documentElement.style.overflow = 'hidden';
    return () => {
      document.documentElement.style.overflow = overflow;
      if (from?.isConnected && (document.activeElement === null || document.activeElement === document.body)) {
        from.focus();
      }
    };
  }, []);

  // A screen reader hears the zoom once it settles, not at every step of a pinch.
  const percent = Math.round(view.scale * 100);
  useEffect(() => {
    const timer = window.setTimeout(() => setAnnounced(`${percent} %`), 500);
    return () => window.clearTimeout(timer);
  }, [percent]);

  const onKeyDown = (event: React.KeyboardEvent<HTMLDialogElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const onControl = event.target instanceof HTMLElement && event.target.closest(CONTROLS) !== null;
    switch (event.key) {
      case '+':
      case '=':
        actions.zoomIn();
        break;
      case '-':
      case '_':
        actions.zoomOut();
        break;
      case '0':
        actions.fit();
        break;
      case '1':
        actions.actualSize();
        break;
      case 'ArrowLeft':
      case 'ArrowRight':
      case 'ArrowUp':
      case 'ArrowDown': {
        const dx = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : 0;
        const dy = event.key === 'ArrowUp' ? -1 : event.key === 'ArrowDown' ? 1 : 0;
        // Right to left (Arabic), the next picture is to the left; panning a zoomed picture stays physical.
        const forward = document.documentElement.dir === 'rtl' ? -1 : 1;
        if (zoomed) actions.pan(dx, dy);
        else if (dx !== 0) go(index + dx * forward);
        else return;
        break;
      }
      case 'Enter':
      case ' ':
        if (onControl) return;
        actions.toggle();
        break;
      case 'Tab':
        keepFocusInside(event);
        return;
      default:
        return;
    }
    event.preventDefault();
  };

  const keepFocusInside = (event: React.KeyboardEvent<HTMLDialogElement>) => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const focusables = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.offsetParent);
    const first = focusables[0];
    const last = focusables[focusables.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && (document.activeElement === first || document.activeElement === dialog)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const measured = zoom.stage.width > 0;
  const largest = largestVariantWidth(picture);
  // Nothing is asked for before the stage has a size: until then the scale means nothing.
  const wantsOriginal =
    measured &&
    needsOriginal(picture, view.scale, window.devicePixelRatio || 1, largest) &&
    // An animation's original moves: with reduced motion, the still variants stay.
    !(picture.animated && reducedMotion());
  const showsOriginal = originals.has(picture._id);
  const fetchesOriginal = wantsOriginal && !showsOriginal;
  // The variants' `sizes`: the width drawn, for the browser to pick the file; frozen at the fit once the
  // original is on its way, so that no larger variant is fetched beside it.
  const drawnWidth = picture.width * view.scale;
  const variantSizes = `${Math.ceil(wantsOriginal ? picture.width * fit : drawnWidth)}px`;
  const placeholder = thumbHashDataUrl(picture.placeholder);

  // Centred on the stage (left and top 50 %), moved by the pan.
  const FRAME_TRANSFORM = `translate(calc(-50% + ${view.x}px), calc(-50% + ${view.y}px))`;
  const frameStyle: CSSProperties = {
    width: `${drawnWidth}px`,
    height: `${picture.height * view.scale}px`,
    transform: FRAME_TRANSFORM,
    backgroundImage: placeholder && !showsOriginal ? `url("${placeholder}")` : undefined,
    visibility: measured ? undefined : 'hidden',
  };
  const frameClass = [
    styles.frame,
    zoom.eased ? styles.eased : '',
    picture.pixelated ? styles.pixelated : '',
    zoomed ? (zoom.dragging ? styles.grabbing : styles.grab) : styles.zoomIn,
  ].join(' ');

  const target = fit < 1 ? 100 : Math.round(fit * 200);
  const levelLabel = zoomed ? t`${percent} %, fit to screen` : t`${percent} %, zoom to ${target} %`;
  const { width, height } = picture;
  const details = [
    t`${width} × ${height} px`,
    formatName(picture.originalType),
    picture.originalBytes ? formatBytes(picture.originalBytes) : undefined,
  ].filter(Boolean);
  const next = items[index + 1];
  const nextSizes = next
    ? `${Math.ceil(next.picture.width * fitScale(next.picture, zoom.stage, next.picture.pixelated))}px`
    : '';

  return createPortal(
    <dialog
      ref={dialogRef}
      className={sections.length > 0 ? `${styles.lightbox} ${styles.withStrip}` : styles.lightbox}
      aria-modal="true"
      aria-labelledby={titleId}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onClose={close}
    >
      <div className={styles.bar}>
        <h2 id={titleId} className={styles.title}>
          <span className="visually-hidden">{t`Picture viewer:`} </span>
          {item.section ? (
            <>
              <span aria-hidden="true">
                {item.section} {place + 1} / {group.length}
              </span>
              <span className="visually-hidden">{sectionPosition(item.section, place, group.length)}</span>
            </>
          ) : group.length > 1 ? (
            <>
              <span aria-hidden="true">
                {place + 1} / {group.length}
              </span>
              <span className="visually-hidden">{picturePosition(place, group.length)}</span>
            </>
          ) : (
            <span className="visually-hidden">
              <Trans>one picture</Trans>
            </span>
          )}
        </h2>
        <p className={styles.details}>{details.join(' · ')}</p>
        <div className={styles.actions}>
          <a
            className={styles.action}
            href={picture.originalUrl}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t`View original`}
          >
            <ExternalLink aria-hidden="true" size="1.2em" />
            <span className={styles.actionText} aria-hidden="true">
              <Trans>View original</Trans>
            </span>
          </a>
          {/* ?download: the server sends it as an attachment named as it was uploaded (when the artist allows it). */}
          {downloadable && (
            <a
              className={styles.action}
              href={`${picture.originalUrl}?download`}
              download={picture.originalName || true}
              aria-label={t`Download`}
            >
              <Download aria-hidden="true" size="1.2em" />
              <span className={styles.actionText} aria-hidden="true">
                <Trans>Download</Trans>
              </span>
            </a>
          )}
          <button type="button" className={styles.action} aria-label={t`Close`} onClick={close}>
            <X aria-hidden="true" size="1.4em" />
          </button>
        </div>
      </div>

      <div ref={stageRef} className={styles.stage}>
        <div key={picture._id} className={frameClass} style={frameStyle}>
          {measured && !showsOriginal && (
            <picture>
              <PictureSources picture={picture} sizes={variantSizes} />
              <img
                className={styles.img}
                src={picture.url}
                alt={alt}
                sizes={variantSizes}
                width={picture.width}
                height={picture.height}
                draggable={false}
              />
            </picture>
          )}
          {(showsOriginal || fetchesOriginal) && (
            <img
              className={`${styles.img} ${showsOriginal ? '' : styles.arriving}`}
              src={picture.originalUrl}
              alt={showsOriginal ? alt : ''}
              aria-hidden={showsOriginal ? undefined : true}
              width={picture.width}
              height={picture.height}
              draggable={false}
              onLoad={() => setOriginals((previous) => new Set(previous).add(picture._id))}
            />
          )}
        </div>
        {/* The next picture, fetched at its fitted size while this one is looked at. */}
        {next && measured && !zoomed && (
          <picture className={styles.ahead} aria-hidden="true">
            <PictureSources picture={next.picture} sizes={nextSizes} />
            <img src={next.picture.url} alt="" sizes={nextSizes} loading="eager" />
          </picture>
        )}
      </div>

      {count > 1 && (
        <>
          <button
            type="button"
            className={`${styles.side} ${styles.previous}`}
            data-side="previous"
            aria-label={t`Previous picture`}
            hidden={index === 0}
            onClick={() => go(index - 1)}
          >
            <ChevronLeft aria-hidden="true" size="1.75em" />
          </button>
          <button
            type="button"
            className={`${styles.side} ${styles.next}`}
            data-side="next"
            aria-label={t`Next picture`}
            hidden={index === count - 1}
            onClick={() => go(index + 1)}
          >
            <ChevronRight aria-hidden="true" size="1.75em" />
          </button>
        </>
      )}

      {sections.map((section) => (
        <nav key={section} className={styles.strip} aria-label={section}>
          <span className={styles.stripTitle} aria-hidden="true">
            {section}
          </span>
          <ol className={styles.stripList}>
            {items.map((other, at) =>
              other.section === section ? (
                <li key={other.picture._id}>
                  <button
                    type="button"
                    className={styles.stripButton}
                    aria-label={sectionPictureLabel(
                      section,
                      items.filter((one, before) => before <= at && one.section === section).length,
                      other.alt,
                    )}
                    aria-current={at === index || undefined}
                    onClick={() => go(at)}
                  >
                    <picture>
                      <PictureSources picture={other.picture} sizes="56px" />
                      <img src={other.picture.url} alt="" sizes="56px" loading="lazy" draggable={false} />
                    </picture>
                  </button>
                </li>
              ) : null,
            )}
          </ol>
        </nav>
      ))}

      <div className={styles.zoom} role="group" aria-label={t`Zoom`}>
        <button
          type="button"
          className={styles.zoomButton}
          aria-label={t`Zoom out`}
          aria-disabled={!zoomed || undefined}
          onClick={actions.zoomOut}
        >
          <Minus aria-hidden="true" size="1.2em" />
        </button>
        <button type="button" className={styles.level} aria-label={levelLabel} onClick={actions.toggle}>
          {percent} %
        </button>
        <button type="button" className={styles.zoomButton} aria-label={t`Zoom in`} onClick={actions.zoomIn}>
          <Plus aria-hidden="true" size="1.2em" />
        </button>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {announced}
      </p>
    </dialog>,
    document.body,
  );
}
