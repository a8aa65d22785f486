import type { FrameTicket } from './frame-tickets.js';

const ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** What the page script reads from its own document (a JSON data block, never executed). */
export interface IframePageData {
  ticket: string;
  method: string;
  allowedOrigins: readonly string[];
}

/**
 * The framed page. `frame-ancestors` lists the client's origins only, so the browser itself refuses any other
 * embedder; the script (served from the station, CSP script-src 'self') checks the embedder again in the page.
 */
export function iframePageCsp(frame: FrameTicket): string {
  const ancestors = frame.allowedOrigins.length ? frame.allowedOrigins.join(' ') : "'none'";
  return `default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; frame-ancestors ${ancestors}; base-uri 'none'; form-action 'none'`;
}

export function renderIframePage(frame: FrameTicket): string {
  const data: IframePageData = { ticket: frame.ticket, method: frame.method, allowedOrigins: frame.allowedOrigins };
  const json = JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (character) => ESCAPES[character]!);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Signing Station</title>
<link rel="stylesheet" href="/web-element/assets/iframe-helper.css">
<script type="application/json" id="frame-data">${json}</script>
<script src="/web-element/assets/iframe-helper.js" defer></script>
</head>
<body>
<main>
<h1 id="title" class="visually-hidden">Signing Station</h1>
<p id="status" role="status">Signing Station is ready.</p>
</main>
</body>
</html>
`;
}
