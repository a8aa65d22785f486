import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkcs11js from 'pkcs11js';
import { loginOnWorker } from '../../../../src/station/tokens/pkcs11/login-on-worker.js';
import { isReturnValue } from '../../../../src/station/tokens/pkcs11/pkcs11-errors.js';
import { createSoftHsm, SOFTHSM_MODULE, type SoftHsm } from '../../../support/pkcs11/pkcs11-softhsm.js';

// C_Login off the event loop, on a real SoftHSM2 token: the session the event loop opened is the one logged in.
// Session states of PKCS#11 2.40 (pkcs11js does not export them).
const CKS_RO_PUBLIC_SESSION = 0;
const CKS_RO_USER_FUNCTIONS = 1;
const pinBytes = (pin: string): Uint8Array => new TextEncoder().encode(pin);
let softhsm: SoftHsm;
let library: pkcs11js.PKCS11;
let session: Buffer;
beforeAll(async () => {
  softhsm = await createSoftHsm();
  await softhsm.createToken('Worker login', '1234', [{ id: '01', algorithm: 'P-256', usage: 'signing' }]);
  library = new pkcs11js.PKCS11();
  library.load(SOFTHSM_MODULE);
  library.C_Initialize({ flags: pkcs11js.CKF_OS_LOCKING_OK });
  const slot = library.C_GetSlotList(true).find((candidate) => library.C_GetTokenInfo(candidate).label.trim() === 'Worker login')!;
  session = library.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION);
});
afterAll(async () => {
  library?.C_Finalize();
  library?.close();
  await softhsm?.dispose();
});

describe('PKCS#11 login on a worker thread', () => {
  it('a wrong PIN is the token’s own refusal (CKR_PIN_INCORRECT), and the session stays logged out', async () => {
    const refused = await loginOnWorker(SOFTHSM_MODULE, session, pkcs11js.CKU_USER, pinBytes('0000')).catch((error: unknown) => error);
    expect(isReturnValue(refused, pkcs11js.CKR_PIN_INCORRECT)).toBe(true);
    expect(library.C_GetSessionInfo(session).state).toBe(CKS_RO_PUBLIC_SESSION);
  });

  it('a PIN-pad login (no PIN) reaches the module as a zero-length PIN, which SoftHSM, having no PIN pad, refuses as incorrect', async () => {
    // pkcs11js takes only a string: anything else would be a TypeError before the module is called.
    const refused = await loginOnWorker(SOFTHSM_MODULE, session, pkcs11js.CKU_USER, undefined).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(pkcs11js.Pkcs11Error);
    expect(isReturnValue(refused, pkcs11js.CKR_PIN_INCORRECT)).toBe(true);
    expect(library.C_GetSessionInfo(session).state).toBe(CKS_RO_PUBLIC_SESSION);
  });

  it('the PIN is copied to the login thread: the caller’s bytes are left as they were, for the caller to zero', async () => {
    const pin = pinBytes('0000');
    await loginOnWorker(SOFTHSM_MODULE, session, pkcs11js.CKU_USER, pin).catch(() => undefined);
    expect(Buffer.from(pin).toString('utf8')).toBe('0000');
  });

  it('the right PIN logs in the event loop’s session, which then signs: the thread left the library initialised', async () => {
    await loginOnWorker(SOFTHSM_MODULE, session, pkcs11js.CKU_USER, pinBytes('1234'));
    expect(library.C_GetSessionInfo(session).state).toBe(CKS_RO_USER_FUNCTIONS);
    const [key] = (() => {
      library.C_FindObjectsInit(session, [{ type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY }]);
      const found = library.C_FindObjects(session, 1);
      library.C_FindObjectsFinal(session);
      return found;
    })();
    library.C_SignInit(session, { mechanism: pkcs11js.CKM_ECDSA }, key!);
    expect(library.C_Sign(session, Buffer.alloc(32, 7), Buffer.alloc(64)).length).toBe(64);
    library.C_Logout(session);
  });
});
