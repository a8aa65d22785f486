import { ClientError } from './client-error.js';

const bytesToBigInt = (bytes: Uint8Array): bigint => BigInt(`0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('') || '0'}`);
const base64UrlBytes = (text: string): Uint8Array => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  for (let square = base % modulus, rest = exponent; rest > 0n; rest >>= 1n, square = (square * square) % modulus) {
    if (rest & 1n) result = (result * square) % modulus;
  }
  return result;
}

/**
 * RSAES-PKCS1-v1_5 encryption (RFC 8017, 7.2.1) of a text with a PEM public key, base64 out: what the service's
 * Chave Móvel endpoints expect (the published client uses JSEncrypt). By hand because WebCrypto offers only
 * RSA-OAEP and a library would double this bundle; WebCrypto still reads the key (SPKI to JWK gives n and e).
 */
export async function encryptPkcs1(pem: string, text: string): Promise<string> {
  const der = Uint8Array.from(atob(pem.replace(/-----[^-]+-----|\s/g, '')), (char) => char.charCodeAt(0));
  const jwk = await crypto.subtle.exportKey('jwk', await crypto.subtle.importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, true, ['encrypt']));
  const modulus = base64UrlBytes(jwk.n!);
  const size = modulus.length - (modulus[0] === 0 ? 1 : 0);
  const message = new TextEncoder().encode(text);
  if (message.length > size - 11) throw new ClientError('ERR_CLIENT_TOO_LONG_TO_ENCRYPT', 'The value is too long for the provider’s key.');
  // 0x00 0x02, non-zero random padding, 0x00, the message.
  const block = new Uint8Array(size);
  block[1] = 2;
  const padding = block.subarray(2, size - message.length - 1);
  crypto.getRandomValues(padding);
  for (let index = 0; index < padding.length; index++) while (padding[index] === 0) crypto.getRandomValues(padding.subarray(index, index + 1));
  block.set(message, size - message.length);
  const hex = modPow(bytesToBigInt(block), bytesToBigInt(base64UrlBytes(jwk.e!)), bytesToBigInt(modulus)).toString(16).padStart(size * 2, '0');
  return btoa(String.fromCharCode(...(hex.match(/../g) ?? []).map((pair) => parseInt(pair, 16))));
}
