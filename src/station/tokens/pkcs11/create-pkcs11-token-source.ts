import { systemClock, type Clock } from '../../ports/clock.js';
import { resolvePkcs11Modules, type ModuleSelection } from './resolve-pkcs11-modules.js';
import { Pkcs11TokenSource } from './pkcs11-token-source.js';

export interface CreatePkcs11TokenSourceOptions extends ModuleSelection {
  clock?: Clock;
  pollIntervalMs?: number;
  reinitializeIntervalMs?: number;
  loginIdleMs?: number;
}

/** The composition root's PKCS#11 token source: known, configured and user-added modules, loaded at start. */
export function createPkcs11TokenSource(options: CreatePkcs11TokenSourceOptions = {}): Pkcs11TokenSource {
  return new Pkcs11TokenSource({
    modules: () => resolvePkcs11Modules(options),
    clock: options.clock ?? systemClock,
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
    ...(options.reinitializeIntervalMs !== undefined ? { reinitializeIntervalMs: options.reinitializeIntervalMs } : {}),
    ...(options.loginIdleMs !== undefined ? { loginIdleMs: options.loginIdleMs } : {}),
  });
}
