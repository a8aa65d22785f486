import { Pkcs11UnavailableError } from './pkcs11-unavailable-error.js';

/** How Node says a module or its native binary is not there (ESM import, CommonJS require, dlopen). */
const NOT_LOADABLE = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND', 'ERR_DLOPEN_FAILED']);

/**
 * Imports code that needs pkcs11js (the package itself, or a module that imports it). pkcs11js is an optional
 * dependency: where it was not built, the import fails as a Pkcs11UnavailableError that says what to install. Any
 * other failure is a fault of the station and passes through as it is.
 */
export async function importWithPkcs11js<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (NOT_LOADABLE.has((error as NodeJS.ErrnoException).code ?? '')) throw new Pkcs11UnavailableError(error);
    throw error;
  }
}
