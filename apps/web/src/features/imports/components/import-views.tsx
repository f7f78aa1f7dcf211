import { i18n } from '@lingui/core';
import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { APP_NAME, type Import, type ImportItem, type ImportOptions } from '@share-arts/contract';
import { Link } from 'react-router';
import { shortDate } from '../../../lib/format-date';
import { Button } from '../../../ui/button';
import styles from './import-settings.module.css';

/** The services' own names, never translated. */
const BRANDS = { INSTAGRAM: 'Instagram', MASTODON: 'Mastodon', PIXELFED: 'Pixelfed' } as const;

const SOURCE_NAMES: Record<Import['source'], string> = {
  instagram: BRANDS.INSTAGRAM,
  mastodon: BRANDS.MASTODON,
  pixelfed: BRANDS.PIXELFED,
  'share-arts': APP_NAME,
};

/** A count as the current language writes numbers ("1,234"). */
const number = (count: number) => count.toLocaleString(i18n.locale || 'en');

/** "about 4 minutes left" at the pace so far; nothing before the first picture is done. */
export function formatEstimate(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 60) return t`less than a minute left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return plural(minutes, { one: 'about # minute left', other: 'about # minutes left' });
  const hours = Math.round(minutes / 60);
  return plural(hours, { one: 'about # hour left', other: 'about # hours left' });
}

/** "Mar 4, 2019 – Jan 29, 2023", one date when both are the day, nothing without dates. */
export function dateRange(from: string | null, to: string | null): string {
  if (!from || !to) return '';
  const [start, end] = [shortDate(new Date(from), true), shortDate(new Date(to), true)];
  return start === end ? start : `${start} – ${end}`;
}

/** What profile the archive holds, in a sentence: its bio's first words, and whether it has a photo. */
export function profileFound(profile: { bio: string; photo: boolean }): string {
  const bio = profile.bio;
  if (bio && profile.photo)
    return t`The archive holds a bio, “${bio}”, and a profile photo: chosen, they replace yours.`;
  if (bio) return t`The archive holds a bio, “${bio}”: chosen, it replaces yours.`;
  return t`The archive holds a profile photo: chosen, it replaces yours.`;
}

/** What became of the archive's profile, when it was chosen; the photo's problem, if any, said. */
function ProfileOutcome({ outcome }: { outcome: NonNullable<Import['profile']> }) {
  const { t } = useLingui();
  const set =
    outcome.bio && outcome.photo
      ? t`Your bio and profile photo were set from the archive.`
      : outcome.bio
        ? t`Your bio was set from the archive.`
        : outcome.photo
          ? t`Your profile photo was set from the archive.`
          : '';
  return (
    <>
      {set && <p className={styles.hint}>{set}</p>}
      {outcome.problem && <p className={styles.error}>{outcome.problem}</p>}
    </>
  );
}

/** The preview of an uploaded archive: what will come, the first few works, the choices, and Start. */
export function ImportPreviewView({
  item,
  options,
  onOptions,
  onStart,
  starting,
}: {
  item: Import;
  options: ImportOptions;
  onOptions: (options: ImportOptions) => void;
  onStart: () => void;
  starting: boolean;
}) {
  const { t } = useLingui();
  const { preview } = item;
  const range = dateRange(preview.from, preview.to);
  const source = SOURCE_NAMES[item.source];
  const works = preview.works;
  const pictures = preview.pictures;
  const skippedCount = preview.skipped;
  const videos = preview.videos;
  const choice = (key: keyof ImportOptions, label: string) => (
    <label className={styles.option}>
      <input
        type="checkbox"
        className={styles.checkbox}
        checked={options[key]}
        onChange={(event) => onOptions({ ...options, [key]: event.target.checked })}
      />
      <span>{label}</span>
    </label>
  );
  return (
    <div className={styles.stage}>
      <p className={styles.summary}>
        {range
          ? t`From ${source}: ${plural(works, { one: '# work', other: '# works' })} with ${plural(pictures, {
              one: '# picture',
              other: '# pictures',
            })}, ${range}.`
          : t`From ${source}: ${plural(works, { one: '# work', other: '# works' })} with ${plural(pictures, {
              one: '# picture',
              other: '# pictures',
            })}.`}
      </p>
      {skippedCount + videos > 0 && (
        <p className={styles.hint}>
          {skippedCount > 0 && (
            <>
              {plural(skippedCount, {
                one: '# post will be skipped (boosts, replies, posts without pictures or over the limits).',
                other: '# posts will be skipped (boosts, replies, posts without pictures or over the limits).',
              })}{' '}
            </>
          )}
          {videos > 0 &&
            plural(videos, {
              one: '# video will be left out: Share Arts keeps pictures.',
              other: '# videos will be left out: Share Arts keeps pictures.',
            })}
        </p>
      )}
      {preview.first.length > 0 && (
        <ol className={styles.first} aria-label={t`The first works`}>
          {preview.first.map((work, i) => {
            const count = work.pictures;
            return (
              <li key={i}>
                <span className={styles.caption}>{work.caption || t`No caption`}</span>
                <span className={styles.meta}>
                  {work.date ? shortDate(new Date(work.date), true) : t`No date`} ·{' '}
                  {plural(count, { one: '# picture', other: '# pictures' })}
                </span>
              </li>
            );
          })}
        </ol>
      )}
      <fieldset className={styles.choices}>
        <legend className={styles.hint}>
          <Trans>Choices</Trans>
        </legend>
        {choice('keepDates', t`Keep the original dates`)}
        {choice('hashtagsAsTags', t`Turn caption hashtags into tags`)}
        {choice('markImported', t`Mark each work as imported from ${source}`)}
        {preview.profile && (
          <>
            {choice('profile', t`Use the bio and photo from the archive`)}
            <p className={styles.profile}>{profileFound(preview.profile)}</p>
          </>
        )}
      </fieldset>
      <p className={styles.hint}>
        <Trans>
          Imported works take their place in your grid by date. Nobody is notified, they do not come to the top of
          anyone&rsquo;s Home, and they are not sent to the fediverse as new posts.
        </Trans>
      </p>
      <div className={styles.row}>
        <Button disabled={starting || works === 0} onClick={onStart}>
          {starting ? t`Starting…` : plural(works, { one: 'Import # work', other: 'Import # works' })}
        </Button>
      </div>
    </div>
  );
}

/** A running import: the bar, posts and pictures done, the estimate, and that the page may be closed. */
export function ImportProgressView({ item }: { item: Import }) {
  const { progress } = item;
  const total = Math.max(1, progress.postsTotal);
  const percent = Math.floor((progress.postsDone / total) * 100);
  const estimate = formatEstimate(progress.estimateSeconds);
  const { t } = useLingui();
  const source = SOURCE_NAMES[item.source];
  const shownPercent = new Intl.NumberFormat(i18n.locale || 'en', { style: 'percent' }).format(percent / 100);
  const postsDone = number(progress.postsDone);
  const picturesDone = number(progress.picturesDone);
  const postsTotal = progress.postsTotal;
  const picturesTotal = progress.picturesTotal;
  const counts = t`${postsDone} of ${plural(postsTotal, { one: '# post', other: '# posts' })}, ${picturesDone} of ${plural(
    picturesTotal,
    { one: '# picture', other: '# pictures' },
  )}`;
  return (
    <div className={styles.stage}>
      <progress
        className={styles.bar}
        max={total}
        value={progress.postsDone}
        aria-label={t`Importing from ${source}`}
        aria-valuetext={shownPercent}
      />
      <p role="status" className={styles.summary}>
        {item.state === 'queued' ? `${t`Starting…`} ` : `${shownPercent} · `}
        {counts}
        {estimate && <> · {estimate}</>}
      </p>
      <p className={styles.hint}>
        <Trans>You can close this page: the import goes on, and its progress is here when you come back.</Trans>
      </p>
    </div>
  );
}

/** A finished import: what was imported (each a link to its work) and what was skipped, and why. */
export function ImportResultView({
  item,
  imported,
  skipped,
}: {
  item: Import;
  imported: ImportItem[];
  skipped: ImportItem[];
}) {
  const { t } = useLingui();
  const { progress } = item;
  const importedCount = progress.imported;
  const skippedCount = progress.skipped;
  const source = SOURCE_NAMES[item.source];
  const moreWorks = progress.imported - imported.length;
  const morePosts = progress.skipped - skipped.length;
  if (item.state === 'failed') {
    return (
      <div className={styles.stage}>
        <p role="alert" className={styles.error}>
          {item.error}
        </p>
        {importedCount > 0 && (
          <p className={styles.hint}>
            {plural(importedCount, {
              one: '# work came before it stopped.',
              other: '# works came before it stopped.',
            })}
          </p>
        )}
      </div>
    );
  }
  return (
    <div className={styles.stage}>
      <p role="status" className={styles.summary}>
        {skippedCount > 0
          ? t`Done: ${plural(importedCount, { one: '# work', other: '# works' })} imported from ${source}, ${plural(
              skippedCount,
              { one: '# post', other: '# posts' },
            )} skipped.`
          : t`Done: ${plural(importedCount, { one: '# work', other: '# works' })} imported from ${source}.`}
      </p>
      {item.profile && <ProfileOutcome outcome={item.profile} />}
      {imported.length > 0 && (
        <details className={styles.details}>
          <summary>
            <Trans>Imported works</Trans>
          </summary>
          <ul className={styles.list}>
            {imported.map((work) => {
              const caption = work.caption || t`Untitled work`;
              return (
                <li key={work.position}>
                  {work.postId ? (
                    <Link to={`/posts/${work.postId}`}>{caption}</Link>
                  ) : (
                    <span>{t`${caption} (deleted since)`}</span>
                  )}
                  {work.reason && <span className={styles.meta}> · {work.reason}</span>}
                </li>
              );
            })}
            {moreWorks > 0 && (
              <li className={styles.meta}>
                {plural(moreWorks, {
                  one: 'and # more work in your profile',
                  other: 'and # more works in your profile',
                })}
              </li>
            )}
          </ul>
        </details>
      )}
      {skipped.length > 0 && (
        <details className={styles.details} open>
          <summary>
            <Trans>Skipped, and why</Trans>
          </summary>
          <ul className={styles.list}>
            {skipped.map((post) => (
              <li key={post.position}>
                <span>{post.caption || t`A post without a caption`}</span>
                <span className={styles.meta}>
                  {post.date && <> ({shortDate(new Date(post.date), true)})</>}: {post.reason}
                </span>
              </li>
            ))}
            {morePosts > 0 && (
              <li className={styles.meta}>
                {plural(morePosts, { one: 'and # more post', other: 'and # more posts' })}
              </li>
            )}
          </ul>
        </details>
      )}
    </div>
  );
}
