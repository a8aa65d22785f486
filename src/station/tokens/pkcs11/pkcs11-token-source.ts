import type { Clock } from '../../ports/clock.js';
import type { Token, TokenSource } from '../token.js';
import type { SourceProblem } from '../token-registry.js';
import { isStationError } from '../../../core/errors/station-error.js';
import { Pkcs11Module } from './pkcs11-module.js';
import type { Pkcs11ModuleSpec } from './pkcs11-module-spec.js';
import { Pkcs11Token } from './pkcs11-token.js';
import { isRemoval } from './pkcs11-errors.js';

export interface Pkcs11TokenSourceOptions {
  /** The modules to load; resolved on each start() so user-added modules take effect on the next start. */
  modules: () => Promise<readonly Pkcs11ModuleSpec[]>;
  clock: Clock;
  /** How often slots are checked (non-blocking C_WaitForSlotEvent, or a slot-list comparison). */
  pollIntervalMs?: number;
  /** How often modules that only see new tokens after C_Initialize (SoftHSM) are re-initialised while idle. */
  reinitializeIntervalMs?: number;
  loginIdleMs?: number;
}

const ADD_MODULE_HINT = 'If it is a USB token or card that needs its vendor’s PKCS#11 module, add it: signing-station tokens modules add /path/to/module';

/**
 * Every PKCS#11 module the station knows (per-OS list, user-added, NSS databases), each with its live tokens.
 * Hot-plug: a timer polls each module without blocking the event loop; a token that reports removal in the middle
 * of an operation triggers an immediate re-scan.
 */
export class Pkcs11TokenSource implements TokenSource {
  readonly name = 'PKCS#11';
  readonly #options: Required<Pkcs11TokenSourceOptions>;
  readonly #modules = new Map<string, Pkcs11Module>();
  readonly #tokens = new Map<string, { module: Pkcs11Module; token: Pkcs11Token }>();
  readonly #problems = new Map<string, SourceProblem>();
  readonly #listeners = new Set<() => void>();
  #timer: NodeJS.Timeout | undefined;
  #lastReinitialize = 0;
  #running = false;

  constructor(options: Pkcs11TokenSourceOptions) {
    this.#options = { pollIntervalMs: 1_000, reinitializeIntervalMs: 3_000, loginIdleMs: 60_000, ...options };
  }

  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    for (const spec of await this.#options.modules()) {
      if (this.#modules.has(spec.path)) {
        // One library is initialised once per process, so a second NSS database on the same softoken cannot open.
        this.#problems.set(spec.name, { source: spec.name, message: `${spec.path} is already loaded for ${this.#modules.get(spec.path)?.spec.name}.` });
        continue;
      }
      const module = new Pkcs11Module(spec);
      try {
        module.open();
        this.#modules.set(spec.path, module);
      } catch (error) {
        this.#problem(spec, error);
      }
    }
    this.#lastReinitialize = Date.now();
    for (const module of this.#modules.values()) this.#scan(module);
    this.#timer = setInterval(() => this.poll(), this.#options.pollIntervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    clearInterval(this.#timer);
    await Promise.allSettled([...this.#tokens.values()].map(({ token }) => token.release()));
    this.#tokens.clear();
    for (const module of this.#modules.values()) {
      try {
        module.close();
      } catch {
        // Finalising a module whose device is gone can fail; the library is unloaded either way.
      }
    }
    this.#modules.clear();
  }

  tokens(): Token[] {
    return [...this.#tokens.values()].map(({ token }) => token);
  }

  /** Modules that failed to load and slots with tokens no loaded module recognises, for the UI and the CLI. */
  problems(): SourceProblem[] {
    return [...this.#problems.values()];
  }

  /** Loaded modules, for `tokens modules list`. */
  modules(): Pkcs11ModuleSpec[] {
    return [...this.#modules.values()].map((module) => module.spec);
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** One hot-plug check of every module; the timer calls it, tests may too. */
  poll(): void {
    if (!this.#running) return;
    const reinitializeDue = Date.now() - this.#lastReinitialize >= this.#options.reinitializeIntervalMs;
    if (reinitializeDue) this.#lastReinitialize = Date.now();
    for (const module of this.#modules.values()) {
      try {
        if (module.spec.rescanByReinitialize) {
          if (reinitializeDue && this.#idle(module)) {
            module.reinitialize();
            this.#scan(module);
          }
          continue;
        }
        const changed = module.pollSlotEvent();
        // Drain the events queued since the last poll: one scan covers them all.
        for (let drained = 0; changed === true && drained < 16 && module.pollSlotEvent() === true; drained++);
        if (changed !== false) this.#scan(module);
      } catch (error) {
        this.#recover(module, error);
      }
    }
  }

  #idle(module: Pkcs11Module): boolean {
    return [...this.#tokens.values()].every((entry) => entry.module !== module || !entry.token.busy);
  }

  #scan(module: Pkcs11Module): void {
    let changed = false;
    let scan: ReturnType<Pkcs11Module['scanSlots']>;
    try {
      scan = module.scanSlots();
    } catch (error) {
      this.#recover(module, error);
      return;
    }
    const seen = new Set<string>();
    for (const present of scan.present) {
      const id = Pkcs11Token.idFor(module, present);
      seen.add(id);
      const known = this.#tokens.get(id);
      if (known) {
        known.token.rebind(present);
        continue;
      }
      const token = new Pkcs11Token(module, present, {
        clock: this.#options.clock,
        loginIdleMs: this.#options.loginIdleMs,
        onRemoved: () => setImmediate(() => this.#scan(module)),
      });
      this.#tokens.set(id, { module, token });
      changed = true;
    }
    for (const [id, entry] of this.#tokens) {
      if (entry.module !== module || seen.has(id)) continue;
      this.#tokens.delete(id);
      void entry.token.release().catch(() => undefined);
      changed = true;
    }
    const key = `${module.spec.name}: unrecognised`;
    if (scan.unrecognised.length > 0) {
      this.#problems.set(key, {
        source: module.spec.name,
        message: `A token in ${scan.unrecognised.join(', ')} is not recognised by ${module.spec.name}. ${ADD_MODULE_HINT}`,
        code: 'ERR_TOKEN_NOT_RECOGNISED',
      });
    } else {
      this.#problems.delete(key);
    }
    if (changed) for (const listener of this.#listeners) listener();
  }

  /** After CKR_CRYPTOKI_NOT_INITIALIZED or a removal the module's state is unknown: start it afresh when idle. */
  #recover(module: Pkcs11Module, error: unknown): void {
    if (!isRemoval(error) || !this.#idle(module)) {
      this.#problem(module.spec, error);
      return;
    }
    try {
      module.reinitialize();
      this.#scan(module);
    } catch (again) {
      this.#problem(module.spec, again);
    }
  }

  #problem(spec: Pkcs11ModuleSpec, error: unknown): void {
    this.#problems.set(spec.name, {
      source: spec.name,
      message: error instanceof Error ? error.message : String(error),
      ...(isStationError(error) ? { code: error.code } : {}),
    });
  }
}
