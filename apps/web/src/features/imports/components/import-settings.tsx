import { Trans, useLingui } from '@lingui/react/macro';
import { IMPORT_LIMITS, type Import, type ImportOptions } from '@share-arts/contract';
import { useId, useState, type ChangeEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useImportItems, useLatestImport, useStartImport, useUploadArchive } from '../api/use-imports';
import { ImportPreviewView, ImportProgressView, ImportResultView } from './import-views';
import styles from './import-settings.module.css';

const DEFAULT_OPTIONS: ImportOptions = {
  keepDates: true,
  hashtagsAsTags: true,
  markImported: false,
  profile: false,
};

/** The result of a finished import, with its imported and skipped posts read from the server. */
function FinishedImport({ item }: { item: Import }) {
  const imported = useImportItems(item._id, 'imported');
  const skipped = useImportItems(item._id, 'skipped');
  return <ImportResultView item={item} imported={imported.data?.items ?? []} skipped={skipped.data?.items ?? []} />;
}

/**
 * Settings' "Import your work" (issue 40): upload an archive from Instagram, Mastodon, Pixelfed or another Share
 * Arts, see its preview and make the choices, then follow the import live. What it shows comes from the server (the
 * account's newest import), so closing the tab loses nothing.
 */
export function ImportSettings() {
  const { t, i18n } = useLingui();
  const id = useId();
  const latest = useLatestImport();
  const gigabytes = IMPORT_LIMITS.maxArchiveBytes / 1024 ** 3;
  const upload = useUploadArchive();
  const start = useStartImport();
  const [options, setOptions] = useState<ImportOptions>(DEFAULT_OPTIONS);
  const item = latest.data ?? undefined;
  const busy = item?.state === 'queued' || item?.state === 'running';

  const sentPercent = new Intl.NumberFormat(i18n.locale || 'en', { style: 'percent' }).format(
    Math.floor(upload.sent * 100) / 100,
  );

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) upload.mutate(file);
  };

  return (
    <section className={styles.card} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.title}>
        <Trans>Import your work</Trans>
      </h2>
      <p className={styles.hint}>
        <Trans>
          Bring your portfolio from Instagram (&ldquo;Download your information&rdquo;, in JSON format), Mastodon or
          Pixelfed (your account&rsquo;s archive), or another Share Arts (&ldquo;Download your data&rdquo;): upload the
          zip as it is, up to {gigabytes} GB. Each picture goes through the same checks as an upload; nothing is
          imported twice.
        </Trans>
      </p>
      {item?.state === 'ready' && (
        <ImportPreviewView
          item={item}
          options={options}
          onOptions={setOptions}
          starting={start.isPending}
          // The profile choice of an earlier archive means nothing for one without a profile.
          onStart={() =>
            start.mutate({ id: item._id, options: { ...options, profile: options.profile && !!item.preview.profile } })
          }
        />
      )}
      {busy && item && <ImportProgressView item={item} />}
      {(item?.state === 'done' || item?.state === 'failed') && <FinishedImport item={item} />}
      {!busy && (
        <div className={styles.row}>
          <label className={styles.upload}>
            <input
              type="file"
              accept=".zip,application/zip"
              className={styles.file}
              disabled={upload.isPending}
              onChange={choose}
            />
            <span>{upload.isPending ? t`Uploading…` : item ? t`Upload another archive` : t`Choose an archive`}</span>
          </label>
        </div>
      )}
      {upload.isPending && (
        <p role="status" className={styles.hint}>
          {upload.sent < 1 ? t`Uploading… ${sentPercent}` : t`Reading the archive: its preview comes in a moment.`}
        </p>
      )}
      {upload.isError && (
        <p role="alert" className={styles.error}>
          {errorMessage(upload.error)}
        </p>
      )}
      {start.isError && (
        <p role="alert" className={styles.error}>
          {errorMessage(start.error)}
        </p>
      )}
    </section>
  );
}
