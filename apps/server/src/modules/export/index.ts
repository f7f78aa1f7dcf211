// The export module's public face (issue 24): "Download your data", a one-time link and the zip it streams.
export { createExportService, type ExportService } from './export.service.js';
export { exportRoutes } from './export.routes.js';
