/** The oldest Node the server runs on: 24 LTS (package.json's `engines`). */
export const OLDEST_NODE = { major: 24, minor: 11 };

/** What to say when `version` (as `process.versions.node` gives it) is older than OLDEST_NODE; undefined when it will do. */
export function nodeVersionProblem(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > OLDEST_NODE.major || (major === OLDEST_NODE.major && minor >= OLDEST_NODE.minor)) return undefined;
  return (
    `it needs Node ${OLDEST_NODE.major}.${OLDEST_NODE.minor} or later, and this is Node ${version}. ` +
    'Start it with `npm start`, which runs it on the Node 24 that `npm install` puts in node_modules/.bin, ' +
    `or run it with Node ${OLDEST_NODE.major} LTS (node_modules/.bin/node apps/server/dist/main.js).`
  );
}
