import { randomBytes } from 'node:crypto';
import type { StationMode } from '../../core/schemas/station-mode.js';
import { remoteSigningStartSchema } from '../../core/schemas/remote-signing-api.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { NotFoundError } from '../../core/errors/not-found-error.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import { REDIRECT_PROVIDER_IDENTITY } from '../identity/sandbox-identities.js';
import { parseZod } from '../validation/parse-zod.js';
import type { HashSigningService } from './hash-signing-service.js';
import { REDIRECT_SIGNING_METHODS } from './redirect-signing-methods.js';
import type { SandboxTestCa } from './sandbox-test-ca.js';
import { assertSandboxSigning } from './sandbox-signing-mode.js';
import type { SigningMethod } from './signing-method.js';
import { signAtOnce } from './sign-at-once.js';

interface Visit {
  clientId: string;
  docId: string;
  method: string;
  returnTo: string;
}

export interface RedirectSigningDeps {
  service: HashSigningService;
  ca: SandboxTestCa;
  clients: Pick<ClientRegistry, 'find'>;
  mode: () => StationMode;
  baseUrl: () => string;
}

const VISIT_LIFETIME_MS = 10 * 60_000;

/**
 * Redirect-based signing (bank IDs, cloud signatures, ...), simulated: start-signing answers the provider page's
 * address as `redirect_uri`; there Approve signs as the sandbox redirect person with the test CA and Deny does not,
 * and both go back to the client's first registered redirect URI with `doc_id` and `status=OK` or `error`.
 */
export class RedirectSigningSimulator {
  readonly #deps: RedirectSigningDeps;
  readonly #visits = new Map<string, Visit>();

  constructor(deps: RedirectSigningDeps) {
    this.#deps = deps;
  }

  method(): SigningMethod {
    return {
      signTypes: REDIRECT_SIGNING_METHODS,
      completePaths: [],
      start: async (body) => {
        const request = parseZod(remoteSigningStartSchema, body, 'Invalid start-signing request');
        return { status: 'OK', redirect_uri: await this.open(request.client_id, request.doc_id, request.sign_type) };
      },
      complete: async () => {
        throw new NotFoundError('ERR_SIGNING_METHOD_UNKNOWN', 'Redirect-based signing completes on the provider page.');
      },
    };
  }

  /**
   * A visit of the provider page for this document and method, for start-signing and for methods the browser client
   * navigates to directly (ZealiD's signature start); answers the page's address.
   */
  async open(clientId: string, docId: string, method: string): Promise<string> {
    assertSandboxSigning(this.#deps.mode, method);
    const returnTo = (await this.#deps.clients.find(clientId))?.redirectUris[0];
    if (!returnTo) throw new InvalidInputError('Redirect-based signing returns to the client’s redirect URI; register one (clients add --redirect-uri).', { client_id: ['has no redirect URI'] });
    const id = randomBytes(24).toString('base64url');
    this.#visits.set(id, { clientId, docId, method, returnTo });
    setTimeout(() => this.#visits.delete(id), VISIT_LIFETIME_MS).unref();
    return `${this.#deps.baseUrl()}/sandbox/provider/sign/${id}`;
  }

  /** What the provider page shows, or throws when the visit is unknown or answered. */
  visit(id: string): Visit {
    const visit = this.#visits.get(id);
    if (!visit) throw new NotFoundError('ERR_SIGNING_SESSION_NOT_FOUND', 'This provider page has expired or was answered already.');
    return visit;
  }

  /** Approve signs the document; either way the answer is where to send the user back to. */
  async decide(id: string, approved: boolean): Promise<string> {
    const visit = this.visit(id);
    this.#visits.delete(id);
    const back = new URL(visit.returnTo);
    back.searchParams.set('doc_id', visit.docId);
    if (!approved) {
      back.searchParams.set('error', 'access_denied');
      return back.toString();
    }
    await signAtOnce(this.#deps, { client_id: visit.clientId, doc_id: visit.docId }, REDIRECT_PROVIDER_IDENTITY.person, visit.method);
    back.searchParams.set('status', 'OK');
    return back.toString();
  }
}
