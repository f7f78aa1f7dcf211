// `npm run admin -- grant <username> admin|moderator|user`: gives an account a role, on the database the
// server uses (DATABASE_URL, or the embedded one under DATA_DIR; stop the server first for the embedded one).
import path from 'node:path';
import { ROLES, type Role } from '@share-arts/contract';
import { ConfigError, loadConfig } from '../../config.js';
import { openPglite, openPostgres } from '../../db/client.js';
import { migrate } from '../../db/migrate.js';
import { lockDataDir } from '../../lib/data-dir.js';
import { grantRole } from './roles.js';

const USAGE = `Usage: npm run admin -- grant <username> <${ROLES.join('|')}>`;

/** Runs the command; answers the exit code. Exported for the tests. */
export async function runAdminCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  print: (line: string) => void = console.log,
): Promise<number> {
  const [command, username, role] = args;
  if (command !== 'grant' || !username || !role || args.length !== 3) {
    print(USAGE);
    return 2;
  }
  if (!(ROLES as readonly string[]).includes(role)) {
    print(`The role must be one of ${ROLES.join(', ')}; got "${role}".\n${USAGE}`);
    return 2;
  }
  const config = loadConfig(env);
  const release = config.databaseUrl ? undefined : await lockDataDir(config.dataDir);
  const database = config.databaseUrl
    ? await openPostgres(config.databaseUrl)
    : await openPglite(path.join(config.dataDir, 'db'));
  try {
    await migrate(database);
    const granted = await grantRole(database.db, username, role as Role);
    if (!granted) {
      print(`There is no account "${username}": check the username (sign up first).`);
      return 1;
    }
    print(`${granted.username} is now ${role} (was ${granted.previous}).`);
    return 0;
  } finally {
    await database.close();
    await release?.();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  runAdminCommand(process.argv.slice(2))
    .then((code) => process.exit(code))
    .catch((error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : error);
      process.exit(1);
    });
}
