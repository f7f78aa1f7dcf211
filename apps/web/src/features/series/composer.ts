// The series feature's face for the composer (posts): the optional "Add to series" of a new work. Its own file,
// so the composer's chunk loads it and the signed-in shell, which imports index.ts, does not.
export { SeriesChoiceField, useSeriesChoice, type SeriesChoice } from './components/series-choice';
