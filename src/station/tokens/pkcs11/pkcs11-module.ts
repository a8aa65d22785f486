import { realpathSync } from 'node:fs';
import pkcs11js from 'pkcs11js';
import { TokenUnavailableError } from '../token-errors.js';
import type { Pkcs11ModuleSpec } from './pkcs11-module-spec.js';
import { isReturnValue } from './pkcs11-errors.js';
import { openModuleFile, type OpenModuleFile } from './open-module-file.js';

export interface PresentToken {
  slot: pkcs11js.Handle;
  slotDescription: string;
  token: pkcs11js.TokenInfo;
}

/**
 * One loaded PKCS#11 library. A library can be initialised once per process, so every token of the module
 * shares this object; `generation` changes on each re-initialisation, which invalidates every session and slot
 * handle from before (tokens compare it before reusing a session).
 */
export class Pkcs11Module {
  readonly spec: Pkcs11ModuleSpec;
  #library: pkcs11js.PKCS11 | undefined;
  /** The checked file (never closed once loaded, see OpenModuleFile): the login thread loads it through the same descriptor. */
  #file: OpenModuleFile | undefined;
  #generation = 0;

  constructor(spec: Pkcs11ModuleSpec) {
    this.spec = spec;
  }

  get generation(): number {
    return this.#generation;
  }

  get library(): pkcs11js.PKCS11 {
    if (!this.#library) throw new TokenUnavailableError(`The PKCS#11 module ${this.spec.name} is not loaded.`);
    return this.#library;
  }

  get loaded(): boolean {
    return this.#library !== undefined;
  }

  /** What to dlopen to get this very library again (another thread's pkcs11js): the checked descriptor when there is one. */
  get loadPath(): string {
    return this.#file?.loadPath ?? this.spec.path;
  }

  /** dlopen + C_Initialize. Errors name the module and say how to fix the path. */
  open(): void {
    if (this.#library) return;
    const file = this.#openCheckedFile();
    const library = new pkcs11js.PKCS11();
    try {
      library.load(file?.loadPath ?? this.spec.path);
    } catch (cause) {
      throw new TokenUnavailableError(
        `Cannot load the PKCS#11 module ${this.spec.path} (${this.spec.name}): ${(cause as Error).message}. ` +
          'Check that the file is the vendor’s PKCS#11 library for this OS and architecture.',
        { cause, retriable: false },
      );
    }
    try {
      this.#initialize(library);
    } catch (cause) {
      library.close();
      throw new TokenUnavailableError(`The PKCS#11 module ${this.spec.name} failed to initialise: ${(cause as Error).message}`, { cause });
    }
    this.#library = library;
    this.#file = file;
    this.#generation++;
  }

  /**
   * A path the user or the config named is checked at every load, not only when it was added: its allowlist
   * verdict, its path's safety and, for a confirmed library, its SHA-256 (a replaced file is not the one trusted).
   */
  #openCheckedFile(): OpenModuleFile | undefined {
    if (this.spec.refusal) throw new TokenUnavailableError(this.spec.refusal, { retriable: false });
    const check = this.spec.fileCheck ?? (this.spec.trustedSha256 ? 'exact' : undefined);
    if (!check) return undefined;
    return openModuleFile(check === 'resolved' ? resolvedPath(this.spec.path) : this.spec.path, this.spec.trustedSha256);
  }

  /** C_Finalize + C_Initialize: forgets every session and login, and makes the module read its tokens again. */
  reinitialize(): void {
    const library = this.library;
    try {
      library.C_Finalize();
    } catch {
      // Already finalised behind our back (a removed device can do that); initialising again is what matters.
    }
    this.#initialize(library);
    this.#generation++;
  }

  close(): void {
    const library = this.#library;
    if (!library) return;
    this.#library = undefined;
    this.#file = undefined;
    this.#generation++;
    try {
      library.C_Finalize();
    } finally {
      library.close();
    }
  }

  /**
   * Slots with a token in them, each with its token information, and the slots whose token this module does not
   * recognise (a card or token that needs another vendor's module). Tokens that vanish while listed are left out.
   */
  scanSlots(): { present: PresentToken[]; unrecognised: string[] } {
    const library = this.library;
    const present: PresentToken[] = [];
    const unrecognised: string[] = [];
    for (const slot of library.C_GetSlotList(true)) {
      try {
        const slotDescription = library.C_GetSlotInfo(slot).slotDescription.trim();
        try {
          const token = library.C_GetTokenInfo(slot);
          // An uninitialised token (SoftHSM's spare slot, a blank card) has no keys to offer.
          const hidden = this.spec.hiddenTokenLabels?.includes(token.label.trim()) === true;
          if ((token.flags & pkcs11js.CKF_TOKEN_INITIALIZED) !== 0 && !hidden) present.push({ slot, slotDescription, token });
        } catch (error) {
          if (!isReturnValue(error, pkcs11js.CKR_TOKEN_NOT_RECOGNIZED)) throw error;
          unrecognised.push(slotDescription);
        }
      } catch (error) {
        if (!isReturnValue(error, pkcs11js.CKR_TOKEN_NOT_PRESENT, pkcs11js.CKR_SLOT_ID_INVALID, pkcs11js.CKR_DEVICE_REMOVED)) throw error;
      }
    }
    return { present, unrecognised };
  }

  /**
   * Non-blocking C_WaitForSlotEvent: true when some slot changed, false when nothing did, undefined when the
   * module does not support it (the caller then compares slot lists). A blocking wait would stall Node's event
   * loop: pkcs11js runs it on the calling thread.
   */
  pollSlotEvent(): boolean | undefined {
    try {
      return this.library.C_WaitForSlotEvent(pkcs11js.CKF_DONT_BLOCK) !== null;
    } catch (error) {
      if (isReturnValue(error, pkcs11js.CKR_FUNCTION_NOT_SUPPORTED)) return undefined;
      throw error;
    }
  }

  #initialize(library: pkcs11js.PKCS11): void {
    try {
      // OS locking: modules such as p11-kit-trust refuse to start without it, and Node may call from libuv threads.
      library.C_Initialize(this.spec.initialize ?? { flags: pkcs11js.CKF_OS_LOCKING_OK });
    } catch (error) {
      // Someone else in this process (another pkcs11js instance) initialised it first: the module is usable.
      if (!isReturnValue(error, pkcs11js.CKR_CRYPTOKI_ALREADY_INITIALIZED)) throw error;
    }
  }
}

/** A missing file stays as named: openModuleFile then says what is missing. */
function resolvedPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
