import { Check, Plus } from 'lucide-react';
import { Button } from '../../../ui/button';
import { useToggleFollowTag } from '../api/toggle-follow-tag';
import styles from './tag-header.module.css';

/** Follow / Following a tag (aria-pressed): its posts then come to Home, marked "Because you follow #tag". */
export function FollowTagButton({ tag, following }: { tag: string; following: boolean }) {
  const toggle = useToggleFollowTag();
  return (
    <Button
      variant={following ? 'secondary' : 'primary'}
      className={styles.follow}
      aria-pressed={following}
      onClick={() => toggle(tag)}
    >
      {following ? <Check aria-hidden="true" size="1.1em" /> : <Plus aria-hidden="true" size="1.1em" />}
      {following ? 'Following' : 'Follow'}
    </Button>
  );
}
