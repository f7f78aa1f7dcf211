// `npm run build` runs this once: the sample pictures go through the upload pipeline ahead of the first
// start, which then loads the sample data in seconds. Later builds find the pictures ready.
import { sampleSources } from './seed.js';
import { prepareSampleMedia, SAMPLE_MEDIA_DIR } from './sample-media.js';

const started = performance.now();
const pictures = await prepareSampleMedia(sampleSources());
console.log(
  `Sample pictures ready in ${SAMPLE_MEDIA_DIR}: ${pictures.size} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
);
