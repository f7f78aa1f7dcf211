// The server's entry point. It checks the Node version before anything else is loaded: on an older Node
// a dependency could fail to load with an error that does not say what is wrong.
import { nodeVersionProblem } from './lib/node-version.js';

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  console.error(`Share Arts could not start: ${problem}`);
  process.exit(1);
}
await import('./server.js');
