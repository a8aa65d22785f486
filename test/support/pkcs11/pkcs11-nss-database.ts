// A real NSS database (the Linux browsers' certificate store) in a tmp dir, filled the way a user does it:
// certutil -N for the database, pk12util -i for a PKCS#12 file with a key, its certificate and the CA.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestSigner, type TestCa, type KeyAlgorithm } from '../pki/test-pki.js';

const run = promisify(execFile);

export interface NssDatabase {
  dir: string;
  password: string;
  signers: Array<Awaited<ReturnType<typeof createTestSigner>> & { p12: string }>;
  dispose(): Promise<void>;
}

export function pem(label: string, der: Uint8Array): string {
  const body = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN ${label}-----\n${body}${body.endsWith('\n') ? '' : '\n'}-----END ${label}-----\n`;
}

/** A PKCS#12 file made by openssl (AES-256-CBC, PBKDF2, HMAC-SHA256: today's defaults). */
export async function writePkcs12(dir: string, name: string, signer: Awaited<ReturnType<typeof createTestSigner>>, ca: TestCa, password: string): Promise<string> {
  const keyFile = join(dir, `${name}.key.pem`);
  const certFile = join(dir, `${name}.cert.pem`);
  const caFile = join(dir, `${name}.ca.pem`);
  const p12 = join(dir, `${name}.p12`);
  await writeFile(keyFile, pem('PRIVATE KEY', signer.pkcs8), { mode: 0o600 });
  await writeFile(certFile, signer.pem);
  await writeFile(caFile, ca.pem);
  await run('openssl', ['pkcs12', '-export', '-inkey', keyFile, '-in', certFile, '-certfile', caFile, '-name', name, '-passout', `pass:${password}`, '-out', p12]);
  await rm(keyFile);
  return p12;
}

export async function createNssDatabase(ca: TestCa, password: string, keys: Array<{ name: string; algorithm: KeyAlgorithm }>): Promise<NssDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'nssdb-'));
  const passwordFile = join(dir, 'password.txt');
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  await run('certutil', ['-N', '-d', `sql:${dir}`, '-f', passwordFile]);
  const signers: NssDatabase['signers'] = [];
  for (const { name, algorithm } of keys) {
    const signer = await createTestSigner(ca, `CN=${name},O=Signing Station Tests,C=EE`, algorithm, 'signing');
    const p12 = await writePkcs12(dir, name, signer, ca, 'transport');
    await run('pk12util', ['-i', p12, '-d', `sql:${dir}`, '-k', passwordFile, '-W', 'transport']);
    signers.push({ ...signer, p12 });
  }
  return { dir, password, signers, dispose: () => rm(dir, { recursive: true, force: true }) };
}
