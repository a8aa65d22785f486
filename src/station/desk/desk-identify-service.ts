import type { DeskIdentifyCompleteRequest, DeskIdentifyMethod, DeskIdentifyRequest, DeskIdentifyStarted } from '../../core/schemas/desk-api.js';
import type { IdentifiedPerson } from '../../core/schemas/identity-api.js';
import { DESK_CLIENT_ID, STATION_NAME } from '../../core/constants.js';
import type { IdentityService } from '../identity/identity-service.js';

/** How long one complete call waits for the person before asking again. */
const POLL_WAIT_SECONDS = 10;

/**
 * Identification tried from the station window: the same methods and sessions the identity API and the OIDC
 * login page use, started for the station's own client, and waited on until the person has acted (consent and
 * PIN in the station's prompt, or a simulated phone) or the identification lapses.
 */
export class DeskIdentifyService {
  readonly #identity: IdentityService;

  constructor(identity: IdentityService) {
    this.#identity = identity;
  }

  methods(): DeskIdentifyMethod[] {
    return this.#identity.available().map(({ code, label, inputs }) => ({ code, label, inputs: [...inputs] }));
  }

  /** Starts it, and says what the person must compare (Smart-ID's and Mobile-ID's verification code) and until when. */
  async start(request: DeskIdentifyRequest): Promise<DeskIdentifyStarted> {
    const { method, ...fields } = request;
    const { token, challenge } = await this.#identity.start(method, fields, { clientId: DESK_CLIENT_ID, requester: `${STATION_NAME} window` });
    return { token, ...(challenge ? { challenge } : {}), expiresAt: new Date(Date.now() + this.#identity.sessionLifetimeMs).toISOString() };
  }

  async complete({ method, token }: DeskIdentifyCompleteRequest): Promise<IdentifiedPerson> {
    for (;;) {
      const outcome = await this.#identity.complete(method, token, DESK_CLIENT_ID, POLL_WAIT_SECONDS);
      if (outcome !== 'RUNNING') return outcome;
    }
  }
}
