const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A value placed in HTML text or a quoted attribute: every character that could end either is escaped. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

/** Pages of the login flow: no script at all, styles from the station only, forms post back to the station. */
export const LOGIN_PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * Pages of the login flow. The station's headers say `Referrer-Policy: no-referrer`, under which Chromium sends
 * `Origin: null` with a form post and the Origin guard refuses it; the meta element relaxes that to same-origin
 * for these pages only, so the station's own form posts carry the station's origin and nothing leaks elsewhere.
 */
export function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)} · Signing Station</title>
<link rel="stylesheet" href="/oidc/assets/login.css">
${head}
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
