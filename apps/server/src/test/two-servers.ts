// @peculiar/x509 reads decorators' metadata, which this polyfill provides (it must load first).
import 'reflect-metadata';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import type { Config } from '../config.js';
import { freePort } from './fake-remote.js';
import { createTestApp, type TestContext } from './helpers.js';

/**
 * Two (or more) Share Arts servers of ours federating over HTTPS on loopback (issue 39): each its own host name
 * (`a.test`, `b.test`), database, keys and media folder, each behind HTTPS with a certificate the test's own
 * authority signed. Every `fetch` of the test process (Fedify's deliveries and lookups on both sides, and the test's
 * own) trusts that authority and sends the `.test` names to 127.0.0.1: nothing leaves the machine, and nothing
 * about the servers is told they are tests beyond `federationAllowPrivateAddress` (loopback is a private address).
 */

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A certificate authority made for this run, and a certificate of its for each name. */
export async function makeAuthority(names: string[]) {
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + 24 * 3600_000);
  const caKeys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=Share Arts federation test authority',
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const certificates = new Map<string, { key: string; cert: string }>();
  let serial = 2;
  for (const name of names) {
    const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: (serial++).toString(16).padStart(2, '0'),
      subject: `CN=${name}`,
      issuer: ca.subject,
      notBefore,
      notAfter,
      signingKey: caKeys.privateKey,
      publicKey: keys.publicKey,
      signingAlgorithm: ALGORITHM,
      extensions: [
        new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: name }]),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ],
    });
    const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
    const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`;
    certificates.set(name, { key, cert: cert.toString('pem') });
  }
  return { caPem: ca.toString('pem'), certificates };
}

/** Resolves every `*.test` name to 127.0.0.1 (the one address these servers listen on), and nothing else. */
const loopbackLookup: LookupFunction = (hostname, options, callback) => {
  if (!/\.test$/i.test(hostname)) {
    const error = Object.assign(new Error(`${hostname} is not a test name`), { code: 'ENOTFOUND' });
    callback(error as NodeJS.ErrnoException, '', 4);
    return;
  }
  if (options.all)
    (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
      { address: '127.0.0.1', family: 4 },
    ]);
  else callback(null, '127.0.0.1', 4);
};

/**
 * Makes the process's `fetch` trust `caPem` and send `.test` names to loopback; returns what puts the previous
 * dispatcher back.
 */
export function routeTestNames(caPem: string): () => Promise<void> {
  const previous: Dispatcher = getGlobalDispatcher();
  const agent = new Agent({ connect: { ca: caPem, lookup: loopbackLookup } });
  setGlobalDispatcher(agent);
  return async () => {
    setGlobalDispatcher(previous);
    await agent.close();
  };
}

export interface OurServer {
  name: string;
  /** `https://{name}:{port}`, the server's PUBLIC_ORIGIN. */
  origin: string;
  ctx: TestContext;
  close(): Promise<void>;
}

/** One of our servers at `https://{name}:{port}`: the app's own routes served over TLS with the authority's certificate. */
export async function startOurServer(
  name: string,
  certificate: { key: string; cert: string },
  config: Partial<Config> = {},
): Promise<OurServer> {
  const port = await freePort();
  const origin = `https://${name}:${port}`;
  const ctx = await createTestApp({
    config: {
      publicOrigin: origin,
      federationAllowPrivateAddress: true,
      logLevel: process.env.FED_LOG ? 'warn' : 'silent',
      ...config,
    },
  });
  // Fastify's own request handling (`routing`: every hook, route and not-found answer), behind Node's TLS server.
  const server = https.createServer(certificate, (request, reply) => ctx.app.routing(request, reply));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    name,
    origin,
    ctx,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ctx.close();
    },
  };
}

/** Our servers on each of `names`, and the process's fetch routed to them; `close` stops them all. */
export async function startOurServers(names: string[], config: Partial<Config> = {}) {
  const { caPem, certificates } = await makeAuthority(names);
  const restore = routeTestNames(caPem);
  const servers: OurServer[] = [];
  try {
    for (const name of names) servers.push(await startOurServer(name, certificates.get(name)!, config));
  } catch (error) {
    await Promise.all(servers.map((server) => server.close()));
    await restore();
    throw error;
  }
  return {
    servers,
    async close() {
      await Promise.all(servers.map((server) => server.close()));
      await restore();
    },
  };
}
