import { X509Certificate } from 'node:crypto';
import pkcs11js from 'pkcs11js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CardProcess } from './card-process.js';
import { startPcscd, waitFor } from '../support/pcsc/pcsc-test-env.js';
import { OPENSC_MODULE } from '../support/pcsc/pcsc-pkcs11-tool.js';
import type { PcscDaemon } from '../support/pcsc/pcsc-daemon.js';

/**
 * The PIV card in a child process, driven by opensc-pkcs11.so loaded in THIS process through pkcs11js (whose
 * calls block): the set-up the PKCS#11 token tests need for OpenSC's real PIN lockout.
 */
describe('emulated PIV card in a child process under in-process OpenSC', () => {
  let daemon: PcscDaemon;
  let card: CardProcess;
  const pkcs11 = new pkcs11js.PKCS11();

  beforeAll(async () => {
    daemon = await startPcscd();
    card = await CardProcess.start({ kind: 'piv', piv: { pinTries: 3 } });
    await card.insert();
    pkcs11.load(OPENSC_MODULE);
    pkcs11.C_Initialize();
  });
  afterAll(async () => {
    try {
      pkcs11.C_Finalize();
    } catch {
      // not initialised when the set-up failed
    }
    await card?.stop();
    await daemon?.stop();
  });

  function tokenSlot(): Buffer | undefined {
    return pkcs11.C_GetSlotList(true)[0];
  }

  it('lists the certificates, counts the PIN down with the flags, then locks it', async () => {
    const slot = await waitFor('the PIV token', () => tokenSlot());
    const session = pkcs11.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION);
    pkcs11.C_FindObjectsInit(session, [{ type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_CERTIFICATE }]);
    const handles = pkcs11.C_FindObjects(session, 10);
    pkcs11.C_FindObjectsFinal(session);
    const certificates = handles.map((h) => new X509Certificate(pkcs11.C_GetAttributeValue(session, h, [{ type: pkcs11js.CKA_VALUE }])[0]!.value as Buffer));
    expect(certificates.map((c) => c.raw.toString('base64')).sort()).toEqual(Object.values(card.certificates).sort());

    const login = (pin: string) => {
      try {
        pkcs11.C_Login(session, pkcs11js.CKU_USER, pin);
        return 'CKR_OK';
      } catch (error) {
        return (error as Error).message.split(':')[0];
      }
    };
    expect(login('000000')).toBe('CKR_PIN_INCORRECT');
    expect(login('000000')).toBe('CKR_PIN_INCORRECT');
    expect(pkcs11.C_GetTokenInfo(slot).flags & pkcs11js.CKF_USER_PIN_FINAL_TRY).toBeTruthy();
    expect(login('000000')).toMatch(/CKR_PIN_INCORRECT|CKR_PIN_LOCKED/);
    expect(login('123456')).toBe('CKR_PIN_LOCKED');
    expect(pkcs11.C_GetTokenInfo(slot).flags & pkcs11js.CKF_USER_PIN_LOCKED).toBeTruthy();
    expect(await card.pinTries()).toBe(0);
    pkcs11.C_CloseSession(session);
  });
});
