// The commissions feature (issue 42): an artist's "Open for commissions" panel, its settings card and the lists'
// filter. Each is its own public face, loaded where it is used: panel.ts and settings.ts are lazy chunks (import()
// them), filter.ts belongs to the lazy pages of search, tags and Explore. The "Open" badge is ui/open-badge.tsx.
export { commissionKeys, useCommissions } from './api/commissions';
