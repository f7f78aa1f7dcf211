// A second server process for tests that need two (the live stream's fan-out across processes): the
// app on DATABASE_URL and JWT_SECRET from the environment, on a free port, which it prints as
// "listening on <port>". SIGTERM stops it.
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openPostgres } from '../db/client.js';

const base = loadConfig();
if (!base.databaseUrl || !base.jwtSecret) throw new Error('serve.ts needs DATABASE_URL and JWT_SECRET.');
const database = await openPostgres(base.databaseUrl);
const app = await buildApp(
  { ...base, jwtSecret: base.jwtSecret, logLevel: 'silent', webDistDir: '/nonexistent' },
  database,
);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`listening on ${typeof address === 'object' && address ? address.port : ''}\n`);
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
