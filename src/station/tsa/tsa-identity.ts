import { X509Certificate, createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
import type { x509 as X509 } from '../pki/x509.js';
import type { Database } from '../store/database.js';
import type { SecretVault } from '../keychain/secret-vault.js';
import type { Clock } from '../ports/clock.js';
import { SoftTsaSigner } from './soft-tsa-signer.js';
import { TsaError } from './tsa-error.js';

const DAY = 86_400_000;
const ROOT_VALIDITY = 20 * 365 * DAY;
const TSA_VALIDITY = 5 * 365 * DAY;
/** A TSA certificate this close to its end is replaced at start, so tokens stay verifiable for a useful time. */
const RENEW_BEFORE = 90 * DAY;
/** Back-dating of notBefore, so verifiers with a slightly slow clock accept fresh certificates. */
const CLOCK_SKEW = 3_600_000;

const ROOT_KEY: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-384' };
const ROOT_SIGNING: webcrypto.EcdsaParams = { name: 'ECDSA', hash: 'SHA-384' };
/** RSA-2048 for the TSA key: what every RFC 3161 verifier accepts, and a fast signature on the hot path. */
const TSA_KEY: webcrypto.RsaHashedKeyGenParams = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };

interface CertificateRow {
  role: 'root' | 'tsa';
  certificate: Buffer;
  key_name: string;
}

/**
 * The station's own TSA: a root generated on first start and a TSA certificate (critical EKU timeStamping)
 * issued by it. Certificates live in the store; both private keys only in the vault (AES-GCM under the
 * keychain master key), and in memory as a KeyObject.
 */
export async function loadTsaIdentity(options: { database: Database; vault: SecretVault; clock: Clock }): Promise<SoftTsaSigner> {
  const { database, vault, clock } = options;
  let rows = await readRows(database);
  if (!rows.root || !rows.tsa) {
    await createIdentity(database, vault, clock);
    rows = await readRows(database);
  } else if (Date.parse(new X509Certificate(rows.tsa.certificate).validTo) - clock.now().getTime() < RENEW_BEFORE) {
    await renewTsaCertificate(database, vault, clock, rows.root);
    rows = await readRows(database);
  }
  const { root, tsa } = rows;
  if (!root || !tsa) throw new TsaError('ERR_TSA_IDENTITY_MISSING', 'The TSA certificates could not be created in the store.');

  const pkcs8 = await vault.get(tsa.key_name);
  if (!pkcs8) {
    throw new TsaError('ERR_TSA_KEY_MISSING', `The TSA private key ${tsa.key_name} is not in the vault; the data directory is damaged.`);
  }
  try {
    const key = createPrivateKey({ key: Buffer.from(pkcs8.buffer, pkcs8.byteOffset, pkcs8.byteLength), format: 'der', type: 'pkcs8' });
    return new SoftTsaSigner(key, [new Uint8Array(tsa.certificate), new Uint8Array(root.certificate)]);
  } finally {
    pkcs8.fill(0);
  }
}

async function readRows(database: Database): Promise<Partial<Record<CertificateRow['role'], CertificateRow>>> {
  const rows = await database.all<CertificateRow>('SELECT role, certificate, key_name FROM tsa_certificates');
  return Object.fromEntries(rows.map((row) => [row.role, row]));
}

