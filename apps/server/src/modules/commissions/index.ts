// The commissions module's public face (issue 42): an artist's commission panel (commission_profiles,
// commission_examples, commission_watchers), its routes, and the conditions the lists narrowed to open artists and
// the "open" badge read (posts, users).
export { wireCommissions, type CommissionsModule } from './commissions.module.js';
export {
  COMMISSION_ERRORS,
  commissionFilterOf,
  createCommissionsService,
  type CommissionsService,
} from './commissions.service.js';
export {
  openArtistMatching,
  openForCommissionsOf,
  selectMatchingArtists,
  type CommissionFilter,
} from './commissions.sql.js';
