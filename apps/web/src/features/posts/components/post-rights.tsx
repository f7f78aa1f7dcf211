import { Trans, useLingui } from '@lingui/react/macro';
import { LICENCE_INFO, mayDownload, type Post } from '@share-arts/contract';
import { Download } from 'lucide-react';
import { useCurrentUser } from '../../../lib/session';
import { useQuery } from '@tanstack/react-query';
import { getUserByUsername, userKeys } from '../../people';
import { postPictures } from './post-picture';
import styles from './post-rights.module.css';
import { licenceName as licenceNameOf } from '../model/licence-names';
import { rightsError } from '../model/rights-errors';

/**
 * On the post page: the work's licence (with a link to its text) and, when the author allows it (a Creative
 * Commons licence, or downloads on), a Download link per original picture; none for a work from another server.
 */

export function PostLicence({ post }: { post: Post }) {
  const { t } = useLingui();
  const licence = LICENCE_INFO[post.licence];
  const licenceName = licenceNameOf(post.licence);
  const artist = post.name || post.username;
  const pictures = postPictures(post);
  // A work from another server: what is here is our copy, not its original (that is on its own server).
  const downloads = mayDownload(post) && !post.origin ? pictures : [];
  return (
    <section className={styles.rights} aria-label={t`Licence`}>
      <p className={styles.licence}>
        {licence.url ? (
          <Trans>
            Licence:{' '}
            <a href={licence.url} rel="license noopener noreferrer" target="_blank">
              {licenceName}
            </a>
          </Trans>
        ) : (
          <Trans>
            Licence:{' '}
            <span>
              {licenceName} © {artist}
            </span>
          </Trans>
        )}
        {post.aiGenerated && (
          <span>
            {' '}
            ·{' '}
            <Trans>
              Labelled by the artist as <span className={styles.word}>AI-generated</span>
            </Trans>
          </span>
        )}
      </p>
      {downloads.length > 0 && (
        <p className={styles.downloads}>
          {downloads.map((picture, index) => {
            const number = index + 1;
            const total = downloads.length;
            return (
              <a
                key={picture._id}
                className={styles.download}
                href={`${picture.originalUrl}?download`}
                download={picture.originalName}
              >
                <Download aria-hidden="true" size="1em" />
                {downloads.length > 1 ? t`Download original ${number} of ${total}` : t`Download original`}
              </a>
            );
          })}
        </p>
      )}
    </section>
  );
}

/**
 * Whether the viewer may comment on the post (its author's comment policy): `allowed`, or the reason why
 * not, said in place of the comment box. "People I follow" asks the author's profile whether the author
 * follows the viewer (`followsYou`), only for such a post; `pending` until it knows.
 */
export function useCommentPermission(post: Post): { allowed: boolean; pending: boolean; message?: string } {
  const { data: me } = useCurrentUser();
  const isAuthor = post.viewer.isAuthor || (me != null && me._id === post.userId);
  const needsProfile = post.commentPolicy === 'following' && me != null && !isAuthor;
  const author = useQuery({
    queryKey: userKeys.profile(post.username),
    queryFn: ({ signal }) => getUserByUsername(post.username, signal),
    enabled: needsProfile,
  });
  if (post.commentPolicy === 'nobody') return { allowed: false, pending: false, message: rightsError('commentsOff') };
  if (!needsProfile) return { allowed: true, pending: false };
  if (!author.data) return { allowed: false, pending: author.isPending };
  return author.data.viewer.followsYou
    ? { allowed: true, pending: false }
    : { allowed: false, pending: false, message: rightsError('commentsFollowing') };
}
