// The account feature's email face (issue 24): Settings shows the address and whether it is confirmed.
export { EmailSettings } from './components/email-settings';
