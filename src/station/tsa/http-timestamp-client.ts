import { TimestampClientError } from './timestamp-client-error.js';
import { readTimestampReply } from './timestamp-reply-reader.js';
import { exchangeTimestamp, type TimestampExchange, type TimestampExchangeOptions } from './timestamp-exchange.js';
import type { HashAlgorithm } from '../pki/hash-algorithms.js';
import type { TimestampClient } from './timestamp-client.js';

export interface HttpTimestampClientOptions extends TimestampExchangeOptions {
  /** The TSA's RFC 3161 URL: the embedded one is http://127.0.0.1:<port>/api/timestamp/<client_id>. */
  url: string;
  /** Whole round trip; default 15 s. */
  timeoutMs?: number;
  /** Extra request headers, for TSAs behind basic auth or an API key. */
  headers?: Record<string, string>;
}

/** A real TimeStampResp is a few KiB; more is not a timestamp and is not buffered. */
const MAX_RESPONSE_BYTES = 256 * 1024;

/** RFC 3161 over HTTP (POST application/timestamp-query), to the embedded TSA or any external one. */
export class HttpTimestampClient implements TimestampClient {
  readonly #options: HttpTimestampClientOptions;

  constructor(options: HttpTimestampClientOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`A TSA URL is http(s), not ${url.protocol}`);
    this.#options = options;
  }

  async timestamp(hash: Uint8Array, hashAlgorithm: HashAlgorithm): Promise<Uint8Array> {
    return (await this.exchange(hash, hashAlgorithm)).token;
  }

  /** The checked exchange, with the whole response (for .tsr files) besides the token. */
  exchange(hash: Uint8Array, hashAlgorithm: HashAlgorithm): Promise<TimestampExchange> {
    return exchangeTimestamp((request) => this.#post(request), hash, hashAlgorithm, this.#options);
  }

  async #post(request: Uint8Array): Promise<Uint8Array> {
    const { url } = this.#options;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { ...this.#options.headers, 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
        body: Uint8Array.from(request),
        redirect: 'error',
        signal: AbortSignal.timeout(this.#options.timeoutMs ?? 15_000),
      });
    } catch (cause) {
      throw new TimestampClientError('ERR_TSA_CLIENT_UNREACHABLE', `The TSA at ${url} cannot be reached: ${describe(cause)}.`, { retriable: true, cause });
    }
    const body = await readLimited(response, url);
    if (response.status !== 200) {
      throw new TimestampClientError('ERR_TSA_CLIENT_HTTP', `The TSA at ${url} answered HTTP ${response.status}${errorText(response, body)}.`, {
        retriable: response.status >= 500 || response.status === 429,
        details: { httpStatus: response.status },
      });
    }
    return body;
  }
}

async function readLimited(response: Response, url: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_RESPONSE_BYTES) {
    await response.body?.cancel();
    throw new TimestampClientError('ERR_TSA_CLIENT_BAD_RESPONSE', `The TSA at ${url} sent ${declared} bytes; a timestamp reply is far smaller.`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  try {
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
      total += read.value.length;
      if (total > MAX_RESPONSE_BYTES) break;
      chunks.push(read.value);
    }
  } catch (cause) {
    throw new TimestampClientError('ERR_TSA_CLIENT_UNREACHABLE', `The TSA at ${url} broke off its answer: ${describe(cause)}.`, { retriable: true, cause });
  }
  if (total > MAX_RESPONSE_BYTES) {
    await reader?.cancel().catch(() => undefined);
    throw new TimestampClientError('ERR_TSA_CLIENT_BAD_RESPONSE', `The TSA at ${url} sent more than ${MAX_RESPONSE_BYTES} bytes; a timestamp reply is far smaller.`);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** What a refusal says: the station's TSA answers a TimeStampResp rejection with its reason; others may send JSON. */
function errorText(response: Response, body: Uint8Array): string {
  const type = response.headers.get('content-type') ?? '';
  try {
    if (type.startsWith('application/timestamp-reply')) {
      const said = readTimestampReply(body).statusText.join('; ');
      return said ? `: ${said}` : '';
    }
    if (!type.startsWith('application/json')) return '';
    const parsed = JSON.parse(Buffer.from(body).toString('utf8')) as { message?: unknown };
    return typeof parsed.message === 'string' ? `: ${parsed.message}` : '';
  } catch {
    return '';
  }
}

function describe(cause: unknown): string {
  const error = cause as Error & { cause?: { code?: string; message?: string } };
  if (error?.name === 'TimeoutError') return 'timed out';
  return error?.cause?.code ?? error?.cause?.message ?? error?.message ?? String(cause);
}
