import {
  LICENCE_INFO,
  type KeptPicture,
  type PostHistoryPage,
  type PostRevision,
  type PostRevisionPictures,
  type PostRevisionValues,
} from '@share-arts/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiClient, authHeader, errorMessage } from '../../../lib/api-client';
import { formatFullDate } from '../../../lib/format-date';
import { Button } from '../../../ui/button';
import { Modal } from '../../../ui/modal';
import styles from './post-history-dialog.module.css';

/** The history of a work (issue 41): what each edit changed, newest first. Loaded only when "edited" is chosen. */

const historyPath = (postId: string, cursor: string | null) =>
  `/api/posts/${encodeURIComponent(postId)}/history${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`;

type Field = keyof PostRevisionValues;

const FIELD_NAMES: Record<Field, string> = {
  content: 'Words',
  contentWarning: 'Content warning',
  commentPolicy: 'Who may comment',
  licence: 'Licence',
  aiGenerated: 'AI-generated',
  downloadable: 'Downloads',
};

const POLICIES: Record<string, string> = {
  everyone: 'Everyone',
  following: 'People the artist follows',
  nobody: 'Nobody',
};

function valueText(field: Field, value: PostRevisionValues[Field]): string {
  switch (field) {
    case 'content':
      return String(value ?? '');
    case 'contentWarning':
      return value === null || value === undefined ? 'None' : String(value);
    case 'commentPolicy':
      return POLICIES[String(value)] ?? String(value);
    case 'licence':
      return LICENCE_INFO[value as keyof typeof LICENCE_INFO]?.name ?? String(value);
    case 'aiGenerated':
      return value ? 'Yes' : 'No';
    case 'downloadable':
      return value ? 'Allowed' : 'Not allowed';
  }
}

const countText = (n: number) => `${n} ${n === 1 ? 'picture' : 'pictures'}`;

/** A picture the history keeps, read with the author's token (its file is public to nobody). */
function KeptThumb({ picture }: { picture: KeptPicture }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    fetch(picture.thumbUrl, { headers: authHeader(), signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        url = URL.createObjectURL(await response.blob());
        setSrc(url);
      })
      .catch((error: unknown) => {
        if (!(error instanceof DOMException && error.name === 'AbortError')) setFailed(true);
      });
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [picture.thumbUrl]);
  const ratio = `${picture.width} / ${picture.height}`;
  return (
    <li className={styles.thumb} style={{ aspectRatio: ratio }}>
      {src ? (
        <img src={src} alt={picture.alt || 'An earlier picture, without alt text'} className={styles.image} />
      ) : (
        <span className={styles.loading} role="img" aria-label={failed ? 'Could not load this picture' : 'Loading…'} />
      )}
    </li>
  );
}

function PicturesChange({ label, change }: { label: string; change: PostRevisionPictures }) {
  return (
    <li>
      <span className={styles.field}>{label}</span>{' '}
      {change.before === change.after
        ? `changed (${countText(change.after)})`
        : `${countText(change.before)} → ${countText(change.after)}`}
      {change.earlier && change.earlier.length > 0 && (
        <>
          <span className={styles.note}>Before this edit (only you see these):</span>
          <ul className={styles.thumbs}>
            {change.earlier.map((picture) => (
              <KeptThumb key={picture._id} picture={picture} />
            ))}
          </ul>
        </>
      )}
    </li>
  );
}

function Revision({ revision }: { revision: PostRevision }) {
  const fields = revision.changed.filter((field): field is Field => field in FIELD_NAMES);
  return (
    <li className={styles.revision}>
      <time className={styles.when} dateTime={revision.createdAt}>
        {formatFullDate(revision.createdAt)}
      </time>
      <ul className={styles.changes}>
        {fields.map((field) =>
          field === 'content' ? (
            <li key={field}>
              <span className={styles.field}>Words changed.</span>
              <span className={styles.note}>Before:</span>
              <blockquote className={styles.words}>{valueText(field, revision.before[field])}</blockquote>
              <span className={styles.note}>After:</span>
              <blockquote className={styles.words}>{valueText(field, revision.after[field])}</blockquote>
            </li>
          ) : (
            <li key={field}>
              <span className={styles.field}>{FIELD_NAMES[field]}:</span> {valueText(field, revision.before[field])} →{' '}
              {valueText(field, revision.after[field])}
            </li>
          ),
        )}
        {revision.pictures && <PicturesChange label="Pictures:" change={revision.pictures} />}
        {revision.processPictures && <PicturesChange label="Process pictures:" change={revision.processPictures} />}
      </ul>
    </li>
  );
}

export default function PostHistoryDialog({ postId, onClose }: { postId: string; onClose: () => void }) {
  const query = useInfiniteQuery({
    queryKey: ['posts', 'history', postId],
    queryFn: ({ pageParam, signal }) => apiClient.get<PostHistoryPage>(historyPath(postId, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    // Read again each time it opens: an edit since may have added a revision.
    staleTime: 0,
  });
  const revisions = query.data?.pages.flatMap((page) => page.revisions) ?? [];
  return (
    <Modal title="Edit history" onClose={onClose}>
      {query.isPending ? (
        <p className={styles.status} role="status">
          Loading the history…
        </p>
      ) : query.isError ? (
        <p className={styles.status} role="alert">
          {errorMessage(query.error)}
        </p>
      ) : revisions.length === 0 ? (
        <p className={styles.status}>This work has not been edited.</p>
      ) : (
        <ol className={styles.list} aria-label="Edits, newest first">
          {revisions.map((revision) => (
            <Revision key={revision._id} revision={revision} />
          ))}
        </ol>
      )}
      {query.hasNextPage && (
        <Button variant="secondary" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {query.isFetchingNextPage ? 'Loading…' : 'Show older edits'}
        </Button>
      )}
    </Modal>
  );
}
