import { describe, expect, it } from 'vitest';
import { importWithPkcs11js } from '../../../../src/station/tokens/pkcs11/import-with-pkcs11js.js';
import { Pkcs11UnavailableError } from '../../../../src/station/tokens/pkcs11/pkcs11-unavailable-error.js';

/** What `import()` rejects with when a package is not installed: a real import of one that is not. */
async function missingPackage(): Promise<unknown> {
  return import('pkcs11js-not-installed' as string);
}

describe('importWithPkcs11js', () => {
  it('hands back what the import gives when pkcs11js is there', async () => {
    const { default: pkcs11js } = await importWithPkcs11js(() => import('pkcs11js'));
    expect(typeof pkcs11js.PKCS11).toBe('function');
  });

  it('turns a package that is not installed into ERR_PKCS11_UNAVAILABLE, which says what to install and is not retried', async () => {
    const failure = await importWithPkcs11js(missingPackage).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Pkcs11UnavailableError);
    expect(failure).toMatchObject({ code: 'ERR_PKCS11_UNAVAILABLE', status: 503, retriable: false, details: { module: 'pkcs11js' } });
    expect((failure as Error).message).toContain('pkcs11js-not-installed');
    expect(new Pkcs11UnavailableError(new Error('x'), 'linux').message).toContain('apt install python3 make g++');
    expect(new Pkcs11UnavailableError(new Error('x'), 'darwin').message).toContain('xcode-select --install');
    expect(new Pkcs11UnavailableError(new Error('x'), 'win32').message).toContain('Visual Studio Build Tools');
  });

  it('lets any other failure through as it is: a fault of the station is not a missing install', async () => {
    const fault = new TypeError('a bug in the bridge');
    await expect(importWithPkcs11js(() => Promise.reject(fault))).rejects.toBe(fault);
  });
});
