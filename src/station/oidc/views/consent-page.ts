import { escapeHtml, page } from './html.js';

export interface ConsentPageModel {
  uid: string;
  clientId: string;
  /** Where the answer goes: the relying party's real origin, from its registered redirect URI. */
  redirectOrigin: string;
  /** The scopes this relying party asks for and has not been given yet. */
  scopes: readonly string[];
}

/** What each scope hands over, in the words the user reads before agreeing. */
const SCOPE_DESCRIPTIONS: Record<string, string> = {
  openid: 'an identifier for you (your personal code with its country)',
  profile: 'your name and date of birth',
  pid: 'government-verified identity data, when you log in with an identity wallet',
};

/**
 * Asked once per relying party and set of scopes: a login made for one application never hands the person's
 * identity to another without this page. No script; the answer is a form post back to the station.
 */
export function renderConsentPage(model: ConsentPageModel): string {
  const action = `/oidc/interaction/${encodeURIComponent(model.uid)}/consent`;
  const items = model.scopes.map((scope) => `<li data-scope="${escapeHtml(scope)}">${escapeHtml(SCOPE_DESCRIPTIONS[scope] ?? scope)}</li>`).join('\n');
  return page(
    'Share your identity?',
    `<h1><span class="client">${escapeHtml(model.clientId)}</span> asks for your identity</h1>
<p class="origin">If you allow it, <strong>${escapeHtml(model.redirectOrigin)}</strong> receives:</p>
<ul class="claims">
${items}
</ul>
<form method="post" action="${escapeHtml(action)}" class="consent">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

/**
 * After the consent form: the browser continues by refreshing, not by following the form's redirect, because the
 * pages' CSP (`form-action 'self'`) rightly stops a form submission from ending at another origin.
 */
export function renderContinuePage(next: string): string {
  return page('Continuing', `<p role="status">Continuing…</p>\n<p><a href="${escapeHtml(next)}">Continue</a></p>`, `<meta http-equiv="refresh" content="0;url=${escapeHtml(next)}">`);
}
