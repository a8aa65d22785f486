import type { TokenCertificate } from '../../core/schemas/token-description.js';
import type { HashAlgorithm } from '../pki/hash-algorithms.js';
import type { UserPrompt } from '../ports/user-prompt.js';
import type { SignatureScheme, Token } from '../tokens/token.js';
import { UserCancelledError } from '../tokens/token-errors.js';
import { signWithPinRetries } from '../tokens/sign-with-pin-retries.js';

export interface AuthenticationSignature {
  token: Token;
  certificate: TokenCertificate;
  /** The hash the key signs (a login challenge's, a Web eID token's signed data's). */
  digest: Uint8Array;
  hashAlgorithm: HashAlgorithm;
  scheme: SignatureScheme;
  /** Who asks, as the user is shown it (the client's name, a web page's origin), and the client it acts for. */
  requester: string;
  clientId: string;
}

/**
 * The authentication key's signature over `digest`, once the user agreed in the station's own prompt (which names
 * the requester and shows the digest) and gave the PIN there, asked again in place after a wrong one.
 */
export async function signAuthentication(userPrompt: UserPrompt, request: AuthenticationSignature, signal: AbortSignal): Promise<Uint8Array> {
  const { token, certificate, requester } = request;
  const agreed = await userPrompt.confirm(
    {
      purpose: 'authenticate',
      requester,
      clientId: request.clientId,
      documentDigest: Buffer.from(request.digest).toString('hex'),
      signerSubject: certificate.subject,
      signerIssuer: certificate.issuer,
      signerSerialNumber: certificate.serialNumber,
    },
    signal,
  );
  if (!agreed) throw new UserCancelledError();
  return signWithPinRetries(token, {
    certificateId: certificate.id,
    hash: request.digest,
    hashAlgorithm: request.hashAlgorithm,
    scheme: request.scheme,
    purpose: 'authenticate',
    signal,
    pin: (pinRequest) => userPrompt.askPin({ ...pinRequest, tokenLabel: token.label, requester }, signal),
  });
}
