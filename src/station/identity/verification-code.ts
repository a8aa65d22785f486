import { createHash, randomBytes } from 'node:crypto';

/**
 * The 4-digit verification code shown both on the web page and in the user's app, computed as the Smart-ID and
 * Mobile-ID protocols do: from the last two bytes of SHA-256 over the hash being authenticated, modulo 10000.
 */
export function verificationCode(authenticationHash: Uint8Array = randomBytes(64)): string {
  const digest = createHash('sha256').update(authenticationHash).digest();
  return String(digest.readUInt16BE(digest.length - 2) % 10_000).padStart(4, '0');
}
