import type { ClientRegistry } from '../clients/client-registry.js';
import { TsaIpAllowlist } from './tsa-ip-allowlist.js';

/** A client's allow list as read (or being read), and once read, the list itself. */
interface CacheEntry {
  expires: number;
  allowlist: Promise<TsaIpAllowlist>;
  settled?: TsaIpAllowlist;
}

/**
 * Each client's allowed IP addresses for timestamping, read from the registry at most once per `cacheMs` (a read
 * costs about as much CPU as the rest of a request without its signature, so a changed list applies within that
 * time). An unknown client id takes exactly the path of a known one: the same registry read, an allow list (empty)
 * cached the same way, the same check. Nothing in the answer or its timing tells which ids exist. The cache keeps
 * the `maxEntries` ids looked up last, so made-up ids cannot grow it.
 */
export class TsaClientAccess {
  readonly #clients: Pick<ClientRegistry, 'find'>;
  readonly #cacheMs: number;
  readonly #maxEntries: number;
  readonly #cache = new Map<string, CacheEntry>();

  constructor(clients: Pick<ClientRegistry, 'find'>, { cacheMs = 1000, maxEntries = 1024 }: { cacheMs?: number; maxEntries?: number } = {}) {
    this.#clients = clients;
    this.#cacheMs = cacheMs;
    this.#maxEntries = maxEntries;
  }

  /**
   * The allow list when a fresh one is already read, without a promise: the route checks it on the request's own
   * turn of the event loop. Undefined when it must be read (allowlist()).
   */
  cached(clientId: string): TsaIpAllowlist | undefined {
    const cached = this.#cache.get(clientId);
    return cached && cached.expires > performance.now() ? cached.settled : undefined;
  }

  allowlist(clientId: string): Promise<TsaIpAllowlist> {
    const now = performance.now();
    const cached = this.#cache.get(clientId);
    if (cached && cached.expires > now) return cached.allowlist;
    const allowlist = this.#clients.find(clientId).then((client) => new TsaIpAllowlist(client?.allowedIps ?? []));
    this.#cache.delete(clientId); // re-inserted last: the Map's order is the order of use
    const entry: CacheEntry = { expires: now + this.#cacheMs, allowlist };
    this.#cache.set(clientId, entry);
    allowlist.then((settled) => (entry.settled = settled), () => undefined);
    if (this.#cache.size > this.#maxEntries) this.#cache.delete(this.#cache.keys().next().value!);
    allowlist.catch(() => {
      if (this.#cache.get(clientId)?.allowlist === allowlist) this.#cache.delete(clientId);
    });
    return allowlist;
  }
}
