// The export module's public face (issue 24): "Download your data", a one-time link and the zip it streams.
export { wireExport } from './export.module.js';
export type { ExportService } from './export.service.js';
