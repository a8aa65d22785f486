/**
 * The origin of the page that embeds this one, as the browser reports it: `location.ancestorOrigins` where it
 * exists (Chromium, Safari; a parent cannot forge it), else the referrer, which the deployed client's
 * `referrerpolicy="origin"` reduces to the origin. The station's `frame-ancestors` has already refused any
 * embedder outside the client's origins; the page checks again before it answers anyone.
 */
export function embeddingOrigin(): string | undefined {
  const ancestor = window.location.ancestorOrigins?.[0];
  if (ancestor) return ancestor;
  if (!document.referrer) return undefined;
  try {
    return new URL(document.referrer).origin;
  } catch {
    return undefined;
  }
}
