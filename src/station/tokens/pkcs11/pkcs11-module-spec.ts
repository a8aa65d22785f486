import type pkcs11js from 'pkcs11js';

/** One PKCS#11 library the station may load, and how. */
export interface Pkcs11ModuleSpec {
  /** Absolute path of the shared library. */
  readonly path: string;
  /** Human-readable name ("OpenSC", "NSS certificate database ~/.pki/nssdb"). */
  readonly name: string;
  /** Certificate stores (NSS softoken) are shown as kind 'store'; everything else as 'pkcs11'. */
  readonly kind: 'pkcs11' | 'store';
  /** Where it came from: the per-OS list, the user's own list, or the caller (config, tests). */
  readonly origin: 'known' | 'user' | 'config';
  /** C_Initialize arguments; NSS needs `libraryParameters` naming its database directory. */
  readonly initialize?: pkcs11js.InitializationOptions;
  /**
   * Some modules (SoftHSM, NSS) read their token list only in C_Initialize and never report new tokens: the
   * only way to see one added since is C_Finalize + C_Initialize, done when no session of the module is in use.
   */
  readonly rescanByReinitialize?: boolean;
  /** A library outside the allowlist that the user confirmed: loaded only while the file still has this SHA-256. */
  readonly trustedSha256?: string;
  /**
   * How the file is checked before dlopen (openModuleFile): 'exact' for a path the station stored resolved (a
   * symlink on it is refused), 'resolved' for a path from the config file (resolved at each load, then checked).
   * Unset for the per-OS list in the system's directories and for specs given in full.
   */
  readonly fileCheck?: 'exact' | 'resolved';
  /** Set when the module must not be loaded at all (a user-added library no longer in the allowlist, unhashed): why. */
  readonly refusal?: string;
  /** Tokens of the module that hold no user keys by design (NSS's "NSS Generic Crypto Services"). */
  readonly hiddenTokenLabels?: readonly string[];
}
