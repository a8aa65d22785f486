import { createHash } from 'node:crypto';
import pkcs11js from 'pkcs11js';
import type { PinStatus, TokenCertificate, TokenDescription } from '../../../core/schemas/token-description.js';
import type { Clock } from '../../ports/clock.js';
import type { PinSource, SignRequest, Token } from '../token.js';
import { PinIncorrectError, PinLockedError, TokenError, UserCancelledError } from '../token-errors.js';
import type { CertificateSummary } from '../../pki/certificate-summary.js';
import { isValidAt, toTokenCertificate } from '../../pki/certificate-validity.js';
import type { Pkcs11Module, PresentToken } from './pkcs11-module.js';
import { isRemoval, isReturnValue, toTokenError } from './pkcs11-errors.js';
import { attributeNumber, findObjects, readAttribute } from './pkcs11-objects.js';
import { pinStatusFromFlags } from './pin-status-from-flags.js';
import { loginOnWorker } from './login-on-worker.js';
import { pkcs11SignOperation } from './pkcs11-sign-operation.js';
import { rsaKeySchemes, slotRsaSigningMechanisms } from './rsa-key-schemes.js';
import { assertHashLength } from '../../pki/digest-info.js';

export interface Pkcs11TokenOptions {
  clock: Clock;
  /** A login is kept this long after the last signature, then the token is logged out (0: at once). */
  loginIdleMs: number;
  /** Called when an operation finds the token gone, so the source re-reads its slots at once. */
  onRemoved: () => void;
}

interface OpenSession {
  handle: pkcs11js.Handle;
  generation: number;
  loggedIn: boolean;
  /**
   * Private keys found in this session, by certificate id. PKCS#11 keeps an object handle valid for as long as
   * the session that found it, so the lookup (slow on most modules) is done once per login, not per signature.
   */
  keys: Map<string, PrivateKey>;
}

interface PrivateKey {
  handle: pkcs11js.Handle;
  keyType: number;
  alwaysAuthenticate: boolean;
}

/** Large enough for RSA-8192 and every EC curve; pkcs11js returns the used part. */
const SIGNATURE_BUFFER = 1024;

/**
 * A token in a slot of a PKCS#11 module (USB token, card through OpenSC, NSS database). Operations on one token
 * run one at a time: a PKCS#11 session holds one active operation, and logins are per token.
 */
export class Pkcs11Token implements Token {
  readonly id: string;
  readonly kind: TokenDescription['kind'];
  readonly label: string;
  readonly #module: Pkcs11Module;
  readonly #options: Pkcs11TokenOptions;
  #present: PresentToken;
  #session: OpenSession | undefined;
  #certificates: { generation: number; list: CertificateSummary[] } | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #busy = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  #lastLoginFailed = false;
  /** Set while a login is kept after a signature: when it ends. */
  #unlockedUntil: Date | undefined;
  #loginIdleMs: number;

  constructor(module: Pkcs11Module, present: PresentToken, options: Pkcs11TokenOptions) {
    this.#module = module;
    this.#present = present;
    this.#options = options;
    this.kind = module.spec.kind;
    this.label = present.token.label.trim() || present.slotDescription;
    this.id = Pkcs11Token.idFor(module, present);
    this.#loginIdleMs = options.loginIdleMs;
  }

  /** From the next signature on, the login is kept this long after it (0: logged out at once). */
  keepLoginFor(ms: number): void {
    this.#loginIdleMs = ms;
  }

  /** Stable across restarts and re-initialisation: slot numbers are not, token identity is. */
  static idFor(module: Pkcs11Module, present: PresentToken): string {
    const { manufacturerID, model, serialNumber, label } = present.token;
    const identity = [module.spec.path, module.spec.initialize?.libraryParameters ?? '', manufacturerID, model, serialNumber, label].join('\0');
    return `pkcs11-${createHash('sha256').update(identity).digest('hex').slice(0, 16)}`;
  }

  /** True while an operation runs or a login is kept: the module must not be re-initialised then. */
  get busy(): boolean {
    return this.#busy > 0 || (this.#session?.loggedIn === true && this.#session.generation === this.#module.generation);
  }

