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
const AUDIT_ENTRIES = 50;

export interface StationStateFeedDeps {
  station: () => Overview['station'];
  outputDir: string;
  clients: Pick<ClientRegistry, 'list'>;
  audit: Pick<AuditLog, 'list'>;
  tokens: TokenRegistry;
  prompts: Pick<UiPromptBroker, 'pending' | 'onChange'>;
  modules?: () => Promise<Pkcs11ModulesView>;
  /**
   * The data directory, watched for writes by other processes (the CLI adding a module, importing a PKCS#12
   * file, registering a client): `onStoreChanged` reloads what the station keeps in memory, then the window
   * hears about it. Absent in hosts that keep no shared store.
   */
  dataDir?: string;
  onStoreChanged?: () => Promise<void>;
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
    if (this.#deps.dataDir) {
      this.#watcher = watch(this.#deps.dataDir, (_event, file) => {
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
      outputDir: this.#deps.outputDir,
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
    if (this.#storeChanged && this.#deps.onStoreChanged) {
      this.#storeChanged = false;
      // Token operations usually write the audit log: their PIN status is worth reading again too.
      await this.#deps.onStoreChanged().catch(() => undefined);
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
}
