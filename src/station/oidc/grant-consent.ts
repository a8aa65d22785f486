import type Provider from 'oidc-provider';
import { StationError } from '../../core/errors/station-error.js';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/**
 * The user allowed this client, on a page that names it, where the answer goes and what it receives: recorded as
 * the grant oidc-provider asks for, so the same client asking for the same scopes is not asked again in this
 * login session, and any other client is. Returns the grant's id for the interaction result.
 */
export async function grantConsent(provider: Provider, details: Interaction): Promise<string> {
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
  const accountId = details.session?.accountId;
  if (!accountId) throw new StationError('ERR_OIDC_NO_SESSION', 'The login session is gone. Start again from the application.', { status: 400 });
  const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId: String(details.params.client_id) });
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  return grant.save();
}
