import type { StationState } from '../../../src/core/schemas/station-state.js';

export interface StationEvents {
  /** The next pushed state that `match` accepts (earlier ones are skipped). */
  next(match: (state: StationState) => boolean): Promise<StationState>;
  close(): void;
}

/** The station window's push channel read the way the page reads it: fetch streaming, one `state` event per change. */
export async function openStationEvents(baseUrl: string, headers: Record<string, string>): Promise<StationEvents> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/admin/api/events`, { headers, signal: abort.signal });
  if (!response.ok || !response.headers.get('content-type')?.includes('text/event-stream')) throw new Error(`events answered ${response.status}`);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    async next(match) {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (/^event: state$/m.test(block) && data) {
            const state = JSON.parse(data) as StationState;
            if (match(state)) return state;
          }
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the event stream ended');
        buffer += value;
      }
    },
    close: () => abort.abort(),
  };
}
