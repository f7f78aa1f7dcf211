// The series module's public face (issue 41): an artist's own works in order (series, series_works, series_follows),
// their routes, and what the pages module draws a series' shared page with.
export { wireSeries, type SeriesModule } from './series.module.js';
export { createSeriesService, SERIES_ERRORS, seriesFeedPath, slugOf, type SeriesService } from './series.service.js';
