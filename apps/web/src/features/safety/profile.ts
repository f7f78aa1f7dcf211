// The safety feature's face for a profile (its lazy page): the "More" menu and the blocked state.
export { safetyOf } from './api/safety-of';
export { BlockedProfile, ProfileSafetyMenu } from './components/profile-safety';
export { RemoteBlockButton } from './components/remote-block-button';
