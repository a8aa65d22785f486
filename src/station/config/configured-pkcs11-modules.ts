import type { StationConfig } from './station-config.js';

/** Every PKCS#11 module the configuration names: `pkcs11Modules` plus the TSA token's module, if any. */
export function configuredPkcs11Modules(config: Pick<StationConfig, 'pkcs11Modules' | 'tsa'>): string[] {
  return config.tsa?.token.module ? [...config.pkcs11Modules, config.tsa.token.module] : [...config.pkcs11Modules];
}
