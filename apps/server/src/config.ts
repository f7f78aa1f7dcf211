import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { LIVE } from '@share-arts/contract';
import type { LiveTimings } from './modules/live/live.hub.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded database (PGlite) under dataDir is used. */
  databaseUrl: string | undefined;
  /** Set by main.ts from JWT_SECRET or the secret kept under dataDir. */
  jwtSecret: string;
  jwtExpiresIn: string;
  mediaDir: string;
  /** The built web app; not served when the folder does not exist (API-only tests). */
  webDistDir: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** scrypt cost N (a power of two). Tests lower it; production keeps the default. */
  passwordHashCost: number;
  /** RATE_LIMITS=off turns the limits off (the end-to-end tests sign up many users from one address). */
  rateLimits: boolean;
  /** The clock of the rate limits; tests replace it. */
  now: () => number;
  /** BENCH_ROUTES=1 adds the two reference routes the API benchmark compares against. */
  benchRoutes: boolean;
  /**
   * CHECK_RESPONSES=1 checks every JSON answer against its route's response schema and answers 500
   * when one does not match (tests turn it on: some answers are assembled from cached JSON).
   */
  checkResponses: boolean;
  /** The live stream's clocks (the contract's defaults; tests shorten them). */
  live: LiveTimings;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Reads and validates the configuration; a bad value throws a ConfigError that says what to fix. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Omit<Config, 'jwtSecret'> & {
  jwtSecret: string | undefined;
} {
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${env.PORT}".`);
  }
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}".`);
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://.');
  }
  const jwtSecret = env.JWT_SECRET || undefined;
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 characters long (or leave it unset to have one generated).');
  }
  const dataDir = path.resolve(env.DATA_DIR || 'data');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl,
    jwtSecret,
    jwtExpiresIn: env.JWT_EXPIRES_IN || '7d',
    mediaDir: path.resolve(env.MEDIA_DIR || path.join(dataDir, 'media')),
    webDistDir: path.resolve(env.WEB_DIST_DIR || path.join(serverRoot, '..', 'web', 'dist')),
    logLevel,
    passwordHashCost: 2 ** 15,
    benchRoutes: env.BENCH_ROUTES === '1',
    checkResponses: env.CHECK_RESPONSES === '1',
    live: { helloTimeoutMs: LIVE.helloTimeoutMs, heartbeatMs: LIVE.heartbeatMs, countsBatchMs: 25 },
    rateLimits: env.RATE_LIMITS !== 'off',
    now: Date.now,
  };
}
