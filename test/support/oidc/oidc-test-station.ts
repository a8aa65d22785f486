// A station for OIDC and identity tests: real store and keychain, no tokens unless given, a scripted prompt, and simulated
// users who answer within a fraction of a second (same message sequence as the default timings).
import { startTestStation, type TestStation } from '../station/test-station.js';
import type { StationConfigInput } from '../../../src/station/config/station-config.js';
import type { StationPorts } from '../../../src/station/create-station.js';
import { ScriptedPrompt } from '../station/scripted-prompt.js';

export interface OidcTestStation extends TestStation {
  prompt: ScriptedPrompt;
}

export async function startOidcTestStation(
  options: { config?: Partial<StationConfigInput>; tuning?: StationPorts['tuning'] } = {},
  ports: Partial<StationPorts> = {},
): Promise<OidcTestStation> {
  const prompt = new ScriptedPrompt();
  const station = await startTestStation(options.config ?? {}, {
    userPrompt: prompt,
    tokenSources: [],
    tuning: { sandboxTimings: { userActionMs: 400, userTimeoutMs: 1_500 }, ...options.tuning },
    ...ports,
  });
  return Object.assign(station, { prompt });
}
