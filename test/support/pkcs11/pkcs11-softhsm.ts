// A real SoftHSM2 token for tests: its own SOFTHSM2_CONF and token directory in a tmp dir, keys generated on the
// token (RSA and EC, one with CKA_ALWAYS_AUTHENTICATE), certificates for them issued by the test CA and stored on
// the token under the same CKA_ID.
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { webcrypto } from 'node:crypto';
import pkcs11js from 'pkcs11js';
import { createPkcs11TokenSource, type CreatePkcs11TokenSourceOptions } from '../../../src/station/tokens/pkcs11/create-pkcs11-token-source.js';
import type { Pkcs11TokenSource } from '../../../src/station/tokens/pkcs11/pkcs11-token-source.js';
import { createTestCa, createTestSigner, issueCertificate, type IssueOptions, type IssuedCertificate, type TestCa } from '../pki/test-pki.js';

const run = promisify(execFile);

export const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';
/** The file that symlink names: what the station stores and loads for a module added by the link. */
export const SOFTHSM_MODULE_FILE = realpathSync(SOFTHSM_MODULE);
export const SO_PIN = '12345678';

export interface SoftHsmKeySpec {
  /** CKA_ID, hex. */
  id: string;
  algorithm: 'RSA-2048' | 'P-256' | 'P-384';
  usage: IssueOptions['usage'];
  alwaysAuthenticate?: boolean;
  /** CKA_ALLOWED_MECHANISMS of both keys (CKM_* numbers): SoftHSM then refuses every other mechanism at C_SignInit. */
  allowedMechanisms?: number[];
  /** The certificate's subject; default one naming the token, key and usage. */
  subject?: string;
  notBefore?: Date;
  notAfter?: Date;
  /** The CA that issues the certificate; default the SoftHsm's own test CA. */
  issuer?: TestCa;
  /** Certify a key that is not on the token: a token that cannot prove possession of its certificate's key. */
  certifiesAnotherKey?: boolean;
}

export interface SoftHsmKey extends SoftHsmKeySpec {
  certificate: IssuedCertificate;
}

export interface SoftHsm {
  dir: string;
  conf: string;
  ca: TestCa;
  /** Initialises a token and fills it; the returned keys carry their certificates. */
  createToken(label: string, pin: string, keys: SoftHsmKeySpec[], options?: { caOnToken?: boolean }): Promise<SoftHsmKey[]>;
  deleteToken(label: string): Promise<void>;
  dispose(): Promise<void>;
}

/** SoftHSM as the station finds it on a user's machine (known-pkcs11-modules): rescanned by re-initialising. */
export const SOFTHSM_MODULE_SPEC = { path: SOFTHSM_MODULE, name: 'SoftHSM', kind: 'pkcs11', origin: 'config', rescanByReinitialize: true } as const;

/** The station's PKCS#11 token source over SoftHSM alone. */
export function softHsmTokenSource(options: Omit<CreatePkcs11TokenSourceOptions, 'includeKnown' | 'modules'> = {}): Pkcs11TokenSource {
  return createPkcs11TokenSource({ includeKnown: false, modules: [SOFTHSM_MODULE_SPEC], ...options });
}

const EC_PARAMS: Record<'P-256' | 'P-384', Buffer> = {
  'P-256': Buffer.from('06082a8648ce3d030107', 'hex'),
  'P-384': Buffer.from('06052b81040022', 'hex'),
};