  /** The source found the same token again (after re-initialisation the slot handle may differ). */
  rebind(present: PresentToken): void {
    this.#present = present;
  }

  async describe(): Promise<TokenDescription> {
    const [certificates, pin] = await Promise.all([this.listCertificates(), this.pinStatus()]);
    const { manufacturerID, serialNumber } = this.#present.token;
    return {
      id: this.id,
      kind: this.kind,
      label: this.label,
      reader: this.#present.slotDescription,
      driver: this.#module.spec.path,
      ...(manufacturerID.trim() ? { manufacturer: manufacturerID.trim() } : {}),
      ...(serialNumber.trim() ? { serialNumber: serialNumber.trim() } : {}),
      pin,
      ...(this.#unlockedUntil && this.#session?.loggedIn ? { unlockedUntil: this.#unlockedUntil.toISOString() } : {}),
      certificates,
    };
  }

  listCertificates(): Promise<TokenCertificate[]> {
    return this.#exclusive(async () => {
      const now = this.#options.clock.now();
      return (await this.#loadCertificates()).filter((c) => !c.isCa).map((c) => toTokenCertificate(c, now));
    });
  }

  pinStatus(): Promise<PinStatus> {
    return this.#exclusive(async () => pinStatusFromFlags(this.#tokenFlags()));
  }

