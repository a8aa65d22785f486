import * as z from 'zod';
import { StationError } from '../../core/errors/station-error.js';
import { parseZod } from '../validation/parse-zod.js';
import type { IdentityService } from '../identity/identity-service.js';
import type { OidcAccounts } from './oidc-accounts.js';
import type { WaitPageModel } from './views/login-page.js';

/** One oidc-provider interaction as the login decisions need it: no request, no provider. */
export interface LoginInteraction {
  uid: string;
  clientId: string;
  /** Who asks, as the station's prompts show it: the client and the origin its answer goes to. */
  requester: string;
}

export interface LoginInteractionServiceDeps {
  identity: IdentityService;
  accounts: Pick<OidcAccounts, 'save'>;
  /** How long a started login waits for its completion before it is dropped (the provider's interaction lifetime). */
  interactionSeconds: number;
}

/** The login oidc-provider is told about once the person is identified. */
export interface CompletedLogin {
  accountId: string;
  amr: string[];
}

const startFormSchema = z.object({
  method: z.string().min(1).max(64),
  idcode: z.string().trim().max(64).optional(),
  phone: z.string().trim().max(20).optional(),
  country: z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/).optional(),
});
export type LoginStartForm = z.infer<typeof startFormSchema>;

const consentFormSchema = z.object({ decision: z.enum(['allow', 'deny']) });

interface PendingLogin {
  view: WaitPageModel;
  clientId: string;
  token: string;
  expiry: NodeJS.Timeout;
}

/** The start form of the login page, validated (an InvalidInputError otherwise). */
export function parseLoginStartForm(body: unknown): LoginStartForm {
  return parseZod(startFormSchema, body, 'Invalid login form');
}

/** Whether the user allowed sharing their identity, from the consent form. */
export function parseConsentDecision(body: unknown): 'allow' | 'deny' {
  return parseZod(consentFormSchema, body, 'Invalid consent form').decision;
}

/**
 * The decisions of the station's login pages, without HTTP: which method starts, the one identification each
 * interaction has running, whether it is done, and forgetting it (completed, failed, cancelled or expired).
 */
export class LoginInteractionService {
  readonly #deps: LoginInteractionServiceDeps;
  readonly #pending = new Map<string, PendingLogin>();

  constructor(deps: LoginInteractionServiceDeps) {
    this.#deps = deps;
  }

  /** Starts the chosen identification for this interaction, replacing one it had running. */
  async start(interaction: LoginInteraction, form: LoginStartForm): Promise<void> {
    const method = this.#deps.identity.available().find((candidate) => candidate.code === form.method);
    if (!method) throw new StationError('ERR_IDENTITY_METHOD_UNKNOWN', 'This identification method is not available.', { status: 400 });
    const started = await this.#deps.identity.start(
      method.code,
      { idcode: form.idcode, phone: form.phone, country: form.country },
      { clientId: interaction.clientId, requester: interaction.requester },
    );
    this.forget(interaction.uid);
    const expiry = setTimeout(() => this.forget(interaction.uid), this.#deps.interactionSeconds * 1000);
    expiry.unref();
    const view = { uid: interaction.uid, method, challenge: started.challenge, qrCode: started.qr_code };
    this.#pending.set(interaction.uid, { view, clientId: interaction.clientId, token: started.token, expiry });
  }

  /** What the wait page shows for this interaction, or undefined when it has no identification running. */
  waiting(uid: string): WaitPageModel | undefined {
    return this.#pending.get(uid)?.view;
  }

  /**
   * Waits up to `waitSeconds` for the running identification: RUNNING, or the completed login (its account saved).
   * A failed identification is forgotten and its error thrown.
   */
  async complete(uid: string, waitSeconds: number): Promise<CompletedLogin | 'RUNNING'> {
    const login = this.#pending.get(uid);
    if (!login) throw new StationError('ERR_IDENTITY_SESSION_NOT_FOUND', 'This login has no identification running. Choose a method again.', { status: 404 });
    let result;
    try {
      result = await this.#deps.identity.complete(login.view.method.code, login.token, login.clientId, waitSeconds);
    } catch (error) {
      this.forget(uid);
      throw error;
    }
    if (result === 'RUNNING') return result;
    this.forget(uid);
    return { accountId: await this.#deps.accounts.save(result), amr: [result.current_login_method] };
  }

  /** Drops the interaction's running identification, if any (the user cancelled, or it ended). */
  forget(uid: string): void {
    const login = this.#pending.get(uid);
    if (!login) return;
    clearTimeout(login.expiry);
    this.#deps.identity.cancel(login.token);
    this.#pending.delete(uid);
  }
}