/** SOFTHSM2_CONF is read by C_Initialize, so it is set for this whole test process. */
export async function createSoftHsm(): Promise<SoftHsm> {
  const dir = await mkdtemp(join(tmpdir(), 'softhsm-'));
  const conf = join(dir, 'softhsm2.conf');
  await mkdir(join(dir, 'tokens'));
  await writeFile(conf, `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  process.env.SOFTHSM2_CONF = conf;
  const ca = await createTestCa();
  const env = { ...process.env, SOFTHSM2_CONF: conf };
  return {
    dir,
    conf,
    ca,
    async createToken(label, pin, keys, options = {}) {
      await run('softhsm2-util', ['--init-token', '--free', '--label', label, '--so-pin', SO_PIN, '--pin', pin], { env });
      // An empty token needs no session: a test whose bridge already holds the library must not re-initialise it.
      if (keys.length === 0 && !options.caOnToken) return [];
      return withLoggedInSession(label, pin, async (library, session) => {
        const created: SoftHsmKey[] = [];
        for (const spec of keys) {
          const publicKey = generateKeyPair(library, session, spec);
          const certificate = await issueCertificate(spec.issuer ?? ca, {
            subject: spec.subject ?? `CN=${label} ${spec.id} ${spec.usage},O=Signing Station Tests,C=EE`,
            publicKey: spec.certifiesAnotherKey
              ? (await createTestSigner(ca, 'CN=Another key', spec.algorithm, spec.usage)).keys.publicKey
              : await toCryptoKey(library, session, publicKey, spec.algorithm),
            usage: spec.usage,
            ...(spec.notBefore ? { notBefore: spec.notBefore } : {}),
            ...(spec.notAfter ? { notAfter: spec.notAfter } : {}),
          });
          storeCertificate(library, session, spec.id, certificate.certificate, `cert-${spec.id}`);
          created.push({ ...spec, certificate });
        }
        if (options.caOnToken) storeCertificate(library, session, 'ca01', ca.certificate, 'test root');
        return created;
      });
    },
    async deleteToken(label) {
      await run('softhsm2-util', ['--delete-token', '--token', label], { env });
    },
    async dispose() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function withLoggedInSession<T>(label: string, pin: string, work: (library: pkcs11js.PKCS11, session: Buffer) => Promise<T>): Promise<T> {
  const library = new pkcs11js.PKCS11();
  library.load(SOFTHSM_MODULE);
  library.C_Initialize();
  try {
    const slot = library.C_GetSlotList(true).find((s) => library.C_GetTokenInfo(s).label.trim() === label);
    if (!slot) throw new Error(`SoftHSM token ${label} not found`);
    const session = library.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
    library.C_Login(session, pkcs11js.CKU_USER, pin);
    try {
      return await work(library, session);
    } finally {
      library.C_Logout(session);
      library.C_CloseSession(session);
    }
  } finally {
    library.C_Finalize();
    library.close();
  }
}

/** A CK_MECHANISM_TYPE array as the module reads it: CK_ULONGs, 8 bytes little-endian on Linux x86-64. */
function mechanismArray(mechanisms: number[]): Buffer {
  const array = Buffer.alloc(8 * mechanisms.length);
  mechanisms.forEach((mechanism, i) => array.writeBigUInt64LE(BigInt(mechanism), 8 * i));
  return array;
}

function generateKeyPair(library: pkcs11js.PKCS11, session: Buffer, spec: SoftHsmKeySpec): Buffer {
  const id = Buffer.from(spec.id, 'hex');
  const rsa = spec.algorithm === 'RSA-2048';
  const allowed = spec.allowedMechanisms ? [{ type: pkcs11js.CKA_ALLOWED_MECHANISMS, value: mechanismArray(spec.allowedMechanisms) }] : [];
  const keys = library.C_GenerateKeyPair(
    session,
    { mechanism: rsa ? pkcs11js.CKM_RSA_PKCS_KEY_PAIR_GEN : pkcs11js.CKM_EC_KEY_PAIR_GEN },
    [
      { type: pkcs11js.CKA_TOKEN, value: true },
      { type: pkcs11js.CKA_ID, value: id },
      { type: pkcs11js.CKA_VERIFY, value: true },
      ...allowed,
      ...(rsa
        ? [
            { type: pkcs11js.CKA_MODULUS_BITS, value: 2048 },
            { type: pkcs11js.CKA_PUBLIC_EXPONENT, value: Buffer.from([1, 0, 1]) },
          ]
        : [{ type: pkcs11js.CKA_EC_PARAMS, value: EC_PARAMS[spec.algorithm as 'P-256' | 'P-384'] }]),
    ],
    [
      { type: pkcs11js.CKA_TOKEN, value: true },
      { type: pkcs11js.CKA_PRIVATE, value: true },
      { type: pkcs11js.CKA_SENSITIVE, value: true },
      { type: pkcs11js.CKA_SIGN, value: true },
      { type: pkcs11js.CKA_ID, value: id },
      { type: pkcs11js.CKA_LABEL, value: `key-${spec.id}` },
      ...(spec.alwaysAuthenticate ? [{ type: pkcs11js.CKA_ALWAYS_AUTHENTICATE, value: true }] : []),
      ...allowed,
    ],
  );
  return keys.publicKey;
}

async function toCryptoKey(library: pkcs11js.PKCS11, session: Buffer, publicKey: Buffer, algorithm: SoftHsmKeySpec['algorithm']): Promise<CryptoKey> {
  if (algorithm === 'RSA-2048') {
    const [modulus, exponent] = library.C_GetAttributeValue(session, publicKey, [{ type: pkcs11js.CKA_MODULUS }, { type: pkcs11js.CKA_PUBLIC_EXPONENT }]);
    return webcrypto.subtle.importKey(
      'jwk',
      { kty: 'RSA', n: modulus!.value.toString('base64url'), e: exponent!.value.toString('base64url') },
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      true,
      ['verify'],
    );
  }
  // CKA_EC_POINT is the uncompressed point wrapped in a DER OCTET STRING (short form length for P-256/384).
  const [point] = library.C_GetAttributeValue(session, publicKey, [{ type: pkcs11js.CKA_EC_POINT }]);
  return webcrypto.subtle.importKey('raw', point!.value.subarray(2), { name: 'ECDSA', namedCurve: algorithm }, true, ['verify']);
}

function storeCertificate(library: pkcs11js.PKCS11, session: Buffer, id: string, certificate: TestCa['certificate'], label: string): void {
  library.C_CreateObject(session, [
    { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_CERTIFICATE },
    { type: pkcs11js.CKA_CERTIFICATE_TYPE, value: pkcs11js.CKC_X_509 },
    { type: pkcs11js.CKA_TOKEN, value: true },
    { type: pkcs11js.CKA_PRIVATE, value: false },
    { type: pkcs11js.CKA_ID, value: Buffer.from(id, 'hex') },
    { type: pkcs11js.CKA_LABEL, value: label },
    { type: pkcs11js.CKA_SUBJECT, value: Buffer.from(certificate.subjectName.toArrayBuffer()) },
    { type: pkcs11js.CKA_VALUE, value: Buffer.from(certificate.rawData) },
  ]);
}
