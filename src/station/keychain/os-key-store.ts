import { AsyncEntry } from '@napi-rs/keyring';
import type { KeyStore } from '../ports/key-store.js';
import { KeychainError } from './keychain-error.js';

const SERVICE = 'signing-station';

const FIX =
  process.platform === 'linux'
    ? 'Start and unlock a Secret Service keyring in this session (for example gnome-keyring-daemon --unlock ' +
      '--components=secrets under a D-Bus session bus), or opt in to a passphrase-protected key file with ' +
      '--key-store passphrase and SIGNING_STATION_PASSPHRASE.'
    : 'Unlock the login keychain, or opt in to a passphrase-protected key file with --key-store passphrase and ' +
      'SIGNING_STATION_PASSPHRASE.';

/**
 * The OS keychain through @napi-rs/keyring (Node-API): Secret Service on Linux, Keychain on macOS, Credential
 * Manager on Windows. Values are stored as binary secrets under the service "signing-station".
 */
export class OsKeyStore implements KeyStore {
  readonly description =
    process.platform === 'linux' ? 'the Secret Service keyring' : process.platform === 'darwin' ? 'the macOS Keychain' : 'the Windows Credential Manager';

  /**
   * The library answers "not found" when no keychain is reachable at all, which would look like a first start;
   * a write probe tells the two apart. get() runs it only when it finds nothing: a key found proves the keychain
   * reachable, and the probe (a write and a delete over D-Bus) was a tenth of every start.
   */
  async assertReachable(): Promise<void> {
    const probe = new AsyncEntry(SERVICE, `probe-${process.pid}`);
    try {
      await probe.setSecret(new Uint8Array([1]));
      await probe.deleteCredential();
    } catch (cause) {
      throw new KeychainError(`Cannot reach ${this.description}: ${describe(cause)}. ${FIX}`, { cause });
    }
  }

  async get(account: string): Promise<Uint8Array | null> {
    try {
      const secret = await new AsyncEntry(SERVICE, account).getSecret();
      if (secret) return Uint8Array.from(secret);
    } catch (cause) {
      throw new KeychainError(`Cannot read from ${this.description}: ${describe(cause)}. ${FIX}`, { cause });
    }
    await this.assertReachable();
    return null;
  }

  async set(account: string, value: Uint8Array): Promise<void> {
    try {
      await new AsyncEntry(SERVICE, account).setSecret(value);
    } catch (cause) {
      throw new KeychainError(`Cannot write to ${this.description}: ${describe(cause)}. ${FIX}`, { cause });
    }
  }

  async delete(account: string): Promise<void> {
    try {
      await new AsyncEntry(SERVICE, account).deleteCredential();
    } catch (cause) {
      throw new KeychainError(`Cannot delete from ${this.description}: ${describe(cause)}. ${FIX}`, { cause });
    }
  }
}

function describe(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  if (/dismissed/i.test(message)) return 'the keyring is locked (its unlock prompt was dismissed)';
  if (/AccessDenied|ServiceUnknown|org\.freedesktop\.secrets/i.test(message)) return 'no Secret Service on the session bus';
  return message;
}
