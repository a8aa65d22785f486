/**
 * Where the station keeps the one secret that unlocks all others (the vault's master key): the OS keychain by
 * default. Values are small (a key), never written to disk in plaintext by the station.
 */
export interface KeyStore {
  /** Human-readable name for messages ("Secret Service (gnome-keyring)"). */
  readonly description: string;
  get(account: string): Promise<Uint8Array | null>;
  set(account: string, value: Uint8Array): Promise<void>;
  delete(account: string): Promise<void>;
}
