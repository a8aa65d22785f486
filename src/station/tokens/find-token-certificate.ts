import { NotFoundError } from '../../core/errors/not-found-error.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import type { TokenCertificate } from '../../core/schemas/token-description.js';
import type { Token } from './token.js';

/**
 * The token a user names (its id, or its label when that is unique) and one of its certificates (id as `tokens
 * list` shows it, any case): what the CLI's `--token` and `--cert` select.
 */
export async function findTokenCertificate(tokens: Token[], wantedToken: string, certificateId: string): Promise<{ token: Token; certificate: TokenCertificate }> {
  const token = findToken(tokens, wantedToken);
  const certificate = (await token.listCertificates()).find((c) => c.id === certificateId.toLowerCase());
  if (!certificate) {
    throw new NotFoundError('ERR_TOKEN_CERTIFICATE_NOT_FOUND', `${token.label} has no certificate ${certificateId}; \`tokens list\` shows the ids.`);
  }
  return { token, certificate };
}

function findToken(tokens: Token[], wanted: string): Token {
  const byId = tokens.find((token) => token.id === wanted);
  if (byId) return byId;
  const byLabel = tokens.filter((token) => token.label === wanted);
  if (byLabel.length === 1) return byLabel[0]!;
  if (byLabel.length > 1) {
    throw new InvalidInputError(`Several tokens are labelled ${wanted}; give one of their ids: ${byLabel.map((t) => t.id).join(', ')}.`);
  }
  const known = tokens.map((token) => `${token.label} (${token.id})`).join(', ') || 'none';
  throw new NotFoundError(
    'ERR_TOKEN_NOT_FOUND',
    `No token ${wanted}. Tokens present: ${known}. If yours needs its vendor's PKCS#11 module, add it with \`signing-station tokens modules add PATH\`.`,
  );
}
