import { CONTENT_SIGNING_METHOD, completeSigningRequestSchema, hashSigningMethods, startSigningRequestSchema } from '../../core/schemas/hash-signing-api.js';
import { parseZod } from '../validation/parse-zod.js';
import type { HashSigningCompleted, HashSigningService } from './hash-signing-service.js';
import type { SigningMethod } from './signing-method.js';

/**
 * The hash-based methods (ID card, USB token, certificate store) as the browser-facing endpoints see them. The
 * AutoFirma-type method's client hands the iframe `fileContent` instead of the digest: start answers the digest as
 * that content too, so the helper still signs only what the station prepared.
 */
export function hashSigningMethod(service: HashSigningService): SigningMethod {
  return {
    signTypes: hashSigningMethods,
    completePaths: hashSigningMethods,
    async start(body, context) {
      const request = parseZod(startSigningRequestSchema, body, 'Invalid start-signing request');
      const started = await service.start(request, context);
      return {
        status: 'OK',
        token: started.token,
        hexDigest: started.hexDigest,
        digest_algorithm: started.digestAlgorithm,
        ...(started.signedInfoDigests ? { signedInfoDigests: started.signedInfoDigests } : {}),
        ...(request.sign_type === CONTENT_SIGNING_METHOD ? { fileContent: Buffer.from(started.hexDigest, 'hex').toString('base64') } : {}),
      };
    },
    async complete(method, body, context) {
      const request = parseZod(completeSigningRequestSchema, body, 'Invalid complete request');
      return completedAnswer(await service.complete(method, request, context));
    },
  };
}

/** What complete answers once the signed version is stored, whichever way the signature was made. */
export function completedAnswer(completed: HashSigningCompleted): Record<string, unknown> {
  return {
    status: 'OK',
    signing_session_status: 'SIGNED',
    signer_idcode: completed.idcode,
    signer_firstname: completed.firstname,
    signer_lastname: completed.lastname,
    signer_country: completed.country,
    signed_file_sha256: completed.signedFileSha256,
  };
}
