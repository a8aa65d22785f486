import { CardProcess, type CardHostOptions } from '../../cards/card-process.js';
import { startPcscd, waitUntilNoCard } from './pcsc-test-env.js';

export interface CardBehindPcscd {
  /** The emulated card, not yet inserted. */
  card: CardProcess;
  /** Ends the card, waits until pcscd has seen it go, then stops pcscd. */
  stop(): Promise<void>;
}

/** The real pcscd and one emulated card host for it: the set-up of every file that drives a card end to end. */
export async function startCardBehindPcscd(options: CardHostOptions): Promise<CardBehindPcscd> {
  const daemon = await startPcscd();
  try {
    const card = await CardProcess.start(options);
    return {
      card,
      stop: async () => {
        await card.stop();
        await waitUntilNoCard().catch(() => undefined);
        await daemon.stop();
      },
    };
  } catch (error) {
    await daemon.stop();
    throw error;
  }
}
