import { watch, type FSWatcher } from 'node:fs';
import type { Overview } from '../../core/schemas/admin-api.js';
import type { Pkcs11ModulesView } from '../../core/schemas/pkcs11-modules.js';
import type { StationState } from '../../core/schemas/station-state.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { TokenRegistry } from '../tokens/token-registry.js';
import type { UiPromptBroker } from '../prompts/ui-prompt-broker.js';
import { TokenSnapshots } from './token-snapshots.js';
import { DESK_CLIENT_ID } from '../../core/constants.js';

/** Changes arriving together (a prompt answered, the audit entry, the token's new PIN status) make one event. */
const SETTLE_MS = 40;
/**
 * Another process's commit reaches the WAL file (what the watcher sees) before the WAL index that makes it
 * visible, the fsync of synchronous=FULL in between: a check right after the write can miss it, and nothing may be
 * written after it. So a write that looked like the station's own is checked once more this much later.
 */
const LATE_COMMIT_MS = 500;
const AUDIT_ENTRIES = 50;

export interface StationStateFeedDeps {
  station: () => Overview['station'];
  /** Where the window saves its results now. */
  outputDir: () => string;
  clients: Pick<ClientRegistry, 'list'>;
  audit: Pick<AuditLog, 'list'>;
  tokens: TokenRegistry;
  prompts: Pick<UiPromptBroker, 'pending' | 'onChange'>;
  modules?: () => Promise<Pkcs11ModulesView>;
  /** The store shared with other processes; absent in hosts that keep none. */
  sharedStore?: SharedStore;
}

/**
 * The data directory is watched for writes, the station's own and other processes' (the CLI adding a module,
 * importing a PKCS#12 file, registering a client). Every write may change what the window shows; only another
 * process's makes the station reload what it keeps in memory (`reload`), which reads the disk and every module
 * path: done for the station's own writes, that ran 25 times a second under timestamping or OIDC load.
 */
export interface SharedStore {
  dataDir: string;
  changedElsewhere(): Promise<boolean>;
  reload(): Promise<void>;
}

/**
 * The one source of what the station window shows, pushed to it: every change (tokens and readers plugged in and
 * out, prompts opened and answered, the store written by this process or by the CLI) yields a new state for the
 * subscribers, and only when something differs. Reading it never waits on a token or a prompt.
 */
export class StationStateFeed {
  readonly #deps: StationStateFeedDeps;
  readonly #tokens: TokenSnapshots;
  readonly #listeners = new Set<(state: StationState) => void>();
  readonly #unsubscribe: Array<() => void> = [];
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  #lateCommitTimer: NodeJS.Timeout | undefined;
  #last = '';
  #storeChanged = false;

  constructor(deps: StationStateFeedDeps) {
    this.#deps = deps;
    this.#tokens = new TokenSnapshots(deps.tokens, () => this.changed());
  }

  /** Describes the tokens present and starts listening; call once the token sources run. */
  async start(): Promise<void> {
    this.#unsubscribe.push(this.#deps.tokens.onChange(() => this.#tokensChanged()));
    // A prompt opening or closing often means a token operation began or ended: its PIN status may have moved.
    this.#unsubscribe.push(this.#deps.prompts.onChange(() => this.#tokensChanged()));
    if (this.#deps.sharedStore) {
      this.#watcher = watch(this.#deps.sharedStore.dataDir, (_event, file) => {
        if (file === 'station.sqlite' || file === 'station.sqlite-wal') this.#storeWritten();
      });
      this.#watcher.unref();
    }
    await this.#tokens.refresh();
  }

  stop(): void {
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    this.#watcher?.close();
    clearTimeout(this.#timer);
    clearTimeout(this.#lateCommitTimer);
    this.#listeners.clear();
  }

  async state(): Promise<StationState> {
    const [clients, audit, modules, { tokens, problems }] = await Promise.all([
      this.#deps.clients.list(),
      this.#deps.audit.list(AUDIT_ENTRIES),
      this.#deps.modules?.(),
      this.#tokens.current(),
    ]);
    return {
      station: this.#deps.station(),
      // The station's own desk client is the window itself, not a web client the user manages.
      clients: clients.filter((client) => client.clientId !== DESK_CLIENT_ID),
      tokens,
      readers: this.#deps.tokens.readers(),
      problems,
      prompts: this.#deps.prompts.pending(),
      audit,
      ...(modules ? { modules } : {}),
      outputDir: this.#deps.outputDir(),
    };
  }

  /** Calls `listener` with every new state until the returned function is called. */
  subscribe(listener: (state: StationState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Something the window shows may have changed: publish once things settle, if it did. */
  changed(): void {
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      void this.#publish();
    }, SETTLE_MS);
  }

  #tokensChanged(): void {
    void this.#tokens.refresh();
    this.changed();
  }

  #storeWritten(): void {
    this.#storeChanged = true;
    this.changed();
  }

  async #publish(): Promise<void> {
    const store = this.#deps.sharedStore;
    if (this.#storeChanged && store) {
      this.#storeChanged = false;
      if (!(await this.#reloadIfChangedElsewhere(store))) this.#lateCommitTimer ??= this.#checkForLateCommit(store);
      // Token operations usually write the audit log: their PIN status is worth reading again too.
      void this.#tokens.refresh();
    }
    if (this.#listeners.size === 0) return;
    const state = await this.state().catch(() => undefined);
    if (!state) return;
    const text = JSON.stringify(state);
    if (text === this.#last) return;
    this.#last = text;
    for (const listener of this.#listeners) listener(state);
  }

  /** Reloads the store if another process committed to it since the last check; answers whether it did. */
  async #reloadIfChangedElsewhere(store: SharedStore): Promise<boolean> {
    if (!(await store.changedElsewhere().catch(() => true))) return false;
    await store.reload().catch(() => undefined);
    return true;
  }

  /** Not re-armed by its own check: under load, the station's writes make it run once per LATE_COMMIT_MS at most. */
  #checkForLateCommit(store: SharedStore): NodeJS.Timeout {
    const timer = setTimeout(() => {
      void this.#reloadIfChangedElsewhere(store).then((reloaded) => {
        this.#lateCommitTimer = undefined;
        if (reloaded) this.#tokensChanged();
      });
    }, LATE_COMMIT_MS);
    timer.unref();
    return timer;
  }
}
