#!/usr/bin/env node
// An integrator's web app whose server never talks to the user's Signing Station (docs/integrating.md): it issues
// signing grants signed with its own key, checks the signed files the page brings back, and checks Web eID logins
// itself. Run from the repository after `npm run build`: `npm run example` (options: node examples/integrator/server.js --help).
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { constants, createHash, generateKeyPairSync, randomBytes, randomUUID, verify, X509Certificate } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SignJWT, exportJWK, importJWK } from 'jose';
import yauzl from 'yauzl';

const usage = `node examples/integrator/server.js [--host 127.0.0.1] [--port 8080] [--station http://127.0.0.1:27420]
  [--client-id shop] [--data examples/integrator/data] [--trust CA.pem]... [--cert CERT.pem --key KEY.pem]`;
const { values: options } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '8080' },
    station: { type: 'string', default: 'http://127.0.0.1:27420' },
    'client-id': { type: 'string', default: 'shop' },
    data: { type: 'string', default: 'examples/integrator/data' },
    trust: { type: 'string', multiple: true, default: [] },
    cert: { type: 'string' },
    key: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (options.help) {
  console.log(usage);
  process.exit(0);
}
const clientId = options['client-id'];
const page = await readFile(new URL('page.html', import.meta.url), 'utf8');
const pageScript = await readFile(new URL('page.js', import.meta.url));
const trusted = await Promise.all(options.trust.map(async (file) => new X509Certificate(await readFile(file))));
const signingKey = await loadOrCreateKey(options.data);
/** Documents waiting for their signature, and login nonces, by id: a real app keeps them in its session store. */
const documents = new Map();
const logins = new Map();

/** The key the station checks grants with: made once, its public half in data/jwks.json for `clients add --jwks`. */
async function loadOrCreateKey(dir) {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'private-key.json');
  let jwk = await readFile(file, 'utf8').then(JSON.parse, () => undefined);
  if (!jwk) {
    jwk = { ...(await exportJWK(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey)), kid: randomUUID(), alg: 'ES256' };
    await writeFile(file, JSON.stringify(jwk), { mode: 0o600, flag: 'wx' });
  }
  const { d: _private, ...publicJwk } = jwk;
  await writeFile(join(dir, 'jwks.json'), JSON.stringify({ keys: [publicJwk] }));
  return { key: await importJWK(jwk, 'ES256'), kid: jwk.kid };
}

/** The grant: this origin's page may have the station sign exactly these files (names and SHA-256), for 5 minutes. */
function grantFor(origin, containerType, files) {
  return new SignJWT({ origin, container_type: containerType, files: files.map((file) => ({ name: file.fileName, sha256: sha256(file.bytes) })) })
    .setProtectedHeader({ alg: 'ES256', typ: 'signing-grant+jwt', kid: signingKey.kid })
    .setIssuer(clientId)
    .setAudience(`${options.station}/integrator`)
    .setIssuedAt()
    .setExpirationTime('5m')
    .setJti(randomUUID())
    .sign(signingKey.key);
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The entries of a zip (an ASiC-E container), by name. */
async function zipEntries(bytes) {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const entries = new Map();
  return new Promise((resolve, reject) => {
    zip.on('entry', async (entry) => {
      try {
        const chunks = [];
        for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk);
        entries.set(entry.fileName, Buffer.concat(chunks));
        zip.readEntry();
      } catch (error) {
        reject(error);
      }
    });
    zip.on('end', () => resolve(entries)).on('error', reject);
    zip.readEntry();
  });
}

/** The signed file must carry the very bytes this server granted; its signature is then checked by your validator. */
async function assertSignedOriginals(document, signed) {
  if (document.containerType === 'pdf') {
    const original = document.files[0].bytes;
    if (!signed.subarray(0, original.length).equals(original) || !signed.includes('/ByteRange')) throw new Error('the signed PDF does not extend the granted one');
    return;
  }
  const entries = await zipEntries(signed);
  for (const file of document.files) if (!entries.get(file.fileName)?.equals(file.bytes)) throw new Error(`${file.fileName} in the container is not the granted file`);
  if (![...entries.keys()].some((name) => /^META-INF\/.*signatures.*\.xml$/.test(name))) throw new Error('the container holds no signature');
}

const WEB_EID_ALGORITHMS = { RS256: 'sha256', PS256: 'sha256', ES256: 'sha256', ES384: 'sha384' };

