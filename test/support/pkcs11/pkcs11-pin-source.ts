import type { PinSource } from '../../../src/station/tokens/token.js';

export interface ScriptedPinSource {
  source: PinSource;
  /** Every request the token made, in order. */
  requests: Array<Parameters<PinSource>[0]>;
  /** Every buffer handed out, to check that the token zeroed them. */
  handedOut: Uint8Array[];
}

/** Answers PIN requests from a script (a string per request, null to cancel); fails the test when it runs out. */
export function scriptedPins(...answers: Array<string | null>): ScriptedPinSource {
  const requests: ScriptedPinSource['requests'] = [];
  const handedOut: Uint8Array[] = [];
  const source: PinSource = async (request) => {
    requests.push(request);
    if (answers.length === 0) throw new Error(`Unexpected PIN request #${requests.length} (${request.pinLabel})`);
    const answer = answers.shift();
    if (answer === null || answer === undefined) return null;
    const pin = new TextEncoder().encode(answer);
    handedOut.push(pin);
    return pin;
  };
  return { source, requests, handedOut };
}
