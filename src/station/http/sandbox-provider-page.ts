import type { FastifyReply } from 'fastify';

const html = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The page of a simulated remote provider (bank ID, itsme, cloud signature...): says plainly it is a sandbox, shows
 * what is asked, and offers Approve / Deny as a same-origin form; the answer then redirects to the integrator, so
 * the form may also go to that origin (CSP form-action covers redirects after a submission).
 */
export function sendProviderPage(reply: FastifyReply, page: { title: string; detail: string; action: string; returnOrigin: string }): FastifyReply {
  const button = (decision: string, label: string): string => `<button name="decision" value="${decision}">${label}</button>`;
  // With the station's usual no-referrer, the form's POST would carry `Origin: null` and be refused: the page
  // narrows it to same-origin (the header is set for every response; the meta element updates it here).
  const body = `<!doctype html><meta charset="utf-8"><meta name="referrer" content="same-origin"><title>${html(page.title)}</title><h1>${html(page.title)}</h1><p><strong>Sandbox simulator: no real provider is involved.</strong></p><p>${html(page.detail)}</p><form method="post" action="${html(page.action)}">${button('approve', 'Approve')} ${button('deny', 'Deny')}</form>`;
  return reply
    .header('cache-control', 'no-store')
    .header('content-security-policy', `default-src 'none'; form-action 'self' ${page.returnOrigin}; frame-ancestors 'none'; base-uri 'none'`)
    .type('text/html; charset=utf-8')
    .send(body);
}

/** The Approve / Deny answer of that form (`application/x-www-form-urlencoded`, parsed in the route's scope). */
export function readDecision(body: unknown): 'approve' | 'deny' {
  return new URLSearchParams(typeof body === 'string' ? body : '').get('decision') === 'approve' ? 'approve' : 'deny';
}
