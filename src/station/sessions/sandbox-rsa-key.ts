import { constants, generateKeyPair, privateDecrypt, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';

const generate = promisify(generateKeyPair);

/**
 * The RSA key a simulated provider publishes for its browser client to encrypt fields with (Chave Móvel's PIN,
 * phone and confirmation code): made on first use, kept in memory for the process, never stored.
 */
export class SandboxRsaKey {
  #pair: Promise<{ publicKey: KeyObject; privateKey: KeyObject }> | undefined;

  async publicKeyPem(): Promise<string> {
    return (await this.#keys()).publicKey.export({ type: 'spki', format: 'pem' }).toString();
  }

  /**
   * Decrypts an RSAES-PKCS1-v1_5 ciphertext (base64), as the published client's JSEncrypt makes it. By hand over a
   * raw RSA operation because Node refuses PKCS#1 v1.5 decryption since CVE-2023-46809 (Marvin's timing oracle):
   * acceptable here, where the key lives for one sandbox process and guards a simulated PIN; `field` names the
   * member in the error.
   */
  async decrypt(base64: string, field: string): Promise<string> {
    const refuse = (): never => {
      throw new InvalidInputError(`${field} is not encrypted with the provider's public key.`, { [field]: ['cannot be decrypted'] });
    };
    let block: Buffer;
    try {
      block = privateDecrypt({ key: (await this.#keys()).privateKey, padding: constants.RSA_NO_PADDING }, Buffer.from(base64, 'base64'));
    } catch {
      return refuse();
    }
    // EM = 0x00 || 0x02 || at least 8 non-zero padding bytes || 0x00 || message (RFC 8017, 7.2.2).
    const separator = block.indexOf(0, 2);
    if (block[0] !== 0 || block[1] !== 2 || separator < 10) return refuse();
    return block.subarray(separator + 1).toString('utf8');
  }

  #keys(): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
    return (this.#pair ??= generate('rsa', { modulusLength: 2048 }));
  }
}
