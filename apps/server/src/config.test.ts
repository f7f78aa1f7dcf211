import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { createTokenService } from './lib/tokens.js';

/** A path where a folder is expected but a file is. */
const fileNotFolder = import.meta.filename;

describe('loadConfig', () => {
  it('has safe defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/data$/);
    expect(config.mediaDir).toBe(`${config.dataDir}/media`);
    expect(config.adminUsername).toBeUndefined();
    expect(loadConfig({ ADMIN_USERNAME: ' mira ' }).adminUsername).toBe('mira');
    // Mail (issue 24): printed to the log until SMTP_URL names a server.
    expect(config.smtpUrl).toBeUndefined();
    expect(config.mailFrom).toBe('Share Arts <no-reply@localhost>');
    const mail = loadConfig({ SMTP_URL: 'smtp://user:pass@mail.example:587', MAIL_FROM: 'Art <art@share.example>' });
    expect([mail.smtpUrl, mail.mailFrom]).toEqual(['smtp://user:pass@mail.example:587', 'Art <art@share.example>']);
    expect(loadConfig({ MAIL_FROM: 'art@share.example' }).mailFrom).toBe('art@share.example');
  });

  it.each<[NodeJS.ProcessEnv, string | RegExp]>([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535, got "abc".'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535, got "70000".'],
    [{ PORT: '0x50' }, 'PORT must be a whole number from 0 to 65535, got "0x50".'],
    [{ PORT: '-1' }, 'PORT must be a whole number from 0 to 65535, got "-1".'],
    [{ HOST: 'not a host' }, /^HOST must be an IP address or a host name, .*got "not a host"\.$/],
    [{ HOST: 'http://localhost' }, /^HOST must be an IP address or a host name/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must be a connection URL starting with postgres:\/\//],
    [{ DATABASE_URL: 'postgres://[nope' }, /^DATABASE_URL must be a connection URL starting with postgres:\/\//],
    [{ JWT_SECRET: 'short' }, /^JWT_SECRET must be at least 32 characters/],
    ...['banana', '0', '-5m', '0m', '1.5h', '30', '59s', '366d', '7d ago'].map((value): [NodeJS.ProcessEnv, string] => [
      { JWT_EXPIRES_IN: value },
      `JWT_EXPIRES_IN must be a duration from 1 minute to 365 days: a whole number and a unit (s, m, h, d or w), such as 30m, 12h or 7d; got "${value}".`,
    ]),
    [{ DATA_DIR: fileNotFolder }, `DATA_DIR must be a folder, but ${fileNotFolder} is a file.`],
    [{ MEDIA_DIR: fileNotFolder }, `MEDIA_DIR must be a folder, but ${fileNotFolder} is a file.`],
    [{ WEB_DIST_DIR: fileNotFolder }, `WEB_DIST_DIR must be a folder, but ${fileNotFolder} is a file.`],
    [
      { WEB_DIST_DIR: '/no/such/folder' },
      /^WEB_DIST_DIR must be the folder of a built web app; \/no\/such\/folder does not exist/,
    ],
    [{ RATE_LIMITS: 'false' }, 'RATE_LIMITS must be on or off (or unset), got "false".'],
    [{ BENCH_ROUTES: 'yes' }, 'BENCH_ROUTES must be 1 or 0 (or unset), got "yes".'],
    [{ CHECK_RESPONSES: 'true' }, 'CHECK_RESPONSES must be 1 or 0 (or unset), got "true".'],
    [{ ADMIN_USERNAME: 'not a name' }, /^ADMIN_USERNAME must be a username .*got "not a name"\.$/],
    [{ SMTP_URL: 'mail.example:587' }, /^SMTP_URL must be a mail server URL starting with smtp:\/\/ or smtps:\/\//],
    [{ SMTP_URL: 'http://mail.example' }, /^SMTP_URL must be a mail server URL/],
    [
      { MAIL_FROM: 'no address' },
      /^MAIL_FROM must be an email address, alone or as Name <address>.*got "no address"\.$/,
    ],
    [{ MAIL_FROM: 'a@b.c\r\nBcc: x@y.z' }, /^MAIL_FROM must be an email address/],
  ])('refuses %j with a message that says what to fix', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    ['7d', 604_800],
    ['30m', 1800],
    ['2 hours', 7200],
    ['1w', 604_800],
    ['60s', 60],
    ['365d', 31_536_000],
  ])('takes JWT_EXPIRES_IN=%s as %i seconds, a form the token signer reads', async (value, seconds) => {
    const config = loadConfig({ JWT_EXPIRES_IN: value });
    expect(config.jwtExpiresIn).toBe(`${seconds}s`);
    const tokens = createTokenService('a-secret-that-is-long-enough-for-hs256-0123456789', config.jwtExpiresIn);
    const claims = await tokens.verify(await tokens.sign({ userId: 'u1', username: 'ana', sessionId: 's1' }));
    expect(Math.round((claims!.expiresAt! - Date.now()) / 1000)).toBeGreaterThanOrEqual(seconds - 5);
    expect(Math.round((claims!.expiresAt! - Date.now()) / 1000)).toBeLessThanOrEqual(seconds);
  });

  it('reads the switches: unset or empty is the default, on/off and 1/0 set them', () => {
    expect(loadConfig({ RATE_LIMITS: '' }).rateLimits).toBe(true);
    expect(loadConfig({ RATE_LIMITS: 'on' }).rateLimits).toBe(true);
    expect(loadConfig({ RATE_LIMITS: 'off' }).rateLimits).toBe(false);
    expect(loadConfig({}).benchRoutes).toBe(false);
    expect(loadConfig({ BENCH_ROUTES: '1' }).benchRoutes).toBe(true);
    expect(loadConfig({ CHECK_RESPONSES: '0' }).checkResponses).toBe(false);
    expect(loadConfig({ HOST: '::1' }).host).toBe('::1');
    expect(loadConfig({ HOST: 'localhost' }).host).toBe('localhost');
  });

  it("reads FEDERATION_INBOX_RATE (issue 39): the inboxes' POSTs a minute from one server", () => {
    expect(loadConfig({}).federationInboxRate).toBeUndefined();
    expect(loadConfig({ FEDERATION_INBOX_RATE: ' 600 ' }).federationInboxRate).toBe(600);
    for (const value of ['0', 'many', '1.5', '2000000']) {
      expect(() => loadConfig({ FEDERATION_INBOX_RATE: value })).toThrow(
        `FEDERATION_INBOX_RATE must be a whole number from 1 to 1000000 (the POSTs a minute one server may make to the inboxes), got "${value}".`,
      );
    }
  });

  it('reads FEDERATION_DELIVERIES and FEDERATION_INTAKE (issue 39): how much federation work a process runs at once', () => {
    expect(loadConfig({}).federationLoad).toEqual({});
    expect(loadConfig({ FEDERATION_DELIVERIES: ' 64 ', FEDERATION_INTAKE: '8' }).federationLoad).toEqual({
      deliveries: 64,
      intake: 8,
    });
    for (const value of ['0', 'many', '1.5', '5000']) {
      expect(() => loadConfig({ FEDERATION_DELIVERIES: value })).toThrow(
        `FEDERATION_DELIVERIES must be a whole number from 1 to 1000 (the deliveries each process has in flight), got "${value}".`,
      );
    }
  });

  it('reads REDIS_URL, REDIS_KEY_PREFIX and WORKERS (issue 25), and says what to fix in each', () => {
    const pg = 'postgres://postgres@127.0.0.1:5432/sharearts';
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({}).redisKeyPrefix).toBe('share-arts:');
    expect(loadConfig({ REDIS_URL: 'redis://:pw@redis.internal:6379/2' }).redisUrl).toBe(
      'redis://:pw@redis.internal:6379/2',
    );
    expect(loadConfig({ REDIS_KEY_PREFIX: 'site-b:' }).redisKeyPrefix).toBe('site-b:');
    // One process per core on PostgreSQL; the embedded database allows one.
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ DATABASE_URL: pg }).workers).toBe(availableParallelism());
    expect(loadConfig({ DATABASE_URL: pg, WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ WORKERS: '1' }).workers).toBe(1);
    for (const [env, message] of [
      [{ REDIS_URL: 'localhost:6379' }, /^REDIS_URL must be a Redis URL starting with redis:\/\/ or rediss:\/\//],
      [{ REDIS_KEY_PREFIX: 'has space' }, /^REDIS_KEY_PREFIX must be at most 64 printable characters/],
      [
        { WORKERS: 'many', DATABASE_URL: pg },
        'WORKERS must be a whole number of server processes from 1 to 256, got "many".',
      ],
      [{ WORKERS: '0', DATABASE_URL: pg }, /^WORKERS must be a whole number/],
      [
        { WORKERS: '2' },
        /^WORKERS=2 needs DATABASE_URL: the embedded database \(PGlite\) can be opened by one process only/,
      ],
    ] as [NodeJS.ProcessEnv, string | RegExp][]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    }
  });
});
