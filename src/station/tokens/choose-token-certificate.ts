import type { CertificateChoiceRequest } from '../../core/schemas/prompts.js';
import type { TokenCertificate } from '../../core/schemas/token-description.js';
import type { UserPrompt } from '../ports/user-prompt.js';
import type { Token } from './token.js';
import { UserCancelledError } from './token-errors.js';

/** A certificate on a connected token, with the token that holds its key. */
export interface TokenCertificateCandidate {
  token: Token;
  certificate: TokenCertificate;
}

/**
 * The one candidate there is, or the one the user picks in the station's own prompt (never the requester's page):
 * a cancelled choice is a UserCancelledError.
 */
export async function chooseTokenCertificate<Candidate extends TokenCertificateCandidate>(
  userPrompt: UserPrompt,
  choice: Pick<CertificateChoiceRequest, 'requester' | 'purpose'>,
  candidates: readonly Candidate[],
  signal?: AbortSignal,
): Promise<Candidate> {
  if (candidates.length === 1) return candidates[0]!;
  const index = await userPrompt.chooseCertificate(
    {
      ...choice,
      candidates: candidates.map(({ token, certificate }) => ({
        tokenId: token.id,
        certificateId: certificate.id,
        subject: certificate.subject,
        issuer: certificate.issuer,
        notAfter: certificate.notAfter,
      })),
    },
    signal,
  );
  const chosen = index === null ? undefined : candidates[index];
  if (!chosen) throw new UserCancelledError();
  return chosen;
}
