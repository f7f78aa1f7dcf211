import { plural, t as say } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { LIMITS, type Draft, type Post } from '@share-arts/contract';
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import type { SharedItems } from '../../../lib/pwa/shared-items';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import layout from '../../../ui/dialog-layout.module.css';
import { Modal } from '../../../ui/modal';
import { SuggestTextarea } from '../../../ui/suggest-textarea/suggest-textarea';
import { toast } from '../../../ui/toast';
import { SeriesChoiceField, useSeriesChoice } from '../../series/composer';
import { savedPictures, useSavePost } from '../api/save-post';
import { picturesChanged, postWait, type DraftPicture } from './composer/picture-draft';
import { useComposerPictures } from './composer/use-composer-pictures';
import { useFileDrop, usePastedFiles } from './composer/use-file-drop';
import { initialRights, MoreOptions, rightsDraft, sameRights } from './composer/more-options';
// Drafts and scheduled posts (issue 41).
import { DraftBar } from './composer/draft-bar';
// A post composed offline, kept on the device (issue 44).
import { OfflineDraftOffer } from './composer/offline-draft-offer';
import { ScheduleButton } from './composer/schedule-button';
import { useDraftAutosave } from './composer/use-draft-autosave';
import { EmojiButton } from './emoji-button';
import { PictureField } from './picture-field';
import { ProcessPicturesField, useProcessPictures } from './composer/process-pictures';
// The language of the text (issue 43).
import { initialPostLanguage, LanguageField, storedPostLanguage } from './composer/language-field';
import styles from './post-composer.module.css';
import { toastText } from '../../../lib/spec-toasts';

interface PostComposerProps {
  /** The post to edit; absent to write a new one. */
  post?: Post;
  /** A draft to resume (issue 41); absent with post, or to start a new one. */
  draft?: Draft;
  /** What was shared to the installed app (issue 44): its pictures in order, its words as the post's text. */
  shared?: SharedItems | undefined;
  onClose: () => void;
}

/**
 * The Add Post / Edit Post dialog. The pictures come first: dropped, pasted or chosen, up to
 * LIMITS.postPicturesMax, each checked in the browser, uploaded at once in its turn, reorderable and with
 * its own alt text; then the text with emoji. Post waits until every picture is uploaded, and stays in
 * view at the bottom of the dialog however long the list grows.
 */
