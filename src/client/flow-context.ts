import type { ServiceAnswer } from '../core/schemas/browser-client-wire.js';
import type { RequestSettings, Result, Settings } from './client-settings.js';
import type { ModuleRow } from './module-table.js';
import type { ModuleRun } from './module-run.js';

/** What a module's flow works with: merged settings, its table row, the method code for the country, the run. */
export interface FlowContext {
  settings: Settings;
  row: ModuleRow;
  /** The service method code for the chosen country (getAllMethods' actionType). */
  method: string;
  run: ModuleRun;
  base: string;
  call(request: RequestSettings): Promise<ServiceAnswer>;
}

export type Flow = (context: FlowContext) => Promise<Result | undefined>;

const camel = (wire: string): string => wire.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/** The row's fields as the wire names them, from the options (`country` and `lang` from the settings). */
export function bodyFields(context: FlowContext, phase: 'start' | 'complete'): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const options = context.settings as unknown as Record<string, unknown>;
  for (const field of context.row[4].split(' ').filter(Boolean)) {
    const later = field.startsWith('>');
    if (later !== (phase === 'complete')) continue;
    const wire = later ? field.slice(1) : field;
    if (wire === 'country') body.country = context.settings.countryCode;
    else if (wire === 'lang') body.lang = context.settings.language;
    else if (wire === 'wait_for_challenge_code') body.wait_for_challenge_code = context.settings.waitForChallengeCode ?? true;
    else body[wire] = options[camel(wire)];
  }
  return body;
}

/** The options a row needs from the caller: the inputs it sends, in option names. */
export function requiredInputs(row: ModuleRow): string[] {
  return row[4]
    .split(' ')
    .map((field) => field.replace('>', ''))
    .filter((field) => field && field !== 'lang' && field !== 'wait_for_challenge_code')
    .map((field) => (field === 'country' ? 'countryCode' : camel(field)));
}
