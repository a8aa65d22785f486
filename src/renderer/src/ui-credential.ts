import type { UiSession } from '../../core/schemas/admin-api.js';

const STORAGE_KEY = 'station-ui-credential';

/** The page was opened without a usable launch link: the window explains how to get a new one. */
export class LinkProblem extends Error {
  constructor(readonly kind: 'missing' | 'used') {
    super(kind === 'missing' ? 'no launch link' : 'launch link already used or expired');
    this.name = 'LinkProblem';
  }
}

let pending: Promise<string> | undefined;

/**
 * The credential every /admin/api call sends. In Electron the preload hands it over; in a browser the page
 * redeems the one-time `#launch=` token of the station's link once and keeps the answer in sessionStorage, which
 * belongs to this exact origin (port included), so pages on other local ports cannot read it.
 */
export function uiCredential(): Promise<string> {
  pending ??= obtain().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

/** Drops a credential the station no longer accepts (restarted, expired). */
export function forgetUiCredential(): void {
  pending = undefined;
  sessionStorage.removeItem(STORAGE_KEY);
}

async function obtain(): Promise<string> {
  if (window.stationShell) {
    const answer = await window.stationShell.uiCredential();
    if (!answer.ok) throw new Error(answer.error.message);
    return answer.value;
  }
  const launchToken = new URLSearchParams(window.location.hash.slice(1)).get('launch');
  if (launchToken) {
    window.history.replaceState(null, '', window.location.pathname);
    const response = await fetch('/admin/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ launchToken }),
    });
    if (!response.ok) throw new LinkProblem('used');
    // The station's own answer over its own origin: the shape is the station's contract (uiSessionSchema).
    const { credential } = (await response.json()) as UiSession;
    sessionStorage.setItem(STORAGE_KEY, credential);
    return credential;
  }
  const stored = sessionStorage.getItem(STORAGE_KEY);
  if (stored) return stored;
  throw new LinkProblem('missing');
}
