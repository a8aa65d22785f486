import type { IdentityMethod } from '../../identity/identity-method.js';
import { escapeHtml, page } from './html.js';

export interface LoginPageModel {
  uid: string;
  clientId: string;
  /** Where the user will be sent back: shown so the user sees who asks. */
  redirectOrigin: string;
  methods: IdentityMethod[];
  error?: string;
  sandbox: boolean;
}

const INPUTS = {
  idcode: '<label>Personal identification code <input name="idcode" autocomplete="off" inputmode="numeric" required></label>',
  phone: '<label>Phone number <input name="phone" type="tel" placeholder="+372…" autocomplete="tel" required></label>',
} as const;

/** The method choice: one small form per method, each posting back to the station. */
export function renderLoginPage(model: LoginPageModel): string {
  const action = `/oidc/interaction/${encodeURIComponent(model.uid)}/start`;
  const forms = model.methods
    .map(
      (method) => `<form method="post" action="${escapeHtml(action)}" class="method" data-method="${escapeHtml(method.code)}">
<h2>${escapeHtml(method.label)}</h2>
<input type="hidden" name="method" value="${escapeHtml(method.code)}">
${method.inputs.map((input) => INPUTS[input]).join('\n')}
${method.inputs.includes('idcode') ? '<label>Country <input name="country" value="EE" maxlength="2" size="2" required></label>' : ''}
<button type="submit">Continue</button>
</form>`,
    )
    .join('\n');
  return page(
    'Log in',
    `<h1>Log in to <span class="client">${escapeHtml(model.clientId)}</span></h1>
<p class="origin">You will be sent back to <strong>${escapeHtml(model.redirectOrigin)}</strong> with your name and date of birth.</p>
${model.sandbox ? '<p class="sandbox">Sandbox: provider methods are simulators with test identities only.</p>' : ''}
${model.error ? `<p class="error" role="alert">${escapeHtml(model.error)}</p>` : ''}
${forms}
<p><a href="/oidc/interaction/${escapeHtml(encodeURIComponent(model.uid))}/abort">Cancel and go back</a></p>`,
  );
}

export interface WaitPageModel {
  uid: string;
  method: IdentityMethod;
  challenge?: string | undefined;
  qrCode?: string | undefined;
}

/** Shown while the user acts elsewhere; reloads itself (meta refresh, no script) until the result is in. */
export function renderWaitPage(model: WaitPageModel): string {
  const next = `/oidc/interaction/${encodeURIComponent(model.uid)}/wait?poll=1`;
  const instruction = model.challenge
    ? `<p>Check that your app shows this code, then confirm: <strong class="challenge" id="challenge">${escapeHtml(model.challenge)}</strong></p>`
    : model.qrCode
      ? `<p>Scan with your wallet to present your PID:</p><pre class="qr" id="qr">${escapeHtml(model.qrCode)}</pre>`
      : '<p>Follow the station’s own prompt to choose your certificate and type your PIN.</p>';
  return page(
    'Waiting for confirmation',
    `<h1>${escapeHtml(model.method.label)}</h1>
${instruction}
<p class="waiting" role="status">Waiting for confirmation…</p>
<p><a href="/oidc/interaction/${escapeHtml(encodeURIComponent(model.uid))}/abort">Cancel</a></p>`,
    `<meta http-equiv="refresh" content="1;url=${escapeHtml(next)}">`,
  );
}
