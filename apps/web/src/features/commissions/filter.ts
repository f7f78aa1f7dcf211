// The commissions feature's list face (issue 42): the "Open for commissions" filter of search, tag pages and Explore,
// kept in the page's address.
export { CommissionFilter, useCommissionFilter } from './components/commission-filter';
