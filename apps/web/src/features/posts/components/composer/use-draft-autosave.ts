import { t } from '@lingui/core/macro';
import type { Draft, DraftRights, SaveDraftBody } from '@share-arts/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../../../lib/api-client';
import { dropOfflineDraft, keepOfflineDraft } from '../../../../lib/pwa/offline-draft';
import type { SeriesChoice } from '../../../series/composer';
import { draftKeys, draftsApi } from '../../api/drafts';
import type { DraftPicture } from './picture-draft';

/** How long after the last change the draft is saved. */
export const AUTOSAVE_DELAY_MS = 1500;

export type DraftSaveStatus = 'idle' | 'saving' | 'saved' | 'conflict' | 'failed';

export interface DraftAutosaveInput {
  /** Off while editing a published post: only a new post is a draft. */
  enabled: boolean;
  /** The draft the composer was opened with (resumed), if any. */
  initial?: Draft | undefined;
  content: string;
  items: readonly DraftPicture[];
  /** The process pictures' list (issue 41): kept in the draft as the pictures are. */
  processItems?: readonly DraftPicture[] | undefined;
  rights: DraftRights;
  series: SeriesChoice;
  /** The language of the text (issue 43), as the composer's Language field says it; null: "Not said". */
  language?: string | null | undefined;
}

const DEFAULT_RIGHTS: DraftRights = {
  contentWarning: null,
  commentPolicy: 'everyone',
  licence: 'all-rights-reserved',
  aiGenerated: false,
  downloadable: false,
};

const uploaded = (items: readonly DraftPicture[]) =>
  items.flatMap((item) => (item.media ? [{ mediaId: item.media._id, alt: item.alt.trim() }] : []));

/** What the server keeps of the composer now: the uploaded pictures (and process pictures) in order with alt texts. */
export function draftBody({
  content,
  items,
  processItems = [],
  rights,
  series,
  language,
}: Omit<DraftAutosaveInput, 'enabled' | 'initial'>) {
  const body: SaveDraftBody = {
    content,
    ...(language !== undefined ? { language } : {}),
    pictures: uploaded(items),
    processPictures: uploaded(processItems),
    // In one order, so that the same choices are the same text.
    rights: {
      contentWarning: rights.contentWarning,
      commentPolicy: rights.commentPolicy,
      licence: rights.licence,
      aiGenerated: rights.aiGenerated,
      downloadable: rights.downloadable,
    },
    seriesId: series.seriesId || null,
    chapter: series.seriesId ? series.chapter.trim() || null : null,
  };
  return body;
}

/** The body a resumed draft was saved with, as the composer would send it. */
function bodyOfDraft(draft: Draft): SaveDraftBody {
  return draftBody({
    content: draft.content,
    items: draft.pictures.map((picture) => ({ key: picture._id, media: picture, alt: picture.alt }) as DraftPicture),
    // A draft answered before drafts kept process pictures has none.
    processItems: (draft.processPictures ?? []).map(
      (picture) => ({ key: picture._id, media: picture, alt: picture.alt }) as DraftPicture,
    ),
    rights: draft.rights,
    series: { seriesId: draft.seriesId ?? '', chapter: draft.chapter ?? '', set: () => {}, applyTo: () => {} },
    // A draft answered before drafts kept a language has none.
    language: draft.language ?? null,
  });
}

/**
 * Whether a body holds nothing worth a draft (nothing typed, chosen or uploaded). The language is not among them: it
 * starts as the last one chosen, and a choice of language alone is no work to keep.
 */
export function isBlank(body: SaveDraftBody): boolean {
  return (
    !body.content?.trim() &&
    (body.pictures?.length ?? 0) === 0 &&
    (body.processPictures?.length ?? 0) === 0 &&
    !body.seriesId &&
    JSON.stringify(body.rights) === JSON.stringify(DEFAULT_RIGHTS)
  );
}

/**
 * The composer's draft on the server (issue 41): saved AUTOSAVE_DELAY_MS after the last change and when the composer
 * closes, one save at a time, each naming the revision it changes, so that a save from a tab that fell behind is
 * refused (409) rather than overwriting: then autosaving stops and says so. Nothing is saved until there is
 * something to keep.
 */
