// The account feature's two-factor face (issue 24): Settings turns on an authenticator app and adds passkeys.
export { TwoFactorSettings } from './components/two-factor-settings';
