/**
 * `work`, or a rejection with `signal`'s reason as soon as it aborts: a prompt ends for its caller when the
 * request is withdrawn, even if the prompt itself does not listen to the signal.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const aborted = (): void => reject(signal.reason);
    if (signal.aborted) return aborted();
    signal.addEventListener('abort', aborted, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', aborted));
  });
}
