/**
 * The parts of the PKCS#11 bridge that need pkcs11js, whose native addon takes a few milliseconds to load:
 * Pkcs11TokenSource imports them when it first loads a module, so a station that never uses a token never loads it.
 */
export { Pkcs11Module } from './pkcs11-module.js';
export { Pkcs11Token } from './pkcs11-token.js';
export { isRemoval } from './pkcs11-errors.js';
