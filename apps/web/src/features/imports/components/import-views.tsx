import type { Import, ImportItem, ImportOptions } from '@share-arts/contract';
import { Link } from 'react-router';
import { shortDate } from '../../../lib/format-date';
import { Button } from '../../../ui/button';
import styles from './import-settings.module.css';

const SOURCE_NAMES: Record<Import['source'], string> = {
  instagram: 'Instagram',
  mastodon: 'Mastodon',
  pixelfed: 'Pixelfed',
  'share-arts': 'Share Arts',
};

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** "about 4 minutes left" at the pace so far; nothing before the first picture is done. */
export function formatEstimate(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 60) return 'less than a minute left';
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${plural(minutes, 'minute')} left`;
  return `about ${plural(Math.round(minutes / 60), 'hour')} left`;
}

/** "Mar 4, 2019 – Jan 29, 2023", one date when both are the day, nothing without dates. */
export function dateRange(from: string | null, to: string | null): string {
  if (!from || !to) return '';
  const [start, end] = [shortDate(new Date(from), true), shortDate(new Date(to), true)];
  return start === end ? start : `${start} – ${end}`;
}

/** What profile the archive holds, in a sentence: its bio's first words, and whether it has a photo. */
export function profileFound(profile: { bio: string; photo: boolean }): string {
  const found = profile.bio
    ? `The archive holds a bio, \u201c${profile.bio}\u201d${profile.photo ? ', and a profile photo' : ''}`
    : 'The archive holds a profile photo';
  return `${found}: chosen, ${profile.bio && profile.photo ? 'they replace' : 'it replaces'} yours.`;
}

/** What became of the archive's profile, when it was chosen; the photo's problem, if any, said. */
function ProfileOutcome({ outcome }: { outcome: NonNullable<Import['profile']> }) {
  const set = [outcome.bio && 'bio', outcome.photo && 'profile photo'].filter(Boolean).join(' and ');
  return (
    <>
      {set && (
        <p className={styles.hint}>
          Your {set} {outcome.bio && outcome.photo ? 'were' : 'was'} set from the archive.
        </p>
      )}
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
  const { preview } = item;
  const range = dateRange(preview.from, preview.to);
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
        From {SOURCE_NAMES[item.source]}: {plural(preview.works, 'work')} with {plural(preview.pictures, 'picture')}
        {range && <>, {range}</>}.
      </p>
      {preview.skipped + preview.videos > 0 && (
        <p className={styles.hint}>
          {preview.skipped > 0 && (
            <>
              {plural(preview.skipped, 'post')} will be skipped (boosts, replies, posts without pictures or over the
              limits).{' '}
            </>
          )}
          {preview.videos > 0 && <>{plural(preview.videos, 'video')} will be left out: Share Arts keeps pictures.</>}
        </p>
      )}
      {preview.first.length > 0 && (
        <ol className={styles.first} aria-label="The first works">
          {preview.first.map((work, i) => (
            <li key={i}>
              <span className={styles.caption}>{work.caption || 'No caption'}</span>
              <span className={styles.meta}>
                {work.date ? shortDate(new Date(work.date), true) : 'No date'} · {plural(work.pictures, 'picture')}
              </span>
            </li>
          ))}
        </ol>
      )}
      <fieldset className={styles.choices}>
        <legend className={styles.hint}>Choices</legend>
        {choice('keepDates', 'Keep the original dates')}
        {choice('hashtagsAsTags', 'Turn caption hashtags into tags')}
        {choice('markImported', `Mark each work as imported from ${SOURCE_NAMES[item.source]}`)}
        {preview.profile && (
          <>
            {choice('profile', 'Use the bio and photo from the archive')}
            <p className={styles.profile}>{profileFound(preview.profile)}</p>
          </>
        )}
      </fieldset>
      <p className={styles.hint}>
        Imported works take their place in your grid by date. Nobody is notified, they do not come to the top of
        anyone&rsquo;s Home, and they are not sent to the fediverse as new posts.
      </p>
      <div className={styles.row}>
        <Button disabled={starting || preview.works === 0} onClick={onStart}>
          {starting ? 'Starting…' : `Import ${plural(preview.works, 'work')}`}
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
  return (
    <div className={styles.stage}>
      <progress
        className={styles.bar}
        max={total}
        value={progress.postsDone}
        aria-label={`Importing from ${SOURCE_NAMES[item.source]}`}
        aria-valuetext={`${percent}%`}
      />
      <p role="status" className={styles.summary}>
        {item.state === 'queued' ? 'Starting… ' : `${percent}% · `}
        {progress.postsDone.toLocaleString('en-US')} of {plural(progress.postsTotal, 'post')},{' '}
        {progress.picturesDone.toLocaleString('en-US')} of {plural(progress.picturesTotal, 'picture')}
        {estimate && <> · {estimate}</>}
      </p>
      <p className={styles.hint}>
        You can close this page: the import goes on, and its progress is here when you come back.
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
  const { progress } = item;
  if (item.state === 'failed') {
    return (
      <div className={styles.stage}>
        <p role="alert" className={styles.error}>
          {item.error}
        </p>
        {progress.imported > 0 && (
          <p className={styles.hint}>{plural(progress.imported, 'work')} came before it stopped.</p>
        )}
      </div>
    );
  }
  return (
    <div className={styles.stage}>
      <p role="status" className={styles.summary}>
        Done: {plural(progress.imported, 'work')} imported from {SOURCE_NAMES[item.source]}
        {progress.skipped > 0 && <>, {plural(progress.skipped, 'post')} skipped</>}.
      </p>
      {item.profile && <ProfileOutcome outcome={item.profile} />}
      {imported.length > 0 && (
        <details className={styles.details}>
          <summary>Imported works</summary>
          <ul className={styles.list}>
            {imported.map((work) => (
              <li key={work.position}>
                {work.postId ? (
                  <Link to={`/posts/${work.postId}`}>{work.caption || 'Untitled work'}</Link>
                ) : (
                  <span>{work.caption || 'Untitled work'} (deleted since)</span>
                )}
                {work.reason && <span className={styles.meta}> · {work.reason}</span>}
              </li>
            ))}
            {progress.imported > imported.length && (
              <li className={styles.meta}>
                and {plural(progress.imported - imported.length, 'more work')} in your profile
              </li>
            )}
          </ul>
        </details>
      )}
      {skipped.length > 0 && (
        <details className={styles.details} open>
          <summary>Skipped, and why</summary>
          <ul className={styles.list}>
            {skipped.map((post) => (
              <li key={post.position}>
                <span>{post.caption || 'A post without a caption'}</span>
                <span className={styles.meta}>
                  {post.date && <> ({shortDate(new Date(post.date), true)})</>}: {post.reason}
                </span>
              </li>
            ))}
            {progress.skipped > skipped.length && (
              <li className={styles.meta}>and {plural(progress.skipped - skipped.length, 'more post')}</li>
            )}
          </ul>
        </details>
      )}
    </div>
  );
}