// @peculiar/x509 (its ASN.1 stack is a sixth of a start) loads only to create or renew certificates; a start
// that finds them valid reads the expiry with node:crypto.
async function createIdentity(database: Database, vault: SecretVault, clock: Clock): Promise<void> {
  const { x509 } = await import('../pki/x509.js');
  const label = randomBytes(4).toString('hex');
  const now = clock.now();
  const rootKeys = (await webcrypto.subtle.generateKey(ROOT_KEY, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const rootCertificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: certificateSerial(),
    name: `CN=Signing Station TSA Root ${label},O=Signing Station`,
    notBefore: new Date(now.getTime() - CLOCK_SKEW),
    notAfter: new Date(now.getTime() + ROOT_VALIDITY),
    keys: rootKeys,
    signingAlgorithm: ROOT_SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });
  const tsa = await issueTsaCertificate(rootCertificate, rootKeys.privateKey, now, label);

  // Keys go to the vault first, under names unique to this attempt; the certificates that name them are then
  // inserted only if no other process won the race. A crash in between leaves an unused encrypted key, never a
  // certificate without its key.
  const rootKeyName = `tsa:root-key:${label}`;
  await putKey(vault, rootKeyName, rootKeys.privateKey);
  await vault.put(tsa.keyName, tsa.pkcs8);
  tsa.pkcs8.fill(0);
  const created = await database.transaction(async (tx) => {
    if (await tx.get("SELECT 1 FROM tsa_certificates WHERE role = 'tsa'")) return false;
    const at = now.toISOString();
    await tx.run('INSERT INTO tsa_certificates (role, certificate, key_name, created_at) VALUES (?, ?, ?, ?)', ['root', new Uint8Array(rootCertificate.rawData), rootKeyName, at]);
    await tx.run('INSERT INTO tsa_certificates (role, certificate, key_name, created_at) VALUES (?, ?, ?, ?)', ['tsa', tsa.certificate, tsa.keyName, at]);
    return true;
  });
  if (!created) await Promise.all([vault.delete(rootKeyName), vault.delete(tsa.keyName)]);
}

async function renewTsaCertificate(database: Database, vault: SecretVault, clock: Clock, root: CertificateRow): Promise<void> {
  const rootPkcs8 = await vault.get(root.key_name);
  if (!rootPkcs8) throw new TsaError('ERR_TSA_KEY_MISSING', `The TSA root key ${root.key_name} is not in the vault; the TSA certificate cannot be renewed.`);
  let rootKey: webcrypto.CryptoKey;
  try {
    rootKey = await webcrypto.subtle.importKey('pkcs8', rootPkcs8, ROOT_KEY, false, ['sign']);
  } finally {
    rootPkcs8.fill(0);
  }
  const { x509 } = await import('../pki/x509.js');
  const tsa = await issueTsaCertificate(new x509.X509Certificate(Uint8Array.from(root.certificate)), rootKey, clock.now(), randomBytes(4).toString('hex'));
  await vault.put(tsa.keyName, tsa.pkcs8);
  tsa.pkcs8.fill(0);
  await database.run("UPDATE tsa_certificates SET certificate = ?, key_name = ?, created_at = ? WHERE role = 'tsa'", [tsa.certificate, tsa.keyName, clock.now().toISOString()]);
}

async function issueTsaCertificate(root: X509.X509Certificate, rootKey: webcrypto.CryptoKey, now: Date, label: string) {
  const { x509 } = await import('../pki/x509.js');
  const keys = (await webcrypto.subtle.generateKey(TSA_KEY, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: certificateSerial(),
    subject: `CN=Signing Station TSA ${label},O=Signing Station`,
    issuer: root.subject,
    notBefore: new Date(now.getTime() - CLOCK_SKEW),
    notAfter: new Date(Math.min(now.getTime() + TSA_VALIDITY, root.notAfter.getTime())),
    publicKey: keys.publicKey,
    signingKey: rootKey,
    signingAlgorithm: ROOT_SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
      // RFC 3161 2.3: the TSA certificate has exactly one EKU, id-kp-timeStamping, and it is critical.
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.timeStamping], true),
      await x509.AuthorityKeyIdentifierExtension.create(root.publicKey),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { certificate: new Uint8Array(certificate.rawData), pkcs8, keyName: `tsa:signing-key:${label}` };
}

async function putKey(vault: SecretVault, name: string, key: webcrypto.CryptoKey): Promise<void> {
  const pkcs8 = new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', key));
  try {
    await vault.put(name, pkcs8);
  } finally {
    pkcs8.fill(0);
  }
}

/** 16 random bytes, first bit clear: a positive serial that reveals nothing and never collides in practice. */
function certificateSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f || 0x01;
  return bytes.toString('hex');
}
