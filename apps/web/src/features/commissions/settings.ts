// The commissions feature's settings face (issue 42): Settings' "Open for commissions" card, a lazy chunk of its own
// (import() it).
export { default } from './components/commission-settings';
