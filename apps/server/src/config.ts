import path from 'node:path';
import { existsSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { APP_NAME, LIVE } from '@share-arts/contract';
import type { FederationLoad } from './modules/federation/index.js';
import type { LiveTimings } from './modules/live/index.js';
import type { MediaStoreConfig } from './modules/media/index.js';
import { CONNECTION_LIMITS, type ConnectionLimits } from './plugins/connections.js';
import type { LogDestination, LogLevel } from './lib/logger.js';
import { proxyRanges } from './lib/client-address.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded database (PGlite) under dataDir is used. */
  databaseUrl: string | undefined;
  /**
   * DATABASE_REPLICA_URLS (issue 25): streaming replicas of DATABASE_URL that the hot reads use
   * (db/replicas.ts), and DATABASE_REPLICA_MAX_LAG_MS: one further behind is skipped, and a person who
   * wrote reads from the primary this long. No URLs: the primary answers every read.
   */
  databaseReplicas?: { urls: string[]; maxLagMs: number };
  /** Set by server.ts from JWT_SECRET or the secret kept under dataDir. */
  jwtSecret: string;
  jwtExpiresIn: string;
  mediaDir: string;
  /**
   * MEDIA_STORE (issue 25): where the pictures' files go: `local` (mediaDir, the default) or `s3`, an
   * S3-compatible bucket named by the S3_* variables.
   */
  mediaStore?: MediaStoreConfig;
  /**
   * MEDIA_PUBLIC_URL: where a CDN or the bucket serves the files (`https://cdn.example/media/`); the API's
   * picture URLs point there. Unset: `/media/<file>`, served by this server.
   */
  mediaPublicUrl?: string | undefined;
  /**
   * PUBLIC_ORIGIN: the site's address as people reach it (`https://share.example`), for the absolute URLs of
   * shared pages' preview tags (canonical, og:url, og:image). Unset: the request's Host header, when it is a
   * plain host[:port], with the protocol the request came in on.
   */
  publicOrigin: string | undefined;
  /**
   * ADMIN_USERNAME (issue 23): the account with this username is made admin at start if it exists, and
   * when it signs up otherwise (the first account of a new instance). Unset: admins are named with
   * `npm run admin -- grant <username> admin`.
   */
  adminUsername?: string | undefined;
  /**
   * SMTP_URL (issue 24): where mail goes, such as smtp://user:pass@host:587 (smtps:// for TLS from the
   * start). Unset: each mail's text and link are printed to the server's log instead.
   */
  smtpUrl?: string | undefined;
  /** MAIL_FROM: the sender of every mail, such as `Share Arts <no-reply@share.example>`. */
  mailFrom?: string;
  /** The built web app; not served when the folder does not exist (API-only tests). */
  webDistDir: string;
  logLevel: LogLevel;
  /** Where the log's JSON lines go instead of stdout (tests read them); unset in production. */
  logStream?: LogDestination;
  /**
   * Tests only (issue 39): the fediverse's fetches and deliveries may reach loopback and private addresses (the
   * fake remote servers of the federation tests). No variable sets it: off, a remote document or inbox on a
   * private address is refused.
   */
  federationAllowPrivateAddress?: boolean;
  /**
   * FEDERATION_DELIVERIES and FEDERATION_INTAKE (issue 39): the deliveries each process has in flight, and the
   * activities taken in it applies at once (federation.module.ts's defaults when unset).
   */
  federationLoad?: Partial<FederationLoad>;
  /**
   * FEDERATION_INBOX_RATE (issue 39): the POSTs one remote server may make to the inboxes in a minute, past which they
   * answer 429 (federation.module.ts's default when unset). Off with RATE_LIMITS=off, as every limit.
   */
  federationInboxRate?: number;
  /** scrypt cost N (a power of two). Tests lower it; production keeps the default. */
  passwordHashCost: number;
  /** RATE_LIMITS=off turns the limits off (the end-to-end tests sign up many users from one address). */
  rateLimits: boolean;
  /** The clock of the rate limits; tests replace it. */
  now: () => number;
  /**
   * REDIS_URL (issue 25): rate limits are counted in this Redis, shared by every process and machine;
   * unset, each process counts in its own memory.
   */
  redisUrl?: string | undefined;
  /** REDIS_KEY_PREFIX: the start of every key this site writes in Redis (default `share-arts:`). */
  redisKeyPrefix?: string;
  /**
   * How long a request waits for Redis before its rate limits are counted in memory (COMMAND_TIMEOUT_MS by
   * default; tests of what Redis shares lengthen it, so that a loaded machine cannot make them fall back).
   */
  redisCommandTimeoutMs?: number;
  /**
   * WORKERS (issue 25): server processes sharing the port (node:cluster); default the number of cores
   * with PostgreSQL, 1 with the embedded database (PGlite), which one process at a time may open.
   */
  workers?: number;
  /** SHARE_ARTS_WORKER_HEADER=1 (tests of several workers only): each answer names its process's pid. */
  workerHeader?: boolean;
  /**
   * METRICS_TOKEN (issue 25): GET /api/metrics answers a request with `Authorization: Bearer <token>`;
   * without it only one from this machine (loopback, not forwarded). Others get the 404 of an unknown route.
   */
  metricsToken?: string | undefined;
  /**
   * TRUST_PROXY (issue 25): the load balancers and proxies (addresses, CIDR ranges, or `loopback`,
   * `linklocal`, `uniquelocal`) whose X-Forwarded-For names the client. A request from one of them is
   * counted under the client's address by every per-address limit, and its connections are not capped
   * per address. Unset: the peer's address is the client's, and X-Forwarded-For is ignored.
   */
  trustProxy?: string[] | undefined;
  /** BENCH_ROUTES=1 adds the two reference routes the API benchmark compares against. */
  benchRoutes: boolean;
  /**
   * CHECK_RESPONSES=1 checks every JSON answer against its route's response schema and answers 500
   * when one does not match (tests turn it on: some answers are assembled from cached JSON).
   */
  checkResponses: boolean;
  /** The live stream's clocks (the contract's defaults; tests shorten them). */
  live: LiveTimings;
  /** Timeouts and per-address caps of connections (plugins/connections.ts; tests shorten them). */
  connections: ConnectionLimits;
  // Web Push (issue 44, docs/push.md).
  /**
   * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (base64url, P-256: web-push's `generate-vapid-keys`), set together; unset,
   * server.ts keeps a pair under dataDir (`vapid-keys.json`, made on first start) as it keeps the JWT secret. Tests
   * leave it unset: the push module makes a pair in memory.
   */
  vapidKeys?: { publicKey: string; privateKey: string };
  /**
   * VAPID_SUBJECT: a `mailto:` or `https:` address push services may reach the operator at. Unset: PUBLIC_ORIGIN
   * when it is https, else `mailto:` MAIL_FROM's address (or `mailto:webmaster@localhost`).
   */
  vapidSubject?: string;
  /**
   * Tests and the benchmark only: push endpoints may be http and on loopback or private addresses (the push services
   * they run). PUSH_ALLOW_PRIVATE_ADDRESS=1 sets it for the built server of the end-to-end tests; never in
   * production (it opens the push sender to the server's own network). Off, such an endpoint is refused when
   * subscribing and when delivering.
   */
  pushAllowPrivateAddress?: boolean;
  /** PUSH_GROUP_SECONDS: how long a push waits for more of its group (likes of one work, …); default 10. */
  pushGroupSeconds?: number;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const serverRoot = path.resolve(import.meta.dirname, '..');

/** Reads and validates the configuration; a bad value throws a ConfigError that says what to fix. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Omit<Config, 'jwtSecret'> & {
  jwtSecret: string | undefined;
} {
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : /^\d{1,5}$/.test(env.PORT) ? Number(env.PORT) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${env.PORT}".`);
  }
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}".`);
  }
  const host = env.HOST || '0.0.0.0';
  if (isIP(host) === 0 && !HOST_NAME.test(host)) {
    throw new ConfigError(
      `HOST must be an IP address or a host name, such as 0.0.0.0, 127.0.0.1, :: or localhost; got "${host}".`,
    );
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && (!/^postgres(ql)?:\/\//.test(databaseUrl) || !URL.canParse(databaseUrl))) {
    throw new ConfigError(
      'DATABASE_URL must be a connection URL starting with postgres:// or postgresql://, such as postgres://user@localhost:5432/sharearts.',
    );
  }
  const databaseReplicas = replicasOf(env, databaseUrl);
  const jwtSecret = env.JWT_SECRET || undefined;
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 characters long (or leave it unset to have one generated).');
  }
  const jwtExpiresIn = env.JWT_EXPIRES_IN || '7d';
  const lifetime = durationSeconds(jwtExpiresIn);
  if (lifetime === undefined || lifetime < 60 || lifetime > 365 * 24 * 60 * 60) {
    throw new ConfigError(
      `JWT_EXPIRES_IN must be a duration from 1 minute to 365 days: a whole number and a unit (s, m, h, d or w), such as 30m, 12h or 7d; got "${jwtExpiresIn}".`,
    );
  }
  const publicOrigin = originOf(env.PUBLIC_ORIGIN);
  const adminUsername = env.ADMIN_USERNAME?.trim() || undefined;
  if (adminUsername !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_.]{0,29}$/.test(adminUsername)) {
    throw new ConfigError(
      `ADMIN_USERNAME must be a username (letters, digits, _ and ., starting with a letter or digit); got "${adminUsername}".`,
    );
  }
  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  if (smtpUrl !== undefined && (!/^smtps?:\/\//.test(smtpUrl) || !URL.canParse(smtpUrl))) {
    throw new ConfigError(
      'SMTP_URL must be a mail server URL starting with smtp:// or smtps://, such as smtp://user:password@mail.example:587 (or leave it unset to print mails to the log).',
    );
  }
  const mailFrom = env.MAIL_FROM?.trim() || `${APP_NAME} <no-reply@localhost>`;
  if (!MAIL_SENDER.test(mailFrom)) {
    throw new ConfigError(
      `MAIL_FROM must be an email address, alone or as Name <address>, such as "${APP_NAME} <no-reply@share.example>"; got "${mailFrom}".`,
    );
  }
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && !/^[\x21-\x7e]{24,256}$/.test(metricsToken)) {
    throw new ConfigError(
      'METRICS_TOKEN must be 24 to 256 printable characters without spaces (it is sent as `Authorization: Bearer <token>`), such as the output of `openssl rand -hex 32`; or leave it unset to allow scrapes from this machine only.',
    );
  }
  const trustProxy = env.TRUST_PROXY?.trim()
    ? env.TRUST_PROXY.split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
    : undefined;
  const badProxy = trustProxy?.find((entry) => proxyRanges(entry) === undefined);
  if (badProxy !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must list the load balancers' addresses or ranges, comma-separated: IP addresses, CIDR ranges (10.0.0.0/8, fd00::/8) or loopback, linklocal, uniquelocal; "${badProxy}" is none of them.`,
    );
  }
  const dataDir = folder(env, 'DATA_DIR', path.resolve('data'));
  const mediaDir = folder(env, 'MEDIA_DIR', path.join(dataDir, 'media'));
  const { mediaStore, mediaPublicUrl } = mediaStoreOf(env);
  const webDistDir = folder(env, 'WEB_DIST_DIR', path.join(serverRoot, '..', 'web', 'dist'));
  if (env.WEB_DIST_DIR && !existsSync(webDistDir)) {
    throw new ConfigError(
      `WEB_DIST_DIR must be the folder of a built web app; ${webDistDir} does not exist (build it with npm run build, or leave WEB_DIST_DIR unset).`,
    );
  }
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl !== undefined && (!/^rediss?:\/\//.test(redisUrl) || !URL.canParse(redisUrl))) {
    throw new ConfigError(
      'REDIS_URL must be a Redis URL starting with redis:// or rediss:// (TLS), such as redis://localhost:6379/0 or redis://:password@redis.internal:6379 (or leave it unset to count rate limits in each process).',
    );
  }
  const redisKeyPrefix = env.REDIS_KEY_PREFIX ?? 'share-arts:';
  if (!/^[\x21-\x7e]{0,64}$/.test(redisKeyPrefix)) {
    throw new ConfigError(
      `REDIS_KEY_PREFIX must be at most 64 printable characters without spaces, such as "share-arts:"; got "${redisKeyPrefix}".`,
    );
  }
  const workers = workerCount(env.WORKERS, databaseUrl);
  const federationLoad = {
    ...countOf(env, 'FEDERATION_DELIVERIES', 'deliveries', 'deliveries each process has in flight'),
    ...countOf(env, 'FEDERATION_INTAKE', 'intake', 'activities from other servers each process applies at once'),
  };
  const federationInboxRate = inboxRateOf(env.FEDERATION_INBOX_RATE);
  const push = pushConfigOf(env, publicOrigin, mailFrom);
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    databaseReplicas,
    jwtSecret,
    jwtExpiresIn: `${lifetime}s`,
    mediaDir,
    mediaStore,
    mediaPublicUrl,
    webDistDir,
    publicOrigin,
    adminUsername,
    smtpUrl,
    mailFrom,
    logLevel,
    passwordHashCost: 2 ** 15,
    metricsToken,
    trustProxy,
    benchRoutes: flag(env, 'BENCH_ROUTES', '1', '0'),
    checkResponses: flag(env, 'CHECK_RESPONSES', '1', '0'),
    live: { helloTimeoutMs: LIVE.helloTimeoutMs, heartbeatMs: LIVE.heartbeatMs, countsBatchMs: 25 },
    connections: CONNECTION_LIMITS,
    rateLimits: flag(env, 'RATE_LIMITS', 'on', 'off', true),
    now: Date.now,
    redisUrl,
    redisKeyPrefix,
    workers,
    workerHeader: flag(env, 'SHARE_ARTS_WORKER_HEADER', '1', '0'),
    federationLoad,
    ...(federationInboxRate === undefined ? {} : { federationInboxRate }),
    ...push,
  };
}

/** Web Push's settings (issue 44): VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT, PUSH_GROUP_SECONDS. */
function pushConfigOf(
  env: NodeJS.ProcessEnv,
  publicOrigin: string | undefined,
  mailFrom: string | undefined,
): Pick<Config, 'vapidKeys' | 'vapidSubject' | 'pushGroupSeconds' | 'pushAllowPrivateAddress'> {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim() || undefined;
  const privateKey = env.VAPID_PRIVATE_KEY?.trim() || undefined;
  if ((publicKey === undefined) !== (privateKey === undefined)) {
    throw new ConfigError(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both (npx web-push generate-vapid-keys makes a pair), or neither to have a pair generated and kept under DATA_DIR.',
    );
  }
  if (publicKey !== undefined && !/^[A-Za-z0-9_-]{87}$/.test(publicKey)) {
    throw new ConfigError(
      'VAPID_PUBLIC_KEY must be a P-256 public key in base64url (87 characters), as web-push makes.',
    );
  }
  if (privateKey !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(privateKey)) {
    throw new ConfigError(
      'VAPID_PRIVATE_KEY must be a P-256 private key in base64url (43 characters), as web-push makes.',
    );
  }
  const given = env.VAPID_SUBJECT?.trim() || undefined;
  if (given !== undefined && !/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(given)) {
    throw new ConfigError(
      `VAPID_SUBJECT must be a mailto: or https: address, such as mailto:admin@share.example; got "${given}".`,
    );
  }
  const mailAddress = mailFrom
    ? (/<([^>\s]+@[^>\s]+)>/.exec(mailFrom)?.[1] ?? (/^\S+@\S+$/.test(mailFrom) ? mailFrom : undefined))
    : undefined;
  const vapidSubject =
    given ?? (publicOrigin?.startsWith('https://') ? publicOrigin : `mailto:${mailAddress ?? 'webmaster@localhost'}`);
  const groupText = env.PUSH_GROUP_SECONDS?.trim();
  const pushGroupSeconds = groupText ? (/^\d{1,4}$/.test(groupText) ? Number(groupText) : NaN) : 10;
  if (!(pushGroupSeconds >= 0 && pushGroupSeconds <= 3600)) {
    throw new ConfigError(`PUSH_GROUP_SECONDS must be a whole number of seconds from 0 to 3600, got "${groupText}".`);
  }
  const allowText = env.PUSH_ALLOW_PRIVATE_ADDRESS?.trim();
  if (allowText && allowText !== '1' && allowText !== '0') {
    throw new ConfigError(`PUSH_ALLOW_PRIVATE_ADDRESS must be 1 or 0 (the end-to-end tests only), got "${allowText}".`);
  }
  return {
    ...(publicKey && privateKey ? { vapidKeys: { publicKey, privateKey } } : {}),
    ...(allowText === '1' ? { pushAllowPrivateAddress: true } : {}),
    vapidSubject,
    pushGroupSeconds,
  };
}

/** FEDERATION_INBOX_RATE: a whole number of POSTs a minute from one server, 1 to 1,000,000; undefined unset. */
function inboxRateOf(value: string | undefined): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const rate = /^\d{1,7}$/.test(text) ? Number(text) : NaN;
  if (!(rate >= 1 && rate <= 1_000_000)) {
    throw new ConfigError(
      `FEDERATION_INBOX_RATE must be a whole number from 1 to 1000000 (the POSTs a minute one server may make to the inboxes), got "${text}".`,
    );
  }
  return rate;
}

