import { msg, plural, t } from '@lingui/core/macro';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { Trans, useLingui as useLinguiMacro } from '@lingui/react/macro';
import {
  LICENCES,
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
import { licenceName } from '../model/licence-names';

/** The history of a work (issue 41): what each edit changed, newest first. Loaded only when "edited" is chosen. */

const historyPath = (postId: string, cursor: string | null) =>
  `/api/posts/${encodeURIComponent(postId)}/history${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`;

type Field = keyof PostRevisionValues;

const FIELD_NAMES: Record<Field, MessageDescriptor> = {
  content: msg`Words`,
  language: msg`Language`,
  contentWarning: msg`Content warning`,
  commentPolicy: msg`Who may comment`,
  licence: msg`Licence`,
  aiGenerated: msg`AI-generated`,
  downloadable: msg`Downloads`,
};

/** Said at call time, in the current language. */
function policyText(policy: string): string {
  switch (policy) {
    case 'everyone':
      return t`Everyone`;
    case 'following':
      return t`People the artist follows`;
    case 'nobody':
      return t`Nobody`;
    default:
      return policy;
  }
}

/** A language tag by its name in the app's language now ("Japanese", "japonés"); "Not said" for none (issue 43). */
function languageText(tag: unknown): string {
  if (typeof tag !== 'string' || tag === '') return t`Not said`;
  try {
    return new Intl.DisplayNames([i18n.locale || 'en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

function valueText(field: Field, value: PostRevisionValues[Field]): string {
  switch (field) {
    case 'content':
      return String(value ?? '');
    case 'language':
      return languageText(value);
    case 'contentWarning':
      return value === null || value === undefined ? t`None` : String(value);
    case 'commentPolicy':
      return policyText(String(value));
    case 'licence':
      return LICENCES.includes(value as (typeof LICENCES)[number])
        ? licenceName(value as (typeof LICENCES)[number])
        : String(value);
    case 'aiGenerated':
      return value ? t`Yes` : t`No`;
    case 'downloadable':
      return value ? t`Allowed` : t`Not allowed`;
  }
}

const countText = (n: number) => plural(n, { one: '# picture', other: '# pictures' });

/** A picture the history keeps, read with the author's token (its file is public to nobody). */
function KeptThumb({ picture }: { picture: KeptPicture }) {
  const [src, setSrc] = useState<string | null>(null);
  const { t } = useLinguiMacro();
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
        <img src={src} alt={picture.alt || t`An earlier picture, without alt text`} className={styles.image} />
      ) : (
        <span
          className={styles.loading}
          role="img"
          aria-label={failed ? t`Could not load this picture` : t`Loading…`}
        />
      )}
    </li>
  );
}

function PicturesChange({ label, change }: { label: string; change: PostRevisionPictures }) {
  const { t } = useLinguiMacro();
  const after = countText(change.after);
  const before = countText(change.before);
  return (
    <li>
      <span className={styles.field}>{label}</span>{' '}
      {change.before === change.after ? t`changed (${after})` : t`${before} → ${after}`}
      {change.earlier && change.earlier.length > 0 && (
        <>
          <span className={styles.note}>
            <Trans>Before this edit (only you see these):</Trans>
          </span>
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
  const { _ } = useLingui();
  const { t } = useLinguiMacro();
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
              <span className={styles.field}>
                <Trans>Words changed.</Trans>
              </span>
              <span className={styles.note}>
                <Trans>Before:</Trans>
              </span>
              <blockquote className={styles.words}>{valueText(field, revision.before[field])}</blockquote>
              <span className={styles.note}>
                <Trans>After:</Trans>
              </span>
              <blockquote className={styles.words}>{valueText(field, revision.after[field])}</blockquote>
            </li>
          ) : (
            <FieldChange
              key={field}
              name={_(FIELD_NAMES[field])}
              before={valueText(field, revision.before[field])}
              after={valueText(field, revision.after[field])}
            />
          ),
        )}
        {revision.pictures && <PicturesChange label={t`Pictures:`} change={revision.pictures} />}
        {revision.processPictures && <PicturesChange label={t`Process pictures:`} change={revision.processPictures} />}
      </ul>
    </li>
  );
}

/** "Licence: CC BY → All rights reserved". */
function FieldChange({ name, before, after }: { name: string; before: string; after: string }) {
  return (
    <li>
      <Trans>
        <span className={styles.field}>{name}:</span> {before} → {after}
      </Trans>
    </li>
  );
}

export default function PostHistoryDialog({ postId, onClose }: { postId: string; onClose: () => void }) {
  const { t } = useLinguiMacro();
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
    <Modal title={t`Edit history`} onClose={onClose}>
      {query.isPending ? (
        <p className={styles.status} role="status">
          <Trans>Loading the history…</Trans>
        </p>
      ) : query.isError ? (
        <p className={styles.status} role="alert">
          {errorMessage(query.error)}
        </p>
      ) : revisions.length === 0 ? (
        <p className={styles.status}>
          <Trans>This work has not been edited.</Trans>
        </p>
      ) : (
        <ol className={styles.list} aria-label={t`Edits, newest first`}>
          {revisions.map((revision) => (
            <Revision key={revision._id} revision={revision} />
          ))}
        </ol>
      )}
      {query.hasNextPage && (
        <Button variant="secondary" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {query.isFetchingNextPage ? t`Loading…` : t`Show older edits`}
        </Button>
      )}
    </Modal>
  );
}
