import { useEffect, useState } from 'react';
import type { StationState } from '../../../core/schemas/station-state.js';
import { forgetUiCredential, LinkProblem, uiCredential } from '../ui-credential.js';
import { readEventStream } from './read-event-stream.js';

export interface StationView {
  state?: StationState;
  /** The stream dropped (station restarting, network namespace gone): shown until it is back. */
  reconnecting: boolean;
  linkProblem?: LinkProblem['kind'];
}

const RETRY_MS = [250, 500, 1000, 2000, 5000];

/**
 * The station's state as the station pushes it (GET /admin/api/events): tokens and readers plugged in and out,
 * prompts, clients, modules and the log, whoever changed them (this window or the CLI). Nothing is polled; when
 * the stream drops, it is opened again.
 */
export function useStationState(): StationView {
  const [view, setView] = useState<StationView>({ reconnecting: false });
  // A new launch link pasted into this tab changes only the fragment (no reload): it is redeemed, and the stream opened with it.
  const [link, setLink] = useState(0);
  useEffect(() => {
    const onHashChange = (): void => {
      if (!new URLSearchParams(window.location.hash.slice(1)).has('launch')) return;
      forgetUiCredential();
      setLink((count) => count + 1);
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  useEffect(() => {
    const abort = new AbortController();
    let attempt = 0;
    const connect = async (): Promise<void> => {
      while (!abort.signal.aborted) {
        try {
          const credential = await uiCredential();
          const response = await fetch('/admin/api/events', { headers: { authorization: `Bearer ${credential}` }, credentials: 'omit', signal: abort.signal });
          if (response.status === 401) {
            forgetUiCredential();
            throw new LinkProblem('used');
          }
          if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
          await readEventStream(response.body, (event, data) => {
            if (event !== 'state') return;
            attempt = 0;
            setView({ state: JSON.parse(data) as StationState, reconnecting: false });
          });
        } catch (error) {
          if (abort.signal.aborted) return;
          if (error instanceof LinkProblem) {
            setView({ reconnecting: false, linkProblem: error.kind });
            return;
          }
        }
        setView((previous) => ({ ...previous, reconnecting: true }));
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]));
      }
    };
    void connect();
    return () => abort.abort();
  }, [link]);

  return view;
}
