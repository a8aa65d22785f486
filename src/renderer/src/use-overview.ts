import { useCallback, useEffect, useState } from 'react';
import type { Overview, PendingPrompt } from '../../core/schemas/admin-api.js';
import { stationApi } from './station-api.js';

const POLL_MS = 1_000;

export interface StationView {
  overview?: Overview;
  prompts: PendingPrompt[];
  error?: string;
  refresh(): void;
}

/** Keeps the station's state fresh: readers, tokens and prompts change without the user doing anything. */
export function useStationView(): StationView {
  const [overview, setOverview] = useState<Overview>();
  const [prompts, setPrompts] = useState<PendingPrompt[]>([]);
  const [error, setError] = useState<string>();

  const refresh = useCallback(() => {
    Promise.all([stationApi.overview(), stationApi.prompts()])
      .then(([nextOverview, nextPrompts]) => {
        setOverview(nextOverview);
        setPrompts(nextPrompts);
        setError(undefined);
      })
      .catch((reason: unknown) => setError(reason instanceof Error ? reason.message : String(reason)));
  }, []);

  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  return { ...(overview ? { overview } : {}), prompts, ...(error ? { error } : {}), refresh };
}
