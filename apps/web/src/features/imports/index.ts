// The imports feature's public face (issue 40): what the live stream needs. Settings' card is in settings.ts.
export { invalidateImports } from './api/import-keys';
