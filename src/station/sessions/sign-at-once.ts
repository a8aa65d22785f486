import type { HashSigningCompleted, HashSigningService } from './hash-signing-service.js';
import type { SandboxSignerName, SandboxTestCa } from './sandbox-test-ca.js';

/**
 * A simulated provider's signature, made now: the test CA issues the signer a certificate, the digest is prepared
 * with it and signed with its key, and the signed version is stored as for any signature.
 */
export async function signAtOnce(
  deps: { service: HashSigningService; ca: SandboxTestCa },
  request: { client_id: string; doc_id: string },
  name: SandboxSignerName,
  method: string,
): Promise<HashSigningCompleted> {
  const signer = await deps.ca.issue(name);
  const started = await deps.service.startElsewhere(request, signer.certificate, method);
  const signature = await signer.sign(Buffer.from(started.hexDigest, 'hex'), started.digestAlgorithm);
  return deps.service.complete(method, { client_id: request.client_id, doc_id: request.doc_id, token: started.token, signature_value: Buffer.from(signature).toString('base64') });
}
