import type { MethodDescription } from '../core/schemas/browser-client-wire.js';
import { validateSettings, type ClientSettings, type StartOptions } from './client-settings.js';
import type { Flow } from './flow-context.js';
import { IDENTIFICATION_FLOWS } from './identification-flows.js';
import { IDENTIFICATION_MODULES, METHODS, SIGNATURE_MODULES, type ModuleRow } from './module-table.js';
import { SIGNATURE_FLOWS } from './signature-flows.js';
import { startModule, type Controls } from './start-module.js';

export interface Module {
  start(options?: StartOptions): Controls;
}

export interface Client {
  identification: Readonly<Record<string, Module>>;
  signature: Readonly<Record<string, Module>>;
  getAllMethods(): { identification: MethodDescription[]; signature: MethodDescription[] };
  setLanguage(language: string): void;
  setCountryCode(countryCode: string): void;
  getCountryCode(): string | undefined;
}

const describe = (kind: 'i' | 's'): MethodDescription[] =>
  METHODS.filter((row) => row[0] === kind).map(([, handlingModule, actionType, countries]) => ({ actionType, handlingModule, supportedCountries: countries.split(' ') }));

/**
 * `window.serviceBrowserClient.createClient(settings)`: a frozen client whose modules carry the published client's
 * keys (module-table.ts), so an integrator swaps the script tag and keeps their code.
 */
export function createClient(settings: ClientSettings): Client {
  validateSettings(settings, ['clientId']);
  const current: ClientSettings = { language: 'en', sandbox: false, ...settings };
  const modules = (kind: 'identification' | 'signature', rows: readonly ModuleRow[], flows: Partial<Record<string, Flow>>) => {
    const methods = describe(kind === 'identification' ? 'i' : 's');
    return Object.freeze(
      Object.fromEntries(rows.map((row) => [row[0], Object.freeze({ start: (options?: StartOptions) => startModule({ kind, row, flow: flows[row[1]]!, methods }, current, options) })])),
    );
  };
  return Object.freeze({
    identification: modules('identification', IDENTIFICATION_MODULES, IDENTIFICATION_FLOWS),
    signature: modules('signature', SIGNATURE_MODULES, SIGNATURE_FLOWS),
    getAllMethods: () => ({ identification: describe('i'), signature: describe('s') }),
    setLanguage: (language: string) => void (current.language = language),
    setCountryCode: (countryCode: string) => void (current.countryCode = countryCode),
    getCountryCode: () => current.countryCode,
  });
}
