import { TrustListError } from './trust-list-error.js';
import { readBoundedBody } from '../../pki/read-bounded-body.js';

/** National lists run to a few megabytes; anything far larger is not a trusted list. */
export const MAX_LIST_BYTES = 32 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

export type FetchedList = { changed: false } | { changed: true; xml: string; etag: string | null; lastModified: string | null };

/**
 * Fetches a trusted list over HTTP(S), conditionally (If-None-Match / If-Modified-Since from the cached copy: a 304
 * costs no download), within a time and a size bound: a body over the bound is cut off and refused.
 */
export async function fetchTrustedList(url: string, cached: { etag: string | null; lastModified: string | null } | undefined): Promise<FetchedList> {
  if (!/^https?:\/\//i.test(url)) throw new TrustListError('ERR_TRUST_LIST_FETCH_FAILED', `${url} is not an http(s) address.`);
  const headers: Record<string, string> = { accept: 'application/xml, application/vnd.etsi.tsl+xml, text/xml' };
  if (cached?.etag) headers['if-none-match'] = cached.etag;
  if (cached?.lastModified) headers['if-modified-since'] = cached.lastModified;
  let response: Response;
  try {
    response = await fetch(url, { headers, redirect: 'follow', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (cause) {
    throw new TrustListError('ERR_TRUST_LIST_FETCH_FAILED', `${url} cannot be fetched (${(cause as Error).message}).`, { cause, retriable: true, status: 502 });
  }
  if (response.status === 304) return { changed: false };
  if (!response.ok) {
    await response.body?.cancel();
    throw new TrustListError('ERR_TRUST_LIST_FETCH_FAILED', `${url} answered HTTP ${response.status}.`, { retriable: response.status >= 500, status: 502 });
  }
  const body = await readBoundedBody(response, MAX_LIST_BYTES);
  if (!body) throw tooLarge(url);
  return { changed: true, xml: body.toString('utf8'), etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified') };
}

function tooLarge(url: string): TrustListError {
  return new TrustListError('ERR_TRUST_LIST_TOO_LARGE', `${url} is larger than ${MAX_LIST_BYTES / 1024 / 1024} MB, more than any trusted list: refused.`);
}
