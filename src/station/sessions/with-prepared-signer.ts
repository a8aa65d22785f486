import type { ExpectedSigner } from '../../core/schemas/remote-signing-api.js';
import type { SigningSessions } from './signing-sessions.js';

const ADDRESSES = ['idcode', 'phone', 'email'] as const satisfies readonly (keyof ExpectedSigner)[];

/**
 * A start-signing body that names no signer (no idcode, phone or e-mail) given the prepared document's `signer`,
 * as the hosted service does for the published client, which sends none for OTP. A body that names any address
 * is the page's choice and left as it is; so is one naming no document of the client, for the method's checks.
 */
export async function withPreparedSigner(body: unknown, sessions: Pick<SigningSessions, 'get'>): Promise<unknown> {
  if (typeof body !== 'object' || body === null) return body;
  const fields = body as Record<string, unknown>;
  if (typeof fields.client_id !== 'string' || typeof fields.doc_id !== 'string' || ADDRESSES.some((name) => fields[name] !== undefined)) return body;
  const expected = (await sessions.get(fields.client_id, fields.doc_id).catch(() => undefined))?.expectedSigner;
  if (!expected) return body;
  return { ...expected, ...fields };
}