/** A Web eID token: made by a certificate one of --trust issued, valid now, over hash(origin) || hash(nonce). */
function verifyWebEid(token, origin, nonce) {
  const hash = WEB_EID_ALGORITHMS[token?.algorithm];
  if (token?.format !== 'web-eid:1.0' || !hash) throw new Error('not a web-eid:1.0 token');
  const certificate = new X509Certificate(Buffer.from(token.unverifiedCertificate, 'base64'));
  const now = new Date();
  if (now < new Date(certificate.validFrom) || now > new Date(certificate.validTo)) throw new Error('the certificate is not valid now');
  if (!trusted.some((ca) => certificate.checkIssued(ca) && certificate.verify(ca.publicKey))) throw new Error('the certificate is not issued by a trusted CA (--trust)');
  const signed = Buffer.concat([createHash(hash).update(origin).digest(), createHash(hash).update(nonce).digest()]);
  const key = token.algorithm.startsWith('ES') ? { key: certificate.publicKey, dsaEncoding: 'ieee-p1363' } : token.algorithm === 'PS256' ? { key: certificate.publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } : certificate.publicKey;
  if (!verify(hash, signed, key, Buffer.from(token.signature, 'base64'))) throw new Error('the signature does not verify');
  return certificate;
}

const routes = {
  'GET /': (_body, reply) => reply(200, page.replaceAll('{{STATION}}', options.station).replaceAll('{{CLIENT_ID}}', clientId), 'text/html; charset=utf-8'),
  'GET /page.js': (_body, reply) => reply(200, pageScript, 'text/javascript; charset=utf-8'),
  // A real app has the documents already (a contract it generated); this one takes what the user picked.
  'POST /documents': async (body, reply, origin) => {
    const files = body.files.map((file) => ({ ...file, bytes: Buffer.from(file.fileContent, 'base64') }));
    const id = randomUUID();
    documents.set(id, { containerType: body.container_type, files });
    reply(200, { id, grant: await grantFor(origin, body.container_type, files) });
  },
  'POST /documents/signed': async (body, reply) => {
    const document = documents.get(body.id);
    if (!document) return reply(404, { error: 'no such document' });
    const signed = Buffer.from(body.signed_file_contents, 'base64');
    await assertSignedOriginals(document, signed);
    const path = join(options.data, 'signed', body.id, body.filename.replace(/[^\w.-]/g, '_'));
    await mkdir(join(options.data, 'signed', body.id), { recursive: true });
    await writeFile(path, signed, { flag: 'wx' });
    documents.delete(body.id);
    reply(200, { status: 'OK', stored: path, signer: `${body.signer_firstname} ${body.signer_lastname}` });
  },
  // The browser client's identityStart and identityFinish for ee-web-eid-login: this server's nonce, its own check.
  'POST /login/start': (_body, reply) => {
    const token = randomUUID();
    const nonce = randomBytes(32).toString('base64');
    logins.set(token, { nonce, expires: Date.now() + 300_000 });
    reply(200, { status: 'OK', token, nonce });
  },
  'POST /login/finish': (body, reply, origin) => {
    const login = logins.get(body.auth_token);
    logins.delete(body.auth_token);
    if (!login || login.expires < Date.now()) return reply(401, { status: 'error', message: 'unknown or expired login' });
    const certificate = verifyWebEid(body.token, origin, login.nonce);
    reply(200, { status: 'OK', subject: certificate.subject, serialNumber: certificate.serialNumber });
  },
};

// Over https when given a certificate, as a hosted app is: Chrome lets only a secure page ask to reach the station.
const tls = options.cert && options.key ? { cert: await readFile(options.cert), key: await readFile(options.key) } : undefined;
const scheme = tls ? 'https' : 'http';
const server = (tls ? createTlsServer.bind(undefined, tls) : createServer)((request, response) => {
  const reply = (status, body, type = 'application/json') =>
    response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
  const route = routes[`${request.method} ${new URL(request.url, 'http://any').pathname}`];
  if (!route) return reply(404, { error: 'not found' });
  // This app's pages only: what comes from another origin is refused before it is read.
  const origin = `${scheme}://${request.headers.host}`;
  if (request.method === 'POST' && request.headers.origin !== origin) return reply(403, { error: 'foreign origin' });
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      await route(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {}, reply, origin);
    } catch (error) {
      reply(400, { status: 'error', message: error.message });
    }
  });
});
server.listen(Number(options.port), options.host, () => {
  const { port } = server.address();
  console.log(`listening ${scheme}://${options.host}:${port}`);
  console.log(`register: npx signing-station clients add --client-id ${clientId} --allowed-origin ${scheme}://${options.host}:${port} --jwks ${join(options.data, 'jwks.json')}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
