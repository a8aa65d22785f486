import { expect } from 'vitest';
import type { ScriptedPrompt } from './scripted-prompt.js';

/**
 * Holds the station's next prompt of `kind` (a consent or the PIN), starts `flow`, and once that prompt is open
 * pulls the token out (`pull`). Resolves with the flow's outcome and how long after the pull it came; the held
 * prompt is let go either way.
 */
export async function pulledDuringPrompt<T>(prompt: ScriptedPrompt, kind: 'confirm' | 'pin', flow: () => Promise<T>, pull: () => Promise<void>): Promise<{ outcome: T; afterPullMs: number }> {
  const asked = () => (kind === 'pin' ? prompt.pins.length : prompt.confirms.length);
  const release = kind === 'pin' ? prompt.holdNextPin() : prompt.holdNextConfirm();
  const before = asked();
  const running = flow();
  try {
    await expect.poll(asked, { timeout: 20_000 }).toBe(before + 1);
    const pulled = performance.now();
    await pull();
    const outcome = await running;
    return { outcome, afterPullMs: performance.now() - pulled };
  } finally {
    release();
  }
}
