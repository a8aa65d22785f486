// Revocation services of a test CA, as B-LT signing meets them: openssl's OCSP responder (`openssl ocsp -index`)
// and a CRL (made with @peculiar/x509, signed by the CA) served over HTTP on 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { x509 } from '../../../src/station/pki/x509.js';
import type { IssuedCertificate, TestCa } from '../pki/test-pki.js';

export interface RevocationServices {
  /** Name these in the certificates the CA issues (authorityInfoAccess, cRLDistributionPoints). */
  ocspUrl: string;
  crlUrl: string;
  /** Tells both services what the CA issued and which of those it revoked (once); revoked a minute ago unless `revokedAt` says when. */
  publish(issued: readonly IssuedCertificate[], revoked: readonly IssuedCertificate[], revokedAt?: ReadonlyMap<IssuedCertificate, Date>): Promise<void>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

const pem = (label: string, der: ArrayBuffer | Uint8Array): string => `-----BEGIN ${label}-----\n${Buffer.from(der as Uint8Array).toString('base64').replace(/.{64}/g, '$&\n')}\n-----END ${label}-----\n`;
/** openssl ca index time: YYMMDDHHMMSSZ. */
const indexTime = (date: Date): string => date.toISOString().replace(/^\d\d(\d\d)-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d).*$/, '$1$2$3$4$5$6Z');

function indexLine(certificate: IssuedCertificate, revokedAt: Date | undefined): string {
  const subject = `/${certificate.certificate.subject.split(/,\s*/).join('/')}`;
  const serial = certificate.certificate.serialNumber.toUpperCase();
  return [revokedAt ? 'R' : 'V', indexTime(certificate.certificate.notAfter), revokedAt ? indexTime(revokedAt) : '', serial.length % 2 ? `0${serial}` : serial, 'unknown', subject].join('\t');
}

/** openssl reads index.txt at start (a change is seen only one request late), so it starts once the index is written. */
async function startOcspResponder(dir: string, ca: TestCa, port: number, lines: readonly string[], responder: OcspResponderKey): Promise<ChildProcess> {
  await writeFile(join(dir, 'index.txt'), lines.length > 0 ? `${lines.join('\n')}\n` : '');
  await writeFile(join(dir, 'ocsp-ca.pem'), ca.pem);
  await writeFile(join(dir, 'ocsp-signer.pem'), responder.pem);
  await writeFile(join(dir, 'ocsp-signer.key'), pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', responder.privateKey)));
  const child = spawn('openssl', ['ocsp', '-index', join(dir, 'index.txt'), '-port', String(port), '-rsigner', join(dir, 'ocsp-signer.pem'), '-rkey', join(dir, 'ocsp-signer.key'), '-CA', join(dir, 'ocsp-ca.pem'), '-ignore_err'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/waiting for OCSP client connections/.test(output)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`openssl ocsp exited with ${code}: ${output}`)));
  });
  return child;
}

async function crlOf(ca: TestCa, revoked: readonly IssuedCertificate[], revokedAt: (certificate: IssuedCertificate) => Date = () => new Date(Date.now() - 60_000)): Promise<Buffer> {
  const crl = await x509.X509CrlGenerator.create({
    issuer: ca.certificate.subject,
    thisUpdate: new Date(Date.now() - 60_000),
    nextUpdate: new Date(Date.now() + 86_400_000),
    entries: revoked.map((certificate) => ({ serialNumber: certificate.certificate.serialNumber, revocationDate: revokedAt(certificate) })),
    signingKey: ca.keys.privateKey,
    signingAlgorithm: ca.keys.privateKey.algorithm.name === 'ECDSA' ? { name: 'ECDSA', hash: 'SHA-256' } : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  });
  return Buffer.from(crl.rawData);
}

/** Who signs the OCSP responses: the CA itself by default, or a delegated responder (or, in attack tests, anyone). */
export interface OcspResponderKey {
  pem: string;
  privateKey: CryptoKey;
}

/** The CRL server of `ca` now, its OCSP responder on `publish` (call it once, before the first signature). */
export async function startRevocationServices(dir: string, ca: TestCa, responder: OcspResponderKey = { pem: ca.pem, privateKey: ca.keys.privateKey }): Promise<RevocationServices> {
  const ocspPort = await freePort();
  let ocsp: ChildProcess | undefined;
  let crl = await crlOf(ca, []);
  const server: Server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/pkix-crl', 'content-length': crl.length }).end(crl);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    ocspUrl: `http://127.0.0.1:${ocspPort}/`,
    crlUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ca.crl`,
    async publish(issued, revoked, revokedAt) {
      const minuteAgo = new Date(Date.now() - 60_000);
      const when = (certificate: IssuedCertificate): Date => revokedAt?.get(certificate) ?? minuteAgo;
      const lines = [...issued.map((c) => indexLine(c, undefined)), ...revoked.map((c) => indexLine(c, when(c)))];
      if (ocsp) throw new Error('publish once');
      ocsp = await startOcspResponder(dir, ca, ocspPort, lines, responder);
      crl = await crlOf(ca, revoked, when);
    },
    async close() {
      if (ocsp && ocsp.exitCode === null) {
        const exited = once(ocsp, 'exit');
        ocsp.kill();
        await exited;
      }
      server.close();
      await once(server, 'close');
    },
  };
}
