// The account feature's sessions face (issue 24): Settings lists where the account is signed in, ends any one
// or all others, and changes the password.
export { SessionsSettings } from './components/sessions-settings';
export { PasswordSettings } from './components/password-settings';
