// The account feature's security face (issue 38): "Confirm it's you" before a change of what protects the
// account ("sudo mode"), and Settings' "Security activity".
export { SecurityLog } from './components/security-log';
export { useConfirmedAction } from './lib/use-confirmed-action';