/** `{ [field]: n }` for a variable set to a whole number from 1 to 1,000 (what it counts in `what`); `{}` unset. */
function countOf<Field extends string>(
  env: NodeJS.ProcessEnv,
  name: string,
  field: Field,
  what: string,
): Partial<Record<Field, number>> {
  const value = env[name]?.trim();
  if (!value) return {};
  const count = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(count >= 1 && count <= 1000)) {
    throw new ConfigError(`${name} must be a whole number from 1 to 1000 (the ${what}), got "${value}".`);
  }
  return { [field]: count } as Partial<Record<Field, number>>;
}

/** WORKERS: a whole number of processes; more than one needs PostgreSQL. */
function workerCount(value: string | undefined, databaseUrl: string | undefined): number {
  if (value === undefined || value.trim() === '') return databaseUrl ? availableParallelism() : 1;
  const workers = /^\d{1,3}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isInteger(workers) || workers < 1 || workers > 256) {
    throw new ConfigError(`WORKERS must be a whole number of server processes from 1 to 256, got "${value}".`);
  }
  if (workers > 1 && !databaseUrl) {
    throw new ConfigError(
      `WORKERS=${workers} needs DATABASE_URL: the embedded database (PGlite) can be opened by one process only. Set DATABASE_URL to a PostgreSQL server, or WORKERS=1.`,
    );
  }
  return workers;
}

