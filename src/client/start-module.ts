import type { MethodDescription } from '../core/schemas/browser-client-wire.js';
import { ClientError } from './client-error.js';
import { validateSettings, type ClientSettings, type Settings, type StartOptions } from './client-settings.js';
import { requiredInputs, type Flow } from './flow-context.js';
import type { ModuleRow } from './module-table.js';
import { ModuleRun } from './module-run.js';
import { callService } from './transport.js';
import { DEFAULT_BASE_URL } from './default-base-url.js';

export interface Controls {
  cancel(): void;
  refresh(): void;
}

export interface ModuleSpec {
  kind: 'identification' | 'signature';
  row: ModuleRow;
  flow: Flow;
  methods: readonly MethodDescription[];
}

/** Settings each kind of flow cannot do without, beyond the row's own inputs. */
const REQUIRED_BY_FLOW: Readonly<Record<string, readonly string[]>> = {
  'identification:poll': ['apiEndpoints'],
  'identification:card': ['apiEndpoints'],
  'identification:webEid': ['apiEndpoints', 'iframeHolder'],
  'identification:wallet': ['apiEndpoints', 'countryCode', 'iframeHolder'],
  'identification:zealid': ['apiEndpoints', 'countryCode', 'iframeHolder'],
  'identification:oauth': ['redirectUri'],
  'signature:iframe': ['docId', 'countryCode', 'iframeHolder'],
};

/**
 * `start(options)` of every module: merges client settings and options, validates them (throwing the published
 * client's messages), runs the flow, then `success(result)` or `fail(error)`, and always `finished()`.
 */
export function startModule(spec: ModuleSpec, clientSettings: ClientSettings, options: StartOptions = {}): Controls {
  const settings: Settings = { ...clientSettings, ...options, apiEndpoints: { ...clientSettings.apiEndpoints, ...options.apiEndpoints } };
  const flow = spec.row[1];
  const kindRequired = REQUIRED_BY_FLOW[`${spec.kind}:${flow}`] ?? (spec.kind === 'signature' ? ['docId'] : []);
  validateSettings(settings, ['clientId', ...kindRequired, ...requiredInputs(spec.row)]);
  const run = new ModuleRun();
  void (async () => {
    try {
      const method = methodFor(spec, settings.countryCode);
      const base = settings.apiEndpoints?.base?.() ?? DEFAULT_BASE_URL;
      const result = await spec.flow({ settings, row: spec.row, method, run, base, call: (request) => callService(settings, request, run.signal) });
      settings.success?.(result);
    } catch (error) {
      const failure = error instanceof ClientError ? error : new ClientError('ERR_CLIENT_FAILED', error instanceof Error ? error.message : String(error));
      settings.fail?.(failure.forPerson(settings.language));
    } finally {
      // Whatever the flow left waiting (the helper frame's request, a poll) ends with it.
      run.cancel();
      settings.finished?.();
    }
  })();
  return { cancel: () => run.cancel(), refresh: () => run.refresh() };
}

/** The method code for the country; signature modules refuse a country they do not serve, as the published one. */
function methodFor(spec: ModuleSpec, country: string | undefined): string {
  const candidates = spec.methods.filter((method) => method.handlingModule === spec.row[0]);
  const match = candidates.find((method) => country !== undefined && (method.supportedCountries.includes(country) || method.supportedCountries.includes('WORLD')));
  if (match) return match.actionType;
  if (spec.kind === 'signature' && country !== undefined) {
    throw new ClientError('ERR_CLIENT_COUNTRY_NOT_SUPPORTED', `Country "${country}" is not supported for signature module "${spec.row[0]}".`);
  }
  return candidates[0]?.actionType ?? spec.row[2];
}
