import type { TokenDescription } from '../../../core/schemas/token-description.js';
import type { TokenSource } from '../token.js';
import { TokenRegistry, type SourceProblem } from '../token-registry.js';

export interface TokenListing {
  tokens: TokenDescription[];
  problems: SourceProblem[];
}

/** A source that can say what it could not do (a module that did not load, a token no module recognises). */
export interface ProblemView {
  problems(): SourceProblem[];
}

export function hasProblems(source: TokenSource): source is TokenSource & ProblemView {
  return typeof (source as Partial<ProblemView>).problems === 'function';
}

/**
 * One look at every token of `sources` for an offline command: start, describe, stop. Problems say why an
 * expected token may be missing and what to do about it.
 */
export async function listTokens(sources: TokenSource[]): Promise<TokenListing> {
  const registry = new TokenRegistry(sources);
  await registry.start();
  try {
    const { tokens, problems } = await registry.describe();
    return { tokens, problems: [...problems, ...sources.filter(hasProblems).flatMap((source) => source.problems())] };
  } finally {
    await registry.stop();
  }
}
