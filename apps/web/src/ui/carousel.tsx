import { useLingui } from '@lingui/react/macro';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useImperativeHandle, useRef, useState, type CSSProperties, type ReactNode, type Ref } from 'react';
import { formatCount } from '../lib/format-count';
import { useInView } from '../lib/use-in-view';
import { isRightToLeft, lineStep } from './arrow-keys';
import type { PictureLoading } from './responsive-picture';
import styles from './carousel.module.css';

export interface SlideState {
  /** The slide on show (the one whose content takes Tab). */
  current: boolean;
  /**
   * When its picture may be fetched: the slide on show and those already seen as the browser sees fit, the
   * ones beside it at once while the carousel is near the screen (the next picture preloaded), the others
   * not yet. Never more than one picture is fetched ahead of the one on show.
   */
  loading: PictureLoading;
}

export interface CarouselHandle {
  /** Shows slide `index` at once and focuses what it holds (e.g. after the viewer closes on it). */
  focusSlide: (index: number) => void;
}

interface CarouselProps {
  count: number;
  /** What a slide holds, for the labels: "picture" gives "Next picture" and "Picture 2 of 5" (in the app's language). */
  itemName: 'picture';
  /** The accessible name of the whole, e.g. "Pictures of the post". */
  label: string;
  renderSlide: (index: number, state: SlideState) => ReactNode;
  /** The box the slides are shown in: its size and shape come from the parent. */
  viewportClassName?: string;
  viewportStyle?: CSSProperties;
  ref?: Ref<CarouselHandle>;
}

/** Within about a screen of the viewport (IntersectionObserver's rootMargin). */
const NEAR_MARGIN = '50% 0px';

function reducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** What a person does to scroll the strip themselves (a swipe, a wheel, a drag of its scrollbar). */
const PERSON_SCROLLS = ['pointerdown', 'touchstart', 'wheel'] as const;

/** Scrolls the strip to `slide`: its starting edge at the strip's (left, or right when right to left). */
function scrollToSlide(scroller: HTMLElement, slide: number, smooth: boolean): void {
  const direction = isRightToLeft(scroller) ? -1 : 1;
  scroller.scrollTo({ left: direction * slide * scroller.clientWidth, behavior: smooth ? 'smooth' : 'instant' });
}

/**
 * Slides side by side in a scroll-snapping strip: swipe on touch (the browser's own scrolling, light and
 * accessible), the arrow buttons, and ←/→ (Home/End) while focus is inside; dots and "2 / 5" below the box.
 * Which slide is on show follows the scroll position, however it got there.
 */
