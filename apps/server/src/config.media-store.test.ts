import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

/** MEDIA_STORE, its S3_* settings and MEDIA_PUBLIC_URL (issue 25). */
describe('loadConfig: the picture storage', () => {
  const s3 = { MEDIA_STORE: 's3', S3_BUCKET: 'share-arts-media' };

  it('keeps pictures in the media folder by default, served from /media/', () => {
    const config = loadConfig({});
    expect(config.mediaStore).toEqual({ kind: 'local' });
    expect(config.mediaPublicUrl).toBeUndefined();
    expect(loadConfig({ MEDIA_STORE: 'local' }).mediaStore).toEqual({ kind: 'local' });
  });

  it('reads an S3-compatible bucket: path style with an endpoint, both keys, a deadline', () => {
    expect(
      loadConfig({
        ...s3,
        S3_REGION: 'eu-west-3',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_TIMEOUT_MS: '2500',
      }).mediaStore,
    ).toEqual({
      kind: 's3',
      bucket: 'share-arts-media',
      region: 'eu-west-3',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      timeoutMs: 2500,
    });
    // AWS itself: virtual-hosted style, the SDK's own credentials, us-east-1 and 10 s unless told.
    expect(loadConfig(s3).mediaStore).toEqual({
      kind: 's3',
      bucket: 'share-arts-media',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      credentials: undefined,
      timeoutMs: 10_000,
    });
    expect(loadConfig({ ...s3, S3_FORCE_PATH_STYLE: 'true' }).mediaStore).toMatchObject({ forcePathStyle: true });
  });

  it('ends MEDIA_PUBLIC_URL with a slash', () => {
    expect(loadConfig({ MEDIA_PUBLIC_URL: 'https://cdn.share.example/media' }).mediaPublicUrl).toBe(
      'https://cdn.share.example/media/',
    );
    expect(loadConfig({ ...s3, MEDIA_PUBLIC_URL: 'https://media.share.example/' }).mediaPublicUrl).toBe(
      'https://media.share.example/',
    );
  });

  it.each([
    [{ MEDIA_STORE: 'bucket' }, /^MEDIA_STORE must be local .* or s3/],
    [{ MEDIA_STORE: 's3' }, /^MEDIA_STORE=s3 needs S3_BUCKET/],
    [{ ...s3, S3_BUCKET: 'Bad_Name' }, /^MEDIA_STORE=s3 needs S3_BUCKET/],
    [{ ...s3, S3_REGION: 'eu west' }, /^S3_REGION must be a region name/],
    [{ ...s3, S3_ENDPOINT: 'minio:9000' }, /^S3_ENDPOINT must be the storage's http:\/\/ or https:\/\/ address/],
    [{ ...s3, S3_ACCESS_KEY_ID: 'key' }, /^S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/],
    [{ ...s3, S3_SECRET_ACCESS_KEY: 'secret' }, /^S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/],
    [{ ...s3, S3_FORCE_PATH_STYLE: 'yes' }, /^S3_FORCE_PATH_STYLE must be true or false/],
    [{ ...s3, S3_TIMEOUT_MS: '10s' }, /^S3_TIMEOUT_MS must be a whole number of milliseconds/],
    [{ ...s3, S3_TIMEOUT_MS: '5' }, /^S3_TIMEOUT_MS must be a whole number of milliseconds/],
    [{ S3_BUCKET: 'share-arts-media' }, /^S3_BUCKET is set but MEDIA_STORE is not s3: set MEDIA_STORE=s3/],
    [{ S3_BUCKET: 'b-1', S3_REGION: 'auto' }, /^S3_BUCKET, S3_REGION are set but MEDIA_STORE is not s3/],
    [{ MEDIA_PUBLIC_URL: 'cdn.share.example' }, /^MEDIA_PUBLIC_URL must be the http:\/\/ or https:\/\/ address/],
    [{ MEDIA_PUBLIC_URL: 'https://cdn.example/?v=1' }, /^MEDIA_PUBLIC_URL must be .* without \? or #/],
  ])('refuses %o with a message that says what to fix', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
