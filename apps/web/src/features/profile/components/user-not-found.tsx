import { UserX } from 'lucide-react';
import { NotFound } from '../../../ui/not-found';

/** An unknown username: say so plainly and offer the way home. */
export function UserNotFound({ username }: { username: string }) {
  return (
    <NotFound icon={UserX} title="User not found">
      There is nobody called <strong>@{username}</strong> on Share Arts. Check the spelling, or find artists on Explore.
    </NotFound>
  );
}
