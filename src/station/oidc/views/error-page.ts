import { escapeHtml, page } from './html.js';

/** Shown when the request cannot go back to the client (unknown client, redirect_uri not registered, lost session). */
export function renderErrorPage(error: string, description: string | undefined): string {
  return page(
    'Login error',
    `<h1>Login cannot continue</h1>
<p class="error" role="alert"><code>${escapeHtml(error)}</code>${description ? `: ${escapeHtml(description)}` : ''}</p>
<p>Go back to the application and start again.</p>`,
  );
}