export function useDraftAutosave(input: DraftAutosaveInput) {
  const { enabled, initial, series } = input;
  const queryClient = useQueryClient();
  const body = draftBody(input);
  const key = JSON.stringify(body);

  const [status, setStatus] = useState<DraftSaveStatus>(initial ? 'saved' : 'idle');
  const [problem, setProblem] = useState<string>();
  const [draft, setDraft] = useState<Draft | undefined>(initial);
  const draftRef = useRef<Draft | undefined>(initial);
  /** The body last saved (or the resumed draft's), to save only what changed. */
  const savedKey = useRef<string | undefined>(initial && JSON.stringify(bodyOfDraft(initial)));
  const latest = useRef({ key, body });
  // What a save sends: the composer as last drawn (a save runs after the render that asked for it).
  useLayoutEffect(() => {
    latest.current = { key, body };
  });
  // Offline (issue 44): the words and the chosen files, for the copy kept on this device.
  const offline = useRef({ content: input.content, files: [] as File[] });
  useLayoutEffect(() => {
    offline.current = { content: input.content, files: input.items.flatMap((item) => (item.file ? [item.file] : [])) };
  });
  /** The saves, one after the other. */
  const chain = useRef<Promise<void>>(Promise.resolve());
  const stopped = useRef(!enabled);

  // A resumed draft: its series choice, and what the composer starts with counts as saved.
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current || !initial) return;
    resumed.current = true;
    if (initial.seriesId) series.set(initial.seriesId, initial.chapter ?? '');
  }, [initial, series]);

  /** Saves the composer as it is now, after any save in flight; answers the draft as saved. */
  const saveNow = useCallback((): Promise<Draft | undefined> => {
    const run = chain.current.then(async () => {
      if (stopped.current) return;
      const { key: now, body: current } = latest.current;
      const existing = draftRef.current;
      if (now === savedKey.current && existing) return;
      if (!existing && isBlank(current)) return;
      setStatus('saving');
      try {
        const saved = existing
          ? await draftsApi.save(existing._id, { ...current, revision: existing.revision })
          : await draftsApi.create(current);
        draftRef.current = saved;
        savedKey.current = now;
        setDraft(saved);
        setStatus('saved');
        setProblem(undefined);
        void dropOfflineDraft();
        void queryClient.invalidateQueries({ queryKey: draftKeys.all });
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          // Another tab or device saved it since: stop, rather than overwrite what it saved.
          stopped.current = true;
          setStatus('conflict');
        } else if (error instanceof ApiError && error.status === 0) {
          // No network: kept on this device, and offered the next time the composer opens (lib/pwa/offline-draft.ts).
          setStatus('failed');
          void keepOfflineDraft(offline.current);
          setProblem(t`You're offline: this post is kept on this device, and offered the next time you add a post.`);
          return;
        } else setStatus('failed');
        setProblem(errorMessage(error));
      }
    });
    chain.current = run.catch(() => {});
    return run.then(() => draftRef.current);
  }, [queryClient]);

  // Debounced: each change restarts the wait.
  useEffect(() => {
    if (stopped.current || key === savedKey.current) return;
    const timer = setTimeout(() => void saveNow(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key, saveNow]);

  // Leaving the page (a reload, a closed tab) saves what the wait had not yet.
  useEffect(() => {
    const leave = () => {
      if (!stopped.current && latest.current.key !== savedKey.current) void saveNow();
    };
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, [saveNow]);

  return {
    /** The draft as last saved (undefined until there was something to save). */
    draft,
    status,
    /** Why the last save failed, or why autosaving stopped. */
    problem,
    /** Saves now (the composer closes, or schedules): the draft, or undefined when there was nothing to keep. */
    flush: saveNow,
    /** The post was published from the composer: no more saves, and the draft goes (its pictures are the post's). */
    async posted(): Promise<void> {
      stopped.current = true;
      await chain.current;
      const gone = draftRef.current;
      if (gone) await draftsApi.discard(gone._id).catch(() => {});
      void dropOfflineDraft();
      void queryClient.invalidateQueries({ queryKey: draftKeys.all });
    },
    /** "Discard": no more saves, and the draft goes with its pictures. */
    async discard(): Promise<void> {
      stopped.current = true;
      await chain.current;
      const gone = draftRef.current;
      if (gone) await draftsApi.discard(gone._id).catch(() => {});
      void dropOfflineDraft();
      void queryClient.invalidateQueries({ queryKey: draftKeys.all });
    },
    /** Scheduled or handed elsewhere: no more saves from this composer. */
    stop(): void {
      stopped.current = true;
    },
  };
}

export type DraftAutosave = ReturnType<typeof useDraftAutosave>;
