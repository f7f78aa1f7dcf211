import { useParams } from 'react-router';
import { useCurrentUser } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PageHeading } from '../../../ui/page-heading';
import { ProfileSummary } from '../components/profile-summary';

/** /profile (the current user) and /:username. */
export default function ProfilePage() {
  useDocumentTitle('Profile');
  const { username } = useParams();
  const { data: currentUser } = useCurrentUser();

  const isOwn = !username || username === currentUser?.username;
  if (isOwn && currentUser) return <ProfileSummary user={currentUser} />;

  return (
    <PageHeading
      title={`@${username ?? ''}`}
      description="Profiles of other artists will be shown here once profiles are ready."
    />
  );
}
