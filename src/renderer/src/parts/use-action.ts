import { useState } from 'react';

export interface Action<T> {
  busy: boolean;
  result: T | undefined;
  /** The error itself (its code), put in words when shown. */
  error: unknown;
  /** Runs `work`, clearing the last result and error first; one outcome is kept, the other left empty. */
  run(work: () => Promise<T>): Promise<void>;
}

/** One user action against the station (timestamp a file, identify): its progress, its result, or its error. */
export function useAction<T>(): Action<T> {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<T>();
  const [error, setError] = useState<unknown>();
  return {
    busy,
    result,
    error,
    run: async (work) => {
      setBusy(true);
      setError(undefined);
      setResult(undefined);
      try {
        setResult(await work());
      } catch (reason) {
        setError(reason);
      } finally {
        setBusy(false);
      }
    },
  };
}
