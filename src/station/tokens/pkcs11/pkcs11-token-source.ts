import type { Clock } from '../../ports/clock.js';
import type { Token, TokenSource } from '../token.js';
import type { SourceProblem } from '../token-registry.js';
import { isStationError } from '../../../core/errors/station-error.js';
import type { Pkcs11Module } from './pkcs11-module.js';
import type { Pkcs11ModuleSpec } from './pkcs11-module-spec.js';
import type { Pkcs11Token } from './pkcs11-token.js';
import { importWithPkcs11js } from './import-with-pkcs11js.js';
import { Pkcs11UnavailableError } from './pkcs11-unavailable-error.js';

type Pkcs11Bridge = typeof import('./pkcs11-bridge.js');

/** The name the problem of a missing pkcs11js goes under, in place of each module's. */
const PKCS11_SOURCE = 'PKCS#11';

export interface Pkcs11TokenSourceOptions {
  /** The modules to load; resolved on start() and on each refreshModules(), so user-added modules take effect. */
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
  /** Modules that could not be loaded, by module name; rebuilt on each refresh. */
  readonly #loadProblems = new Map<string, SourceProblem>();
  /** Per loaded module: what its last scan or poll ran into. */
  readonly #scanProblems = new Map<string, SourceProblem>();
  readonly #listeners = new Set<() => void>();
  #timer: NodeJS.Timeout | undefined;
  #lastReinitialize = 0;
  #running = false;
  /** Imported with the first module to load; every module and token below was made with it. */
  #bridge: Pkcs11Bridge | undefined;

  constructor(options: Pkcs11TokenSourceOptions) {
    this.#options = { pollIntervalMs: 1_000, reinitializeIntervalMs: 3_000, loginIdleMs: 60_000, ...options };
  }

  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#lastReinitialize = performance.now();
    await this.refreshModules();
    this.#timer = setInterval(() => this.poll(), this.#options.pollIntervalMs);
    this.#timer.unref();
  }

  /**
   * Loads modules that were added (by the user, in the UI or the CLI) and unloads those removed since the last
   * start or refresh, without touching the others and their logins.
   */
  async refreshModules(): Promise<void> {
    const specs = await this.#options.modules();
    // Before the loop, which must not wait: two refreshes at once would each load a module the other has not yet.
    if (specs.some((spec) => !this.#modules.has(spec.path))) {
      try {
        this.#bridge ??= await importWithPkcs11js(() => import('./pkcs11-bridge.js'));
      } catch (error) {
        if (!(error instanceof Pkcs11UnavailableError)) throw error;
        // Without pkcs11js no module loads: one problem says why, and what to install.
        this.#loadProblems.clear();
        this.#loadProblems.set(PKCS11_SOURCE, { source: PKCS11_SOURCE, message: error.message, code: error.code });
        return;
      }
    }
    this.#loadProblems.clear();
    const wanted = new Set<string>();
    for (const spec of specs) {
      const loaded = this.#modules.get(spec.path);
      if (wanted.has(spec.path)) {
        // One library is initialised once per process, so a second NSS database on the same softoken cannot open.
        this.#loadProblems.set(spec.name, { source: spec.name, message: `${spec.path} is already loaded for ${loaded?.spec.name ?? 'another entry'}.` });
        continue;
      }
      wanted.add(spec.path);
      if (loaded) continue;
      const module = new (this.#loadedBridge().Pkcs11Module)(spec);
      try {
        module.open();
      } catch (error) {
        this.#loadProblems.set(spec.name, problemOf(spec, error));
        continue;
      }
      this.#modules.set(spec.path, module);
      this.#scan(module);
    }
    for (const module of [...this.#modules.values()]) {
      if (!wanted.has(module.spec.path)) await this.#unload(module);
    }
  }

  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    clearInterval(this.#timer);
    for (const module of [...this.#modules.values()]) await this.#unload(module);
  }

  tokens(): Token[] {
    return [...this.#tokens.values()].map(({ token }) => token);
  }

  /** Modules that failed to load and slots with tokens no loaded module recognises, for the UI and the CLI. */
  problems(): SourceProblem[] {
    return [...this.#loadProblems.values(), ...this.#scanProblems.values()];
  }

  /** Loaded modules, for `tokens modules list`. */
  modules(): Pkcs11ModuleSpec[] {
    return [...this.#modules.values()].map((module) => module.spec);
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  keepLoginFor(ms: number): void {
    this.#options.loginIdleMs = ms;
    for (const { token } of this.#tokens.values()) token.keepLoginFor(ms);
  }

  /** One hot-plug check of every module; the timer calls it, tests may too. */
  poll(): void {
    if (!this.#running) return;
    const reinitializeDue = performance.now() - this.#lastReinitialize >= this.#options.reinitializeIntervalMs;
    if (reinitializeDue) this.#lastReinitialize = performance.now();
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

  #scan(module: Pkcs11Module, mayRecover = true): void {
    let changed = false;
    let scan: ReturnType<Pkcs11Module['scanSlots']>;
    try {
      scan = module.scanSlots();
    } catch (error) {
      if (mayRecover) this.#recover(module, error);
      else this.#scanProblems.set(module.spec.path, problemOf(module.spec, error));
      return;
    }
    const { Pkcs11Token } = this.#loadedBridge();
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
    if (scan.unrecognised.length > 0) {
      this.#scanProblems.set(module.spec.path, {
        source: module.spec.name,
        message: `A token in ${scan.unrecognised.join(', ')} is not recognised by ${module.spec.name}. ${ADD_MODULE_HINT}`,
        code: 'ERR_TOKEN_NOT_RECOGNISED',
      });
    } else {
      this.#scanProblems.delete(module.spec.path);
    }
    if (changed) this.#notify();
  }

  async #unload(module: Pkcs11Module): Promise<void> {
    const tokens = [...this.#tokens].filter(([, entry]) => entry.module === module);
    for (const [id] of tokens) this.#tokens.delete(id);
    await Promise.allSettled(tokens.map(([, entry]) => entry.token.release()));
    this.#modules.delete(module.spec.path);
    this.#scanProblems.delete(module.spec.path);
    try {
      module.close();
    } catch {
      // Finalising a module whose device is gone can fail; the library is unloaded either way.
    }
    if (tokens.length > 0) this.#notify();
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }

  /** The bridge, for work on a module (there is one only once the bridge is loaded). */
  #loadedBridge(): Pkcs11Bridge {
    if (!this.#bridge) throw new Error('PKCS#11 bridge used before any module was loaded');
    return this.#bridge;
  }

  /** After CKR_CRYPTOKI_NOT_INITIALIZED or a removal the module's state is unknown: start it afresh when idle. */
  #recover(module: Pkcs11Module, error: unknown): void {
    if (!this.#loadedBridge().isRemoval(error) || !this.#idle(module)) {
      this.#scanProblems.set(module.spec.path, problemOf(module.spec, error));
      return;
    }
    try {
      module.reinitialize();
      this.#scan(module, false);
    } catch (again) {
      this.#scanProblems.set(module.spec.path, problemOf(module.spec, again));
    }
  }
}

function problemOf(spec: Pkcs11ModuleSpec, error: unknown): SourceProblem {
  return {
    source: spec.name,
    message: error instanceof Error ? error.message : String(error),
    ...(isStationError(error) ? { code: error.code } : {}),
  };
}