  async sign(request: SignRequest): Promise<Uint8Array> {
    assertHashLength(request.hash, request.hashAlgorithm);
    return this.#exclusive(async () => {
      request.signal?.throwIfAborted();
      const certificate = (await this.#loadCertificates()).find((c) => c.id === request.certificateId && !c.isCa);
      if (!certificate) {
        throw new TokenError('ERR_TOKEN_CERTIFICATE_NOT_FOUND', `${this.label} has no certificate with id ${request.certificateId}.`, { status: 404 });
      }
      if (!isValidAt(certificate, this.#options.clock.now())) {
        throw new TokenError(
          'ERR_TOKEN_CERTIFICATE_NOT_VALID',
          `The certificate ${certificate.subject} is valid from ${certificate.notBefore} to ${certificate.notAfter}: not now.`,
          { status: 409 },
        );
      }
      const library = this.#module.library;
      const session = this.#openSession();
      if (!session.loggedIn && (this.#tokenFlags() & pkcs11js.CKF_LOGIN_REQUIRED) !== 0) {
        await this.#login(session, pkcs11js.CKU_USER, request.pin, 'PIN', request.signal);
      }
      const key = this.#privateKey(session, request.certificateId);
      const operation = pkcs11SignOperation(key.keyType, request.scheme, request.hashAlgorithm, request.hash);
      library.C_SignInit(session.handle, operation.mechanism, key.handle);
      if (key.alwaysAuthenticate) {
        try {
          // Keys such as an eID's qualified signing key need the PIN again for every single signature.
          await this.#login(session, pkcs11js.CKU_CONTEXT_SPECIFIC, request.pin, 'signing PIN', request.signal);
        } catch (error) {
          // The sign operation is still active in this session: closing the session is the only portable way to end it.
          this.#closeSession();
          throw error;
        }
      }
      const signature = await library.C_SignAsync(session.handle, operation.data, Buffer.alloc(SIGNATURE_BUFFER));
      this.#scheduleLogout();
      return new Uint8Array(signature);
    });
  }

  release(): Promise<void> {
    return this.#exclusive(async () => this.#closeSession());
  }

  /** Runs `work` after every earlier operation on this token; module errors become token errors here, once. */
  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      this.#busy++;
      try {
        return await work();
      } catch (error) {
        if (isRemoval(error)) {
          this.#session = undefined;
          this.#certificates = undefined;
          this.#options.onRemoved();
        } else if (isReturnValue(error, pkcs11js.CKR_USER_NOT_LOGGED_IN) && this.#session) {
          // The module dropped our login (token pulled and put back between polls): the next attempt logs in again.
          this.#session.loggedIn = false;
          this.#session.keys.clear();
        }
        // A TypeError is the caller's mistake (wrong hash length, unknown scheme): it stays what it is.
        throw error instanceof TypeError ? error : toTokenError(error, { tokenLabel: this.label });
      } finally {
        this.#busy--;
      }
    };
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #tokenFlags(): number {
    const info = this.#module.library.C_GetTokenInfo(this.#present.slot);
    this.#present = { ...this.#present, token: info };
    return info.flags;
  }

  #openSession(): OpenSession {
    if (this.#session && this.#session.generation === this.#module.generation) return this.#session;
    const handle = this.#module.library.C_OpenSession(this.#present.slot, pkcs11js.CKF_SERIAL_SESSION);
    this.#session = { handle, generation: this.#module.generation, loggedIn: false, keys: new Map() };
    return this.#session;
  }

  #closeSession(): void {
    clearTimeout(this.#idleTimer);
    this.#unlockedUntil = undefined;
    const session = this.#session;
    this.#session = undefined;
    if (!session || session.generation !== this.#module.generation) return;
    const library = this.#module.library;
    if (session.loggedIn) {
      try {
        library.C_Logout(session.handle);
      } catch {
        // Logged out already (token removed, or the module dropped the login): closing is what is left to do.
      }
    }
    try {
      library.C_CloseSession(session.handle);
    } catch (error) {
      if (!isRemoval(error)) throw error;
    }
  }

  #scheduleLogout(): void {
    clearTimeout(this.#idleTimer);
    if (this.#loginIdleMs <= 0) {
      // Kept for no time at all: every signature asks the PIN.
      this.#closeSession();
      return;
    }
    this.#unlockedUntil = new Date(this.#options.clock.now().getTime() + this.#loginIdleMs);
    this.#idleTimer = setTimeout(() => void this.release().catch(() => undefined), this.#loginIdleMs);
    this.#idleTimer.unref();
  }

  /**
   * One C_Login with a PIN from `pin` (or the reader's pinpad). The PIN bytes are zeroed when the login ends, and
   * the login thread zeroes its own copy (login-on-worker.ts). A wrong PIN is not retried here: the caller
   * decides, and the next prompt says the last one failed.
   */
  async #login(session: OpenSession, userType: number, pin: PinSource, pinLabel: string, signal: AbortSignal | undefined): Promise<void> {
    const before = pinStatusFromFlags(this.#tokenFlags());
    if (before.locked) throw new PinLockedError();
    // With a protected authentication path the PIN is typed on the reader: the module gets none.
    let secret: Uint8Array | undefined;
    if (!before.pinpad) {
      let bytes: Uint8Array | null = null;
      try {
        bytes = await pin({
          ...(before.retriesLeft !== undefined ? { retriesLeft: before.retriesLeft } : {}),
          finalTry: before.finalTry,
          countLow: before.countLow,
          previousAttemptFailed: this.#lastLoginFailed,
          pinLabel: this.kind === 'store' && userType === pkcs11js.CKU_USER ? 'database password' : pinLabel,
        });
      } finally {
        // "Wrong PIN" speaks of this attempt: once it ends without a PIN (cancelled, gone), the next one starts afresh.
        if (bytes === null) this.#lastLoginFailed = false;
      }
      if (bytes === null) throw new UserCancelledError();
      secret = bytes;
    }
    try {
      signal?.throwIfAborted();
      await loginOnWorker(this.#module.loadPath, session.handle, userType, secret);
    } catch (error) {
      if (!isReturnValue(error, pkcs11js.CKR_USER_ALREADY_LOGGED_IN)) {
        if (isReturnValue(error, pkcs11js.CKR_PIN_INCORRECT)) {
          this.#lastLoginFailed = true;
          const after = pinStatusFromFlags(this.#tokenFlags());
          if (after.locked) throw new PinLockedError({ cause: error });
          // details replace the error's own, so retriesLeft is repeated here with the flags the UI shows.
          const details = { ...(after.retriesLeft !== undefined ? { retriesLeft: after.retriesLeft } : {}), finalTry: after.finalTry, countLow: after.countLow };
          throw new PinIncorrectError(after.retriesLeft, { cause: error, details });
        }
        throw error;
      }
    } finally {
      secret?.fill(0);
    }
    this.#lastLoginFailed = false;
    if (userType === pkcs11js.CKU_USER) session.loggedIn = true;
  }

  #privateKey(session: OpenSession, certificateId: string): PrivateKey {
    const cached = session.keys.get(certificateId);
    if (cached) return cached;
    const library = this.#module.library;
    const [handle] = findObjects(library, session.handle, [
      { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY },
      { type: pkcs11js.CKA_ID, value: Buffer.from(certificateId, 'hex') },
    ]);
    if (!handle) {
      throw new TokenError('ERR_TOKEN_KEY_NOT_FOUND', `${this.label} has no private key for the certificate ${certificateId}.`, { status: 404 });
    }
    const key = {
      handle,
      keyType: attributeNumber(readAttribute(library, session.handle, handle, pkcs11js.CKA_KEY_TYPE)) ?? -1,
      alwaysAuthenticate: attributeNumber(readAttribute(library, session.handle, handle, pkcs11js.CKA_ALWAYS_AUTHENTICATE)) === 1,
    };
    // Before login the key may be invisible; only a logged-in session's view is worth keeping.
    if (session.loggedIn) session.keys.set(certificateId, key);
    return key;
  }

  /**
   * The CKA_ALLOWED_MECHANISMS of each key pair the session sees, by hex CKA_ID: the private key's when it is
   * visible (it is the one that signs), else the public key's (tokens keep them alike, and it is readable before login).
   */
  #keyMechanisms(session: OpenSession): Map<string, Buffer | undefined> {
    const library = this.#module.library;
    const mechanisms = new Map<string, Buffer | undefined>();
    for (const objectClass of [pkcs11js.CKO_PRIVATE_KEY, pkcs11js.CKO_PUBLIC_KEY]) {
      for (const key of findObjects(library, session.handle, [{ type: pkcs11js.CKA_CLASS, value: objectClass }])) {
        const id = readAttribute(library, session.handle, key, pkcs11js.CKA_ID)?.toString('hex');
        if (id && !mechanisms.has(id)) mechanisms.set(id, readAttribute(library, session.handle, key, pkcs11js.CKA_ALLOWED_MECHANISMS));
      }
    }
    return mechanisms;
  }

  /**
   * Certificates with their key pairs, paired by CKA_ID. Tokens that hide every key object until login show
   * no keys at all: then each end-entity certificate with an id is listed, and signing finds out.
   */
  async #loadCertificates(): Promise<CertificateSummary[]> {
    const generation = this.#module.generation;
    if (this.#certificates?.generation === generation) return this.#certificates.list;
    // certificate-summary.ts parses with @peculiar/x509: loaded when certificates are first listed, not with the station.
    const { summarizeCertificate } = await import('../../pki/certificate-summary.js');
    const library = this.#module.library;
    const keepSession = this.#session !== undefined;
    const session = this.#openSession();
    try {
      const keyMechanisms = this.#keyMechanisms(session);
      const slotMechanisms = slotRsaSigningMechanisms(library, this.#present.slot);
      const now = this.#options.clock.now();
      const list: CertificateSummary[] = [];
      const certificates = findObjects(library, session.handle, [
        { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_CERTIFICATE },
        { type: pkcs11js.CKA_CERTIFICATE_TYPE, value: pkcs11js.CKC_X_509 },
      ]);
      for (const object of certificates) {
        const id = readAttribute(library, session.handle, object, pkcs11js.CKA_ID)?.toString('hex');
        const value = readAttribute(library, session.handle, object, pkcs11js.CKA_VALUE);
        if (!id || !value || (keyMechanisms.size > 0 && !keyMechanisms.has(id))) continue;
        try {
          const summary = summarizeCertificate(value, id, now);
          const schemes = summary.keyAlgorithm === 'RSA' ? rsaKeySchemes(keyMechanisms.get(id), slotMechanisms) : undefined;
          list.push(schemes ? { ...summary, signatureSchemes: schemes } : summary);
        } catch {
          // Not a parsable X.509 certificate: nothing the station could sign with; the rest are still listed.
        }
      }
      list.sort((a, b) => a.id.localeCompare(b.id));
      this.#certificates = { generation, list };
      return list;
    } finally {
      if (!keepSession && !session.loggedIn) this.#closeSession();
    }
  }
}
