import type { FastifyReply } from 'fastify';
import { randomBytes } from 'node:crypto';

const html = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The page of a simulated remote provider (bank ID, itsme, cloud signature...): says plainly it is a sandbox, shows
 * what is asked, and offers Approve / Deny as a same-origin form; the answer then redirects to the integrator, so
 * the form may also go to that origin (CSP form-action covers redirects after a submission). A provider shown in
 * an iframe (ZealiD-type) names the one origin allowed to frame it; every other page refuses framing.
 */
export function sendProviderPage(reply: FastifyReply, page: { title: string; detail: string; action: string; returnOrigin?: string; framedBy?: string }): FastifyReply {
  const button = (decision: string, label: string): string => `<button name="decision" value="${decision}">${label}</button>`;
  // With the station's usual no-referrer, the form's POST would carry `Origin: null` and be refused: the page
  // narrows it to same-origin (the header is set for every response; the meta element updates it here).
  const body = `<!doctype html><meta charset="utf-8"><meta name="referrer" content="same-origin"><title>${html(page.title)}</title><h1>${html(page.title)}</h1><p><strong>Sandbox simulator: no real provider is involved.</strong></p><p>${html(page.detail)}</p><form method="post" action="${html(page.action)}">${button('approve', 'Approve')} ${button('deny', 'Deny')}</form>`;
  return reply
    .header('cache-control', 'no-store')
    .header('content-security-policy', `default-src 'none'; form-action 'self'${page.returnOrigin ? ` ${page.returnOrigin}` : ''}; frame-ancestors ${page.framedBy ?? "'none'"}; base-uri 'none'`)
    .type('text/html; charset=utf-8')
    .send(body);
}

/**
 * The last page of a provider shown in an iframe: instead of navigating, it posts where the provider's flow ends
 * (an address with `code` or `error`) to the framing page, at that page's origin only.
 */
export function sendFrameResultPage(reply: FastifyReply, result: { parentOrigin: string; message: string }): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  // JSON inside a script element: `<` escaped so that no value can close the element.
  const json = (value: string): string => JSON.stringify(value).replace(/</g, '\\u003c');
  const body = `<!doctype html><meta charset="utf-8"><title>Sandbox provider</title><p>Sandbox simulator: answered.</p><script nonce="${nonce}">parent.postMessage(${json(result.message)}, ${json(result.parentOrigin)});</script>`;
  return reply
    .header('cache-control', 'no-store')
    .header('content-security-policy', `default-src 'none'; script-src 'nonce-${nonce}'; frame-ancestors ${result.parentOrigin}; base-uri 'none'; form-action 'none'`)
    .type('text/html; charset=utf-8')
    .send(body);
}

/** The Approve / Deny answer of that form (`application/x-www-form-urlencoded`, parsed in the route's scope). */
export function readDecision(body: unknown): 'approve' | 'deny' {
  return new URLSearchParams(typeof body === 'string' ? body : '').get('decision') === 'approve' ? 'approve' : 'deny';
}
