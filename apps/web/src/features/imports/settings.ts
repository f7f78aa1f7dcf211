// The imports feature's settings face (issue 40): Settings' "Import your work".
export { ImportSettings } from './components/import-settings';
