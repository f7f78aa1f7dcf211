import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { Draft, DraftSummary } from '@share-arts/contract';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { formatPostTime } from '../../../lib/format-date';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { PageHeading } from '../../../ui/page-heading';
import { toast } from '../../../ui/toast';
import { draftKeys, draftsApi, useDrafts } from '../api/drafts';
import { postKeys } from '../api/post-keys';
import { thumbnailOf } from '../components/composer/picture-draft';
import { scheduledLabel } from '../model/draft-time';
import styles from './drafts-page.module.css';

const PostComposer = lazy(() => import('../components/post-composer'));

/**
 * /drafts — the artist's drafts and scheduled posts (issue 41), the last changed first: resume one in the composer,
 * cancel its schedule, or discard it with its pictures.
 */
export default function DraftsPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Drafts`);
  /** What a draft's row says of its words: the first line, or that there are none yet. */
  const wordsOf = (draft: DraftSummary) => draft.excerpt.trim().split('\n')[0] || t`No words yet`;
  const queryClient = useQueryClient();
  const { drafts, isPending, error, refetch, hasNextPage, fetchNextPage, isFetchingNextPage } = useDrafts();
  const [resuming, setResuming] = useState<Draft>();
  const [discarding, setDiscarding] = useState<DraftSummary>();
  const [busy, setBusy] = useState(false);

  const problem = error ? errorMessage(error) : '';
  const refresh = () => queryClient.invalidateQueries({ queryKey: draftKeys.all });

  /** Opens the composer with the whole draft (the list holds its start only). */
  const resume = async (id: string) => {
    setBusy(true);
    try {
      setResuming(await draftsApi.get(id));
    } catch (failure) {
      toast.error(errorMessage(failure));
      await refresh();
    } finally {
      setBusy(false);
    }
  };

  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await work();
      toast.success(done);
    } catch (failure) {
      toast.error(errorMessage(failure));
    } finally {
      setBusy(false);
      await refresh();
    }
  };

  return (
    <div className={styles.page}>
      <PageHeading
        title={t`Drafts`}
        description={t`What you started and did not post yet, and your scheduled posts.`}
      />
      {isPending ? (
        <p role="status" className={styles.muted}>
          <Trans>Loading your drafts…</Trans>
        </p>
      ) : error ? (
        <div role="alert">
          <p>
            <Trans>Your drafts could not be loaded: {problem}</Trans>
          </p>
          <Button variant="secondary" onClick={() => void refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      ) : drafts.length === 0 ? (
        <p className={styles.muted}>
          <Trans>No drafts. What you write in Add Post is kept here until you post it.</Trans>
        </p>
      ) : (
        <ul className={styles.list} aria-label={t`Your drafts`}>
          {drafts.map((draft) => {
            const { cover, pictureCount, publishError } = draft;
            const words = wordsOf(draft);
            const when = draft.scheduledAt && draft.timeZone ? scheduledLabel(draft.scheduledAt, draft.timeZone) : '';
            const saved = formatPostTime(draft.updatedAt);
            return (
              <li key={draft._id} className={styles.draft}>
                {cover ? (
                  <img src={thumbnailOf(cover)} alt="" className={styles.thumb} loading="lazy" />
                ) : (
                  <span className={styles.thumb} aria-hidden="true" />
                )}
                <div className={styles.body}>
                  <p className={styles.words}>{words}</p>
                  {when ? (
                    <p className={styles.scheduled}>
                      <Trans>Publishes {when}</Trans>
                    </p>
                  ) : (
                    <p className={styles.meta}>
                      <Trans>Saved {saved}</Trans>
                      {pictureCount > 0 && (
                        <>
                          {' · '}
                          <Plural value={pictureCount} one="# picture" other="# pictures" />
                        </>
                      )}
                    </p>
                  )}
                  {publishError && (
                    <p className={styles.problem}>
                      <Trans>Not published at its time: {publishError}</Trans>
                    </p>
                  )}
                  <div className={styles.actions}>
                    <Button
                      variant="secondary"
                      disabled={busy}
                      onClick={() => void resume(draft._id)}
                      onPointerEnter={() => void import('../components/post-composer')}
                      aria-label={t`Resume: ${words}`}
                    >
                      <Trans>Resume</Trans>
                    </Button>
                    {draft.scheduledAt && (
                      <Button
                        variant="secondary"
                        disabled={busy}
                        onClick={() =>
                          void run(() => draftsApi.unschedule(draft._id), t`Schedule cancelled: kept as a draft`)
                        }
                      >
                        <Trans>Cancel schedule</Trans>
                      </Button>
                    )}
                    <Button variant="secondary" disabled={busy} onClick={() => setDiscarding(draft)}>
                      <Trans>Discard</Trans>
                    </Button>
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {hasNextPage && (
        <Button variant="secondary" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
          {isFetchingNextPage ? t`Loading…` : t`Show more`}
        </Button>
      )}
      {resuming && (
        <Suspense fallback={null}>
          <PostComposer
            draft={resuming}
            onClose={() => {
              setResuming(undefined);
              void refresh();
              void queryClient.invalidateQueries({ queryKey: postKeys.lists() });
            }}
          />
        </Suspense>
      )}
      {discarding && (
        <ConfirmDialog
          title={t`Discard this draft?`}
          confirmLabel={t`Discard`}
          busyLabel={t`Discarding…`}
          busy={busy}
          onClose={() => setDiscarding(undefined)}
          onConfirm={() =>
            void run(() => draftsApi.discard(discarding._id), t`Draft discarded`).then(() => setDiscarding(undefined))
          }
        >
          <Trans>Its words and pictures will be deleted.</Trans>
        </ConfirmDialog>
      )}
    </div>
  );
}