export function Carousel({
  count,
  itemName: _itemName,
  label,
  renderSlide,
  viewportClassName,
  viewportStyle,
  ref,
}: CarouselProps) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const previousRef = useRef<HTMLButtonElement>(null);
  const [index, setIndex] = useState(0);
  /**
   * The slide the buttons or keys last asked for, while the smooth scroll there is on its way (null: none is). The
   * positions it passes are not "on show", and a key pressed meanwhile steps from it, never from the strip's
   * position (two quick ← from 3 ended on 2), whose sign and rounding differ right to left.
   */
  const headingRef = useRef<number | null>(null);
  /**
   * How a scroll started by the buttons or keys is going: whether a person has touched, wheeled or dragged the strip
   * since (then where it stops is theirs), and how often it was sent on again after being cut short.
   */
  const flightRef = useRef({ byPerson: false, resumed: 0 });
  const [seen, setSeen] = useState<ReadonlySet<number>>(() => new Set([0]));
  // Within about a screen of the viewport: then the picture beside the one on show is fetched ahead.
  const [nearRef, near] = useInView<HTMLDivElement>(NEAR_MARGIN);
  const { t } = useLingui();
  const position = (slide: number) => {
    const number = slide + 1;
    return t`Picture ${number} of ${count}`;
  };
  // "2 / 5" below the box, its numbers written as the app writes counts in its language.
  const counter = (slide: number) => {
    const number = formatCount(slide + 1);
    const total = formatCount(count);
    return t({ message: `${number} / ${total}`, comment: 'A carousel’s counter: the picture on show / how many' });
  };

  const show = (next: number) => {
    setIndex(next);
    setSeen((previous) => (previous.has(next) ? previous : new Set(previous).add(next)));
  };

  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    let frame = 0;
    // Right to left (Arabic), the strip scrolls the other way: scrollLeft runs from 0 down to -max.
    const slideAt = (width: number) =>
      Math.min(count - 1, Math.max(0, Math.round(Math.abs(scroller.scrollLeft) / width)));
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const width = scroller.clientWidth;
        if (width === 0) return;
        const next = slideAt(width);
        if (headingRef.current !== null) {
          if (next !== headingRef.current) return;
          headingRef.current = null;
        }
        setIndex(next);
        setSeen((previous) => (previous.has(next) ? previous : new Set(previous).add(next)));
      });
    };
    const onScrollEnd = () => {
      const heading = headingRef.current;
      const width = scroller.clientWidth;
      const flight = flightRef.current;
      // A scroll to the slide asked for that stopped short of it with nobody touching the strip was cut short by
      // the browser (another scroll's end, the strip snapping again after a layout change): it goes on there, or a
      // key pressed meanwhile would be lost. Twice at most; then, or when a person took over, the position decides.
      if (heading !== null && width > 0 && slideAt(width) !== heading && !flight.byPerson && flight.resumed < 2) {
        flight.resumed += 1;
        scrollToSlide(scroller, heading, !reducedMotion());
        return;
      }
      headingRef.current = null;
      onScroll();
    };
    const onPerson = () => {
      flightRef.current.byPerson = true;
    };
    scroller.addEventListener('scroll', onScroll, { passive: true });
    scroller.addEventListener('scrollend', onScrollEnd, { passive: true });
    for (const type of PERSON_SCROLLS) scroller.addEventListener(type, onPerson, { passive: true });
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      scroller.removeEventListener('scrollend', onScrollEnd);
      for (const type of PERSON_SCROLLS) scroller.removeEventListener(type, onPerson);
      cancelAnimationFrame(frame);
    };
  }, [count]);

  const slideFocusTarget = (slide: number) =>
    scrollerRef.current?.children[slide]?.querySelector<HTMLElement>('button, a[href], [tabindex]') ?? null;

  const go = (target: number, { focus = false, instant = false } = {}) => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const next = Math.min(count - 1, Math.max(0, target));
    const smooth = !instant && !reducedMotion();
    // On its way unless the strip already rests exactly there (then no scroll, and no scrollend, comes).
    const there = Math.abs(Math.abs(scroller.scrollLeft) - next * scroller.clientWidth) < 1;
    headingRef.current = smooth && !there ? next : null;
    flightRef.current = { byPerson: false, resumed: 0 };
    scrollToSlide(scroller, next, smooth);
    show(next);
    // The scroll above moves the strip, smoothly: focus must not jump it there at once.
    if (focus) slideFocusTarget(next)?.focus({ preventScroll: true });
  };

  /** The slide the keys and buttons step from: the one a scroll on its way is heading for, else the one on show. */
  const from = () => headingRef.current ?? index;

  useImperativeHandle(ref, () => ({ focusSlide: (slide: number) => go(slide, { focus: true, instant: true }) }));

  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
    // The arrow keys follow the strip: right to left, the next picture is to the left.
    const along = lineStep(event.key, isRightToLeft(event.currentTarget));
    const target =
      along !== 0 ? from() + along : event.key === 'Home' ? 0 : event.key === 'End' ? count - 1 : undefined;
    if (target === undefined) return;
    event.preventDefault();
    // Focus on a slide follows the slide; on a button it stays there, unless the button goes (at an end).
    const active = document.activeElement;
    const onSlide = scrollerRef.current?.contains(active) ?? false;
    const clamped = Math.min(count - 1, Math.max(0, target));
    const buttonGoes =
      (active === nextRef.current && clamped === count - 1) || (active === previousRef.current && clamped === 0);
    go(target, { focus: onSlide || buttonGoes });
  };

  const step = (direction: 1 | -1) => {
    const target = Math.min(count - 1, Math.max(0, from() + direction));
    const button = direction > 0 ? nextRef.current : previousRef.current;
    // The button hides at the end of the row: focus moves to the slide rather than to nowhere.
    const atEnd = direction > 0 ? target === count - 1 : target === 0;
    go(target, { focus: atEnd && document.activeElement === button });
  };

  const loadingOf = (slide: number): PictureLoading => {
    if (slide === index || seen.has(slide)) return 'lazy';
    return Math.abs(slide - index) === 1 && near ? 'eager' : 'later';
  };

  return (
    <div
      ref={nearRef}
      className={styles.carousel}
      role="region"
      aria-roledescription="carousel"
      aria-label={label}
      onKeyDown={onKeyDown}
    >
      <div className={[styles.viewport, viewportClassName].filter(Boolean).join(' ')} style={viewportStyle}>
        <div ref={scrollerRef} className={styles.strip}>
          {Array.from({ length: count }, (_, slide) => (
            <div
              key={slide}
              className={styles.slide}
              role="group"
              aria-roledescription="slide"
              aria-label={position(slide)}
            >
              {renderSlide(slide, { current: slide === index, loading: loadingOf(slide) })}
            </div>
          ))}
        </div>
        <button
          ref={previousRef}
          type="button"
          className={`${styles.arrow} ${styles.previous}`}
          aria-label={t`Previous picture`}
          hidden={index === 0}
          onClick={() => step(-1)}
        >
          <ChevronLeft aria-hidden="true" size="1.25em" />
        </button>
        <button
          ref={nextRef}
          type="button"
          className={`${styles.arrow} ${styles.next}`}
          aria-label={t`Next picture`}
          hidden={index === count - 1}
          onClick={() => step(1)}
        >
          <ChevronRight aria-hidden="true" size="1.25em" />
        </button>
      </div>
      <div className={styles.controls}>
        <span className={styles.dots} aria-hidden="true">
          {Array.from({ length: count }, (_, dot) => (
            <span key={dot} className={dot === index ? `${styles.dot} ${styles.currentDot}` : styles.dot} />
          ))}
        </span>
        <span className={styles.counter} aria-hidden="true">
          {counter(index)}
        </span>
        <span className="visually-hidden" aria-live="polite">
          {position(index)}
        </span>
      </div>
    </div>
  );
}
