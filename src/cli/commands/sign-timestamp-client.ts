import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import type { StationData } from '../../station/open-station-data.js';
import { systemClock } from '../../station/ports/clock.js';
import { EmbeddedTimestampClient } from '../../station/tsa/embedded-timestamp-client.js';
import { HttpTimestampClient } from '../../station/tsa/http-timestamp-client.js';
import { TimestampAuthority } from '../../station/tsa/timestamp-authority.js';
import type { TimestampClient } from '../../station/tsa/timestamp-client.js';
import type { ProgressReporter } from '../progress/progress-reporter.js';

export interface SignTimestamping {
  /** Undefined for --no-timestamp (B-B). */
  client: TimestampClient | undefined;
  close(): Promise<void>;
}

/**
 * The TSA a `sign` run uses: `--tsa URL` over HTTP, else the station's own TSA in this process (no client to
 * register, no server to run: the same authority, key and serial numbers as `serve`'s), none with --no-timestamp.
 */
export async function openSignTimestamping(options: { tsa?: string; timestamp: boolean }, data: StationData, progress: ProgressReporter): Promise<SignTimestamping> {
  if (!options.timestamp) return { client: undefined, close: async () => undefined };
  if (options.tsa) return { client: reporting(httpTimestampClient(options.tsa), progress), close: async () => undefined };
  const authority = await TimestampAuthority.open({ database: data.database, vault: data.vault, clock: systemClock });
  return { client: reporting(new EmbeddedTimestampClient(authority), progress), close: () => authority.close() };
}

/** An HTTP TSA client, or a usage error naming --tsa; checked before any key is opened. */
export function httpTimestampClient(url: string): TimestampClient {
  try {
    return new HttpTimestampClient({ url });
  } catch (cause) {
    throw new InvalidInputError(`--tsa ${url} is not a usable TSA URL: ${(cause as Error).message}`, { tsa: ['not an http(s) URL'] });
  }
}

function reporting(client: TimestampClient, progress: ProgressReporter): TimestampClient {
  return {
    timestamp: (hash, hashAlgorithm) => {
      progress.step('timestamping');
      return client.timestamp(hash, hashAlgorithm);
    },
  };
}
