import type { User } from '@share-arts/contract';
import { AccountList, MutedWords } from '../../safety/settings';
import { RightsSettings } from '../components/rights-settings';
import { ViewsPrivacy } from '../components/views-privacy';
import { WorksVisibility } from '../components/works-visibility';

/** /settings/privacy: who sees your works and what you see, blocks and mutes. A chunk of its own. */
export default function PrivacySection({ user }: { user: User }) {
  return (
    <>
      <WorksVisibility user={user} />
      <RightsSettings user={user} />
      <AccountList kind="blocks" />
      <AccountList kind="mutes" />
      <MutedWords />
      {/* What insights count (issue 42). */}
      <ViewsPrivacy />
    </>
  );
}
