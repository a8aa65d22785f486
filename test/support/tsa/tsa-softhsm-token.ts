// A SoftHSM2 token holding a TSA key, and a minimal `Token` over it with pkcs11js, so the TSA's token seam
// (TokenTsaSigner) is exercised against a real PKCS#11 module. The station's own PKCS#11 bridge is built
// elsewhere; this only implements what TokenTsaSigner calls (sign, release).
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { webcrypto } from 'node:crypto';
import pkcs11js from 'pkcs11js';
import type { SignRequest, Token } from '../../../src/station/tokens/token.js';
import type { PinStatus, TokenCertificate, TokenDescription } from '../../../src/core/schemas/token-description.js';
import { issueCertificate, type IssuedCertificate, type TestCa } from '../pki/test-pki.js';

const run = promisify(execFile);
export const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';
const LABEL = 'TsaToken';
const PIN = '1234';
/** DigestInfo prefixes (RFC 8017 9.2): CKM_RSA_PKCS signs DigestInfo || hash. */
const DIGEST_INFO: Record<SignRequest['hashAlgorithm'], string> = {
  'SHA-256': '3031300d060960864801650304020105000420',
  'SHA-384': '3041300d060960864801650304020205000430',
  'SHA-512': '3051300d060960864801650304020305000440',
};

export interface SoftHsmTsaToken {
  token: Token;
  certificate: IssuedCertificate;
  pin: string;
  dispose(): void;
}

/** Initialises a SoftHSM token in `dir`, generates an RSA-2048 key on it and certifies it for timestamping. */
export async function createSoftHsmTsaToken(dir: string, ca: TestCa): Promise<SoftHsmTsaToken> {
  const tokens = join(dir, 'softhsm-tokens');
  await mkdir(tokens, { recursive: true });
  const conf = join(dir, 'softhsm2.conf');
  await writeFile(conf, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  process.env.SOFTHSM2_CONF = conf;
  await run('softhsm2-util', ['--init-token', '--free', '--label', LABEL, '--so-pin', '12345678', '--pin', PIN]);
  const tool = ['--module', SOFTHSM_MODULE, '--token-label', LABEL, '--login', '--pin', PIN];
  await run('pkcs11-tool', [...tool, '--keypairgen', '--key-type', 'rsa:2048', '--id', '01', '--label', 'tsa-key']);
  const spkiPath = join(dir, 'tsa-pub.der');
  await run('pkcs11-tool', ['--module', SOFTHSM_MODULE, '--token-label', LABEL, '--read-object', '--type', 'pubkey', '--id', '01', '-o', spkiPath]);
  const publicKey = await webcrypto.subtle.importKey('spki', await readFile(spkiPath), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, true, ['verify']);
  const certificate = await issueCertificate(ca, { subject: 'CN=Token TSA,O=Signing Station Tests', publicKey: publicKey as CryptoKey, usage: 'tsa' });

  const module = new pkcs11js.PKCS11();
  module.load(SOFTHSM_MODULE);
  module.C_Initialize();
  const slot = module.C_GetSlotList(true).find((s) => module.C_GetTokenInfo(s).label.trim() === LABEL);
  if (!slot) throw new Error('SoftHSM token not found');
  const session = module.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
  let loggedIn = false;

  const token: Token = {
    id: `pkcs11:${LABEL}`,
    kind: 'pkcs11',
    label: LABEL,
    describe: async (): Promise<TokenDescription> => ({ id: token.id, kind: 'pkcs11', label: LABEL, driver: SOFTHSM_MODULE, pin: await token.pinStatus(), certificates: [] }),
    listCertificates: async (): Promise<TokenCertificate[]> => [],
    pinStatus: async (): Promise<PinStatus> => ({ countLow: false, finalTry: false, locked: false, pinpad: false }),
    async sign(request: SignRequest): Promise<Uint8Array> {
      if (request.scheme !== 'RSASSA-PKCS1-v1_5') throw new TypeError(`this test token signs RSASSA-PKCS1-v1_5 only, not ${request.scheme}`);
      if (!loggedIn) {
        const pin = await request.pin({ finalTry: false, previousAttemptFailed: false, pinLabel: 'TSA token PIN' });
        if (!pin) throw new Error('no PIN');
        try {
          module.C_Login(session, pkcs11js.CKU_USER, Buffer.from(pin).toString('utf8'));
        } finally {
          pin.fill(0);
        }
        loggedIn = true;
      }
      module.C_FindObjectsInit(session, [
        { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY },
        { type: pkcs11js.CKA_ID, value: Buffer.from(request.certificateId, 'hex') },
      ]);
      const [key] = module.C_FindObjects(session, 1);
      module.C_FindObjectsFinal(session);
      if (!key) throw new Error(`no private key with id ${request.certificateId}`);
      module.C_SignInit(session, { mechanism: pkcs11js.CKM_RSA_PKCS }, key);
      const digestInfo = Buffer.concat([Buffer.from(DIGEST_INFO[request.hashAlgorithm], 'hex'), request.hash]);
      return new Uint8Array(module.C_Sign(session, digestInfo, Buffer.alloc(512)));
    },
    async release(): Promise<void> {
      if (loggedIn) module.C_Logout(session);
      loggedIn = false;
    },
  };
  return {
    token,
    certificate,
    pin: PIN,
    dispose: () => {
      module.C_CloseSession(session);
      module.C_Finalize();
    },
  };
}
