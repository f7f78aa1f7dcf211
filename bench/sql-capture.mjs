// Loaded into a server by bench/writes.ts (NODE_OPTIONS=--import) when SQL_CAPTURE names a file: while
// capturing (each SIGUSR2 turns it on or off), every statement the server sends to PostgreSQL is appended
// to that file as a JSON line {text, values, pid} (pid: the backend's, naming the connection), so that a route's SQL can be replayed with pgbench exactly
// as the server sends it.
import { appendFileSync } from 'node:fs';
import pg from 'pg';

const file = process.env.SQL_CAPTURE;
if (file) {
  let capturing = false;
  process.on('SIGUSR2', () => {
    capturing = !capturing;
  });
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function capture(config, values, callback) {
    const text = typeof config === 'string' ? config : config?.text;
    const params = Array.isArray(values) ? values : config?.values;
    if (capturing && typeof text === 'string') {
      appendFileSync(file, `${JSON.stringify({ text, values: params ?? [], pid: this.processID })}\n`);
    }
    return query.call(this, config, values, callback);
  };
}