export default function PostComposer({ post, draft, shared, onClose }: PostComposerProps) {
  const { t, i18n } = useLingui();
  const editing = post !== undefined;
  const discardText = (editing: boolean, items: readonly DraftPicture[]): string => {
    if (editing) return t`What you changed in this post will be lost.`;
    const chosen = items.filter((item) => item.file).length;
    if (chosen === 0) return t`What you wrote will be lost.`;
    return t`${plural(chosen, {
      one: 'Your text and the picture you chose will be lost.',
      other: 'Your text and the # pictures you chose will be lost.',
    })}`;
  };
  const [saved] = useState(() => draft?.pictures ?? savedPictures(post));
  const [content, setContent] = useState(
    () => post?.content ?? draft?.content ?? shared?.text.slice(0, LIMITS.postContentMax) ?? '',
  );
  const [savedRights] = useState(() => initialRights(post ?? draft?.rights));
  const [rights, setRights] = useState(savedRights);
  // A post or a draft keeps its own (an answer from before languages has none); a new one starts from the last choice.
  const [savedLanguage] = useState<string | null>(() =>
    post
      ? (post.language ?? null)
      : draft
        ? (draft.language ?? null)
        : initialPostLanguage(storedPostLanguage(), i18n.locale),
  );
  const [language, setLanguage] = useState(savedLanguage);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const caret = useRef<{ start: number; end: number } | null>(null);
  const counterId = useId();
  const statusId = useId();
  const waitId = useId();
  const idPrefix = useId();
  const save = useSavePost(post);
  // A new work may go into one of the artist's series once it is posted (issue 41).
  const seriesChoice = useSeriesChoice();
  const busy = save.isPending;
  const pictures = useComposerPictures(saved);
  const { items } = pictures;
  // The shared pictures join the list once the draft is live (after StrictMode's trial mount, which disposes it).
  const sharedAdded = useRef(false);
  const addPictures = useRef(pictures.add);
  useLayoutEffect(() => {
    addPictures.current = pictures.add;
  });
  useEffect(() => {
    if (!shared || sharedAdded.current) return;
    const timer = setTimeout(() => {
      sharedAdded.current = true;
      if (shared.files.length > 0) addPictures.current(shared.files);
      if (shared.dropped > 0) {
        const dropped = shared.dropped;
        toast.warning(
          say`${plural(dropped, {
            one: 'The picture you shared could not be taken this time: add it here from your gallery.',
            other: 'The # pictures you shared could not be taken this time: add them here from your gallery.',
          })}`,
        );
      }
    });
    return () => clearTimeout(timer);
  }, [shared]);
  const { over, dropProps } = useFileDrop(pictures.add, busy);
  usePastedFiles(pictures.add, busy || confirmingDiscard);
  const process = useProcessPictures(post, draft);
  const autosave = useDraftAutosave({
    enabled: !editing,
    initial: draft,
    content,
    items,
    processItems: process.pictures.items,
    rights: rightsDraft(rights),
    series: seriesChoice,
    language,
  });

  // While any picture is refused, failed or still uploading, Post would publish the post without it: it waits.
  const wait = postWait(items) ?? process.wait;
  const waitDescription = wait && [waitId, wait.key && `${idPrefix}${wait.key}`].filter(Boolean).join(' ');

  const changed =
    content !== (post?.content ?? draft?.content ?? '') ||
    picturesChanged(items, saved) ||
    process.changed ||
    !sameRights(rights, savedRights) ||
    language !== savedLanguage;
  // Escape, the backdrop, Close and Cancel all throw the draft away: ask first when there is something to lose.
  const requestClose = () => {
    if (changed) setConfirmingDiscard(true);
    else onClose();
  };

  const rememberCaret = () => {
    const element = textRef.current;
    if (element) caret.current = { start: element.selectionStart, end: element.selectionEnd };
  };

  const insertEmoji = (emoji: string) => {
    const { start, end } = caret.current ?? { start: content.length, end: content.length };
    const next = content.slice(0, start) + emoji + content.slice(end);
    if (next.length > LIMITS.postContentMax) return;
    setContent(next);
    caret.current = { start: start + emoji.length, end: start + emoji.length };
  };

  const focusText = () => {
    const element = textRef.current;
    if (!element) return;
    element.focus();
    const at = caret.current;
    if (at) element.setSelectionRange(at.start, at.end);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || wait) return;
    if (!content.trim()) {
      toast.warning(toastText('postEmpty'));
      textRef.current?.focus();
      return;
    }
    setFailure(null);
    const draftPictures = items.flatMap((item) => (item.media ? [{ media: item.media, alt: item.alt }] : []));
    save.mutate(
      { content, pictures: draftPictures, process: process.draft, rights: rightsDraft(rights), language },
      {
        onSuccess: (saved) => {
          if (!editing) toast.success(toastText('posted'));
          if (!editing) seriesChoice.applyTo(saved._id);
          if (!editing) void autosave.posted();
          onClose();
        },
        onError: (error) => {
          // The spec: "Unable to Post" when posting fails; a failed edit shows no toast. Either way the
          // dialog stays open with everything the person wrote and chose, and says what went wrong.
          if (!editing) toast.error(toastText('postFailed'));
          setFailure(errorMessage(error));
        },
      },
    );
  };

  return (
    <Modal title={editing ? t`Edit Post` : t`Add Post`} onClose={requestClose} busy={busy}>
      <form
        className={`${layout.form} ${styles.form}`}
        onSubmit={onSubmit}
        noValidate
        aria-describedby={failure ? statusId : undefined}
        {...dropProps}
      >
        {!editing && !draft && !shared && (
          <OfflineDraftOffer
            onRestore={(kept) => {
              setContent(kept.content.slice(0, LIMITS.postContentMax));
              if (kept.files.length > 0) addPictures.current(kept.files);
            }}
          />
        )}
        <PictureField pictures={pictures} over={over} disabled={busy} idPrefix={idPrefix} autoFocus={!editing} />

        <div className={layout.field}>
          <label htmlFor={`${counterId}-text`} className={styles.label}>
            <Trans>What are you thinking?</Trans>
          </label>
          <SuggestTextarea
            ref={textRef}
            id={`${counterId}-text`}
            data-autofocus={editing || undefined}
            className={`${layout.textarea} ${styles.text}`}
            value={content}
            maxLength={LIMITS.postContentMax}
            rows={3}
            readOnly={busy}
            aria-describedby={counterId}
            onValueChange={(next) => {
              setContent(next);
              rememberCaret();
            }}
            onSelect={rememberCaret}
          />
          <div className={styles.toolbar}>
            <EmojiButton onPick={insertEmoji} onDone={focusText} disabled={busy} />
            <span id={counterId} className={styles.counter}>
              <span className="visually-hidden">
                <Trans>Characters used:</Trans>{' '}
              </span>
              {content.length} / {LIMITS.postContentMax}
            </span>
          </div>
        </div>

        <LanguageField value={language} onChange={setLanguage} disabled={busy} />
        <ProcessPicturesField process={process} disabled={busy} idPrefix={idPrefix} />
        <MoreOptions value={rights} onChange={setRights} disabled={busy} />
        {!editing && <SeriesChoiceField choice={seriesChoice} disabled={busy} />}
        {!editing && <DraftBar autosave={autosave} onClose={onClose} />}

        {failure && (
          <p id={statusId} className={styles.error} role="alert">
            {editing ? (
              <Trans>Your changes were not saved: {failure} Your text and pictures are still here; try again.</Trans>
            ) : (
              <Trans>Your post was not published: {failure} Your text and pictures are still here; try again.</Trans>
            )}
          </p>
        )}

        {/* Sticky: however long the list of pictures, Post stays in view at the bottom of the dialog. */}
        <div className={styles.footer} data-sticky-footer>
          {wait && (
            <p id={waitId} className={wait.kind === 'pending' ? styles.waitNote : styles.waitProblem}>
              {wait.message}
            </p>
          )}
          <div className={`${styles.buttons} ${layout.stretchWhenNarrow}`}>
            <Button variant="secondary" onClick={requestClose} disabled={busy}>
              <Trans>Cancel</Trans>
            </Button>
            {!editing && (
              <ScheduleButton
                autosave={autosave}
                hasContent={content.trim() !== ''}
                disabled={busy || wait !== undefined}
                onScheduled={onClose}
              />
            )}
            <Button
              type="submit"
              aria-disabled={busy || wait !== undefined || undefined}
              aria-describedby={waitDescription || undefined}
              className={[layout.busySubmit, styles.submit, wait && !busy && styles.blocked].filter(Boolean).join(' ')}
            >
              {busy ? (editing ? t`Saving…` : t`Posting…`) : editing ? t`Edit` : t`Post`}
            </Button>
          </div>
        </div>
      </form>
      {confirmingDiscard && (
        <ConfirmDialog
          title={editing ? t`Discard your changes?` : t`Discard this post?`}
          confirmLabel={t`Discard`}
          busyLabel={t`Discard`}
          cancelLabel={t`Keep editing`}
          onConfirm={() => {
            void autosave.discard();
            onClose();
          }}
          onClose={() => setConfirmingDiscard(false)}
        >
          {discardText(editing, items)}
        </ConfirmDialog>
      )}
    </Modal>
  );
}
