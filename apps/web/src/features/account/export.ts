// The account feature's export face (issue 24): Settings' "Download your data".
export { ExportSettings } from './components/export-settings';
