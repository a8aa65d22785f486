import { expect } from 'vitest';
import type { ScriptedPrompt } from './scripted-prompt.js';

/**
 * Holds the station's next PIN prompt, starts `flow`, and once that prompt is open pulls the token out (`pull`).
 * Resolves with the flow's outcome and how long after the pull it came; the held prompt is let go either way.
 */
export async function pulledDuringPin<T>(prompt: ScriptedPrompt, flow: () => Promise<T>, pull: () => Promise<void>): Promise<{ outcome: T; afterPullMs: number }> {
  const release = prompt.holdNextPin();
  const asked = prompt.pins.length;
  const running = flow();
  try {
    await expect.poll(() => prompt.pins.length, { timeout: 20_000 }).toBe(asked + 1);
    const pulled = performance.now();
    await pull();
    const outcome = await running;
    return { outcome, afterPullMs: performance.now() - pulled };
  } finally {
    release();
  }
}
