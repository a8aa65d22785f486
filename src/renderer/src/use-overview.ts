import { useCallback, useEffect, useState } from 'react';
import type { Overview, PendingPrompt } from '../../core/schemas/admin-api.js';
import type { AuditEntry } from '../../core/schemas/audit-entry.js';
import { stationApi } from './station-api.js';

const POLL_MS = 1_000;

export interface StationView {
  overview?: Overview;
  prompts: PendingPrompt[];
  audit: AuditEntry[];
  error?: string;
  refresh(): void;
}

/** Keeps the station's state fresh: readers, tokens and prompts change without the user doing anything. */
export function useStationView(): StationView {
  const [overview, setOverview] = useState<Overview>();
  const [prompts, setPrompts] = useState<PendingPrompt[]>([]);
  const [audit, setAudit] = useState<AuditEntry[]>([]);
  const [error, setError] = useState<string>();

  const refresh = useCallback(() => {
    Promise.all([stationApi.overview(), stationApi.prompts(), stationApi.audit()])
      .then(([nextOverview, nextPrompts, nextAudit]) => {
        setOverview(nextOverview);
        setPrompts(nextPrompts);
        setAudit(nextAudit);
        setError(undefined);
      })
      .catch((reason: unknown) => setError(reason instanceof Error ? reason.message : String(reason)));
  }, []);

  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  return { ...(overview ? { overview } : {}), prompts, audit, ...(error ? { error } : {}), refresh };
}
