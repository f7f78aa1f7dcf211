// The safety feature's Settings sections (the settings page is a lazy chunk of its own).
export { AccountList } from './components/account-list';
export { MutedWords } from './components/muted-words';
