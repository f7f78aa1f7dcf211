// The commissions feature's profile face (issue 42): the profile's panel, a lazy chunk of its own (import() it).
export { default } from './components/commission-panel';
