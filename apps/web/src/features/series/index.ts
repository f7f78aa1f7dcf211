// The series feature's public face (issue 41): an artist's own works in order. The profile shows the row of
// series, the post page a work's series bars, the series page (its own feature, features/series-page, which
// composes series and the posts' grid) reads and changes a series through these; the composer has its own face
// (composer.ts). The server's render of a shared page (src/entry-server.tsx) asks the same addresses.
export { seriesKeys } from './api/series-keys';
export { seriesPagePath, seriesPaths } from './api/series-paths';
export { useSeries, useSeriesWorks, useUserSeries } from './api/series-queries';
export {
  useDeleteSeries,
  useMoveWorks,
  useRemoveWork,
  useSetChapter,
  useToggleFollowSeries,
  useUpdateSeries,
} from './api/series-mutations';
export { chapterRuns, dropMove, moveTo, stepMove, uniqueById, type SeriesMove } from './model/series-order';
export { SERIES_TEXT_MAX } from './model/limits';
export { workCountText, workName } from './model/series-words';
export { PostSeries } from './components/post-series';
export { SeriesCover } from './components/series-cover';
export { SeriesRow } from './components/series-row';
