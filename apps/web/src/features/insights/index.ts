// The insights feature's public face (issue 42): its pages are lazy routes (app/router.tsx); nothing else is shared.
export { insightsKeys } from './api/insights-queries';
