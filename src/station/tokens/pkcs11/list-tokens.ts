import type { TokenDescription } from '../../../core/schemas/token-description.js';
import type { TokenSource } from '../token.js';
import { TokenRegistry, type SourceProblem } from '../token-registry.js';

export interface TokenListing {
  tokens: TokenDescription[];
  /** Why an expected token may be missing (module not loaded, token not recognised) and what to do about it. */
  problems: SourceProblem[];
}

/** One look at every token of `sources` for an offline command: start, describe, stop. */
export async function listTokens(sources: TokenSource[]): Promise<TokenListing> {
  const registry = new TokenRegistry(sources);
  await registry.start();
  try {
    return await registry.describe();
  } finally {
    await registry.stop();
  }
}