const S3_VARIABLES = [
  'S3_BUCKET',
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_FORCE_PATH_STYLE',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_TIMEOUT_MS',
] as const;
/** S3 bucket names: 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** MEDIA_STORE with its S3_* settings, and MEDIA_PUBLIC_URL (issue 25). */
function mediaStoreOf(env: NodeJS.ProcessEnv): { mediaStore: MediaStoreConfig; mediaPublicUrl: string | undefined } {
  const value = env.MEDIA_STORE?.trim() || 'local';
  if (value !== 'local' && value !== 's3') {
    throw new ConfigError(
      `MEDIA_STORE must be local (the media folder, MEDIA_DIR) or s3 (an S3-compatible bucket); got "${value}".`,
    );
  }
  const publicUrl = env.MEDIA_PUBLIC_URL?.trim() || undefined;
  if (
    publicUrl !== undefined &&
    (!/^https?:\/\//.test(publicUrl) || !URL.canParse(publicUrl) || /[?#]/.test(publicUrl))
  ) {
    throw new ConfigError(
      `MEDIA_PUBLIC_URL must be the http:// or https:// address the files are served from, without ? or #, such as https://cdn.share.example/media/ (a file's URL is this address and its name); got "${publicUrl}".`,
    );
  }
  const mediaPublicUrl = publicUrl && (publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  const set = S3_VARIABLES.filter((name) => env[name]?.trim());
  if (value === 'local') {
    if (set.length > 0) {
      throw new ConfigError(
        `${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set but MEDIA_STORE is not s3: set MEDIA_STORE=s3 to keep pictures in the bucket, or remove ${set.length === 1 ? 'it' : 'them'}.`,
      );
    }
    return { mediaStore: { kind: 'local' }, mediaPublicUrl };
  }
  const bucket = env.S3_BUCKET?.trim() ?? '';
  if (!BUCKET_NAME.test(bucket)) {
    throw new ConfigError(
      `MEDIA_STORE=s3 needs S3_BUCKET, the bucket's name (3 to 63 lowercase letters, digits, dots and hyphens), such as share-arts-media; got "${bucket}".`,
    );
  }
  const region = env.S3_REGION?.trim() || 'us-east-1';
  if (!/^[a-z0-9-]{1,32}$/.test(region)) {
    throw new ConfigError(
      `S3_REGION must be a region name such as us-east-1, eu-west-3 or auto (R2); got "${region}".`,
    );
  }
  const endpoint = env.S3_ENDPOINT?.trim() || undefined;
  if (endpoint !== undefined && (!/^https?:\/\//.test(endpoint) || !URL.canParse(endpoint))) {
    throw new ConfigError(
      `S3_ENDPOINT must be the storage's http:// or https:// address, such as http://127.0.0.1:9000 (MinIO) or https://<account>.r2.cloudflarestorage.com, or unset for AWS; got "${endpoint}".`,
    );
  }
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() || undefined;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError(
      "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both (the bucket's key), or neither to use the AWS SDK's own credentials (environment, profile or instance role).",
    );
  }
  const timeoutText = env.S3_TIMEOUT_MS?.trim() || '10000';
  const timeoutMs = /^\d{1,6}$/.test(timeoutText) ? Number(timeoutText) : NaN;
  if (!(timeoutMs >= 100 && timeoutMs <= 120_000)) {
    throw new ConfigError(
      `S3_TIMEOUT_MS must be a whole number of milliseconds from 100 to 120000 (default 10000); got "${timeoutText}".`,
    );
  }
  return {
    mediaStore: {
      kind: 's3',
      bucket,
      region,
      endpoint,
      // Most S3-compatible servers (MinIO, Garage, s3rver) want the bucket in the path; AWS takes either.
      forcePathStyle: flag(env, 'S3_FORCE_PATH_STYLE', 'true', 'false', endpoint !== undefined),
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
      timeoutMs,
    },
    mediaPublicUrl,
  };
}

/** `a@b.c` or `Name <a@b.c>` (no line breaks: the value goes into a mail header). */
const MAIL_SENDER = /^(?:[^<>\r\n@]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/;

const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

const SECONDS_PER: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
/**
 * Seconds in "30m", "12 h", "7days" (the forms jose's timespans take, without the signs and fractions
 * that made "-5m" issue dead tokens); undefined for anything else.
 */
function durationSeconds(text: string): number | undefined {
  const match = /^(\d{1,9}) ?(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?)$/i.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * SECONDS_PER[match[2]![0]!.toLowerCase()]!;
}

/**
 * DATABASE_REPLICA_URLS: comma-separated PostgreSQL URLs of streaming replicas of DATABASE_URL; and
 * DATABASE_REPLICA_MAX_LAG_MS (default 1000). The embedded database has no replicas: setting them
 * without DATABASE_URL is a mistake worth stopping for, not a setting to ignore.
 */
function replicasOf(env: NodeJS.ProcessEnv, databaseUrl: string | undefined): Config['databaseReplicas'] {
  const urls = (env.DATABASE_REPLICA_URLS ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  const lag = env.DATABASE_REPLICA_MAX_LAG_MS?.trim() || '1000';
  const maxLagMs = /^\d{1,6}$/.test(lag) ? Number(lag) : NaN;
  if (!(maxLagMs >= 100 && maxLagMs <= 600_000)) {
    throw new ConfigError(
      `DATABASE_REPLICA_MAX_LAG_MS must be a whole number of milliseconds from 100 to 600000, such as 1000; got "${lag}".`,
    );
  }
  if (urls.length === 0) return undefined;
  if (!databaseUrl) {
    throw new ConfigError(
      'DATABASE_REPLICA_URLS needs DATABASE_URL: the embedded database (PGlite) has no replicas. Set DATABASE_URL to the primary PostgreSQL server, or leave DATABASE_REPLICA_URLS unset.',
    );
  }
  for (const url of urls) {
    if (!/^postgres(ql)?:\/\//.test(url) || !URL.canParse(url)) {
      throw new ConfigError(
        `DATABASE_REPLICA_URLS must be comma-separated connection URLs starting with postgres:// or postgresql://, such as postgres://user@replica1:5432/sharearts,postgres://user@replica2:5432/sharearts; "${url.replace(/\/\/[^@/]*@/, '//…@')}" is not one.`,
      );
    }
  }
  return { urls, maxLagMs };
}

/** PUBLIC_ORIGIN as an origin (scheme, host, port; no path), or undefined when unset. */
function originOf(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const url = URL.parse(value);
  if (
    !url ||
    !['http:', 'https:'].includes(url.protocol) ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    url.pathname !== '/'
  ) {
    throw new ConfigError(
      `PUBLIC_ORIGIN must be the site's address with http:// or https:// and no path, such as https://share.example or http://localhost:3000; got "${value}".`,
    );
  }
  return url.origin;
}

/** A switch: unset (or empty) is `byDefault`; anything but `on` or `off` is a mistake, not "off". */
function flag(env: NodeJS.ProcessEnv, name: string, on: string, off: string, byDefault = false): boolean {
  const value = env[name];
  if (value === undefined || value === '') return byDefault;
  if (value === on) return true;
  if (value === off) return false;
  throw new ConfigError(`${name} must be ${on} or ${off} (or unset), got "${value}".`);
}

/** An absolute folder path; what is there, if anything, must be a folder. */
function folder(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const resolved = path.resolve(env[name] || fallback);
  let stats;
  try {
    stats = statSync(resolved);
  } catch {
    return resolved;
  }
  if (!stats.isDirectory()) throw new ConfigError(`${name} must be a folder, but ${resolved} is a file.`);
  return resolved;
}
