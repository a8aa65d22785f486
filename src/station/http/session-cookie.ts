/**
 * The UI session cookie. Cookies ignore ports, so the name carries the station's port (two stations on one
 * machine do not clobber each other); HttpOnly keeps it from page scripts, SameSite=Strict from cross-site
 * requests. Not Secure: the station speaks plain HTTP on loopback.
 */
export function sessionCookie(name: string, value: string): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${12 * 3600}`;
}

export function readSessionCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}
