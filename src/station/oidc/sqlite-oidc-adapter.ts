import { errors, type Adapter, type AdapterFactory, type AdapterPayload } from 'oidc-provider';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { Database } from '../store/database.js';
import type { Clock } from '../ports/clock.js';
import { toOidcClientMetadata } from './oidc-client-metadata.js';
import { OneTimeUseLedger } from './one-time-use-ledger.js';

interface CachedModel {
  json: string;
  expiresAt: number | null;
  consumedAt: number | null;
  grantId: string | undefined;
  uid: string | undefined;
}

interface ModelRow {
  payload: string;
  expires_at: number | null;
  consumed_at: number | null;
}

/**
 * Access tokens are only ever looked up by UserInfo, introspection and revocation, none of which the beta profile
 * has: they are not kept at all. Keeping them (in memory, for their 600 s lifetime) would cost a write per token
 * request and hold every token issued in the last 10 minutes. Were such an endpoint ever enabled, it would find
 * none of them: unknown, refused, never wrongly accepted.
 */
const UNKEPT_MODELS = new Set(['AccessToken']);

/**
 * Grants, sessions and authorization codes are written only by this process (the CLI never touches them) and read
 * on every token request: reads are served from a write-through copy, the store stays the durable record. A code's
 * consumption is still decided by the store's conditional update (consume below); the copy only follows it.
 */
const CACHED_MODELS = new Set(['Grant', 'Session', 'AuthorizationCode']);
const CACHE_LIMIT = 10_000;

/**
 * Client registrations are read on every token request; they may also be changed by the CLI in another process,
 * so the copy is trusted only this long.
 */
const CLIENT_CACHE_MS = 2_000;

/** Expired rows are swept at most this often, not on every write. */
const SWEEP_INTERVAL_SECONDS = 60;

/**
 * Ties a write's outcome to the answer of the request that made it (WritesBeforeAnswer): the request goes on, and
 * its answer waits for the commit and turns into the write's error if the store refused it. `defer` lets the write
 * start with the request's next one (or when the answer waits), so that both share one commit.
 */
export interface AnswerWrites {
  hold(write: Promise<void>): Promise<void>;
  defer(start: () => Promise<void>): Promise<void>;
}

/**
 * oidc-provider's storage on the station's SQLite store. Two operations are made atomic here because the
 * provider's own find-then-write would let two concurrent requests both win: recording a client-assertion jti
 * (ReplayDetection) and consuming an authorization code. Both are conditional writes decided by the store; the
 * token request does not wait for them where they are made but before it answers (answerWrites).
 * Longer than our usual function: each model's adapter is a closure over that model's cache and uid index, which
 * all of its methods share; split apart, they would pass that state between them on the token endpoint's hot path.
 */
export function sqliteOidcAdapter(database: Database, clients: ClientRegistry, clock: Clock, answerWrites: AnswerWrites): AdapterFactory {
  const now = (): number => Math.floor(clock.now().getTime() / 1000);
  const ledger = new OneTimeUseLedger(database, now);
  let lastSweep = 0;
  const sweep = async (): Promise<void> => {
    if (now() - lastSweep < SWEEP_INTERVAL_SECONDS) return;
    lastSweep = now();
    await database.run('DELETE FROM oidc_models WHERE expires_at IS NOT NULL AND expires_at < ?', [now()]);
  };

  return (model: string): Adapter => {
    if (model === 'Client') return clientAdapter(clients, clock);
    if (UNKEPT_MODELS.has(model)) return unkeptAdapter();

    // Kept as the JSON the store holds: each read parses a fresh copy (oidc-provider may change what it is given),
    // at a fraction of structuredClone's cost.
    const cache = CACHED_MODELS.has(model) ? new Map<string, CachedModel>() : undefined;
    const uids = new Map<string, string>();
    const cached = (column: string, value: string): AdapterPayload | undefined => {
      const id = column === 'id' ? value : column === 'uid' ? uids.get(value) : undefined;
      const hit = id === undefined ? undefined : cache?.get(id);
      return hit && (hit.expiresAt === null || hit.expiresAt > now()) ? toPayload(hit.json, hit.consumedAt) : undefined;
    };

    const findWhere = async (column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> => {
      const hit = cached(column, value);
      if (hit) return hit;
      const row = await database.get<ModelRow>(
        `SELECT payload, expires_at, consumed_at FROM oidc_models WHERE model = ? AND ${column} = ?`,
        [model, value],
      );
      return row && (row.expires_at === null || row.expires_at > now()) ? toPayload(row.payload, row.consumed_at) : undefined;
    };

    return {
      async upsert(id, payload, expiresIn) {
        const expiresAt = typeof expiresIn === 'number' ? now() + expiresIn : null;
        const json = JSON.stringify(payload);
        if (model === 'ReplayDetection') {
          // oidc-provider always gives a jti its assertion's remaining lifetime; without one it is kept for good.
          // Recorded with the code's consumption that follows in the same request: one commit for both.
          await answerWrites.defer(() =>
            ledger.recordAssertion(id, json, expiresAt ?? Number.MAX_SAFE_INTEGER).then((unique) => {
              if (!unique) throw new errors.InvalidClientAuth('client assertion tokens must only be used once');
            }),
          );
          return;
        }
        await database.run(
          `INSERT INTO oidc_models (model, id, payload, grant_id, uid, user_code, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
             uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`,
          [model, id, json, payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, expiresAt],
        );
        if (cache) {
          if (cache.size >= CACHE_LIMIT) {
            cache.clear();
            uids.clear();
          }
          cache.set(id, { json, expiresAt, consumedAt: null, grantId: payload.grantId, uid: payload.uid });
          if (payload.uid) uids.set(payload.uid, id);
        }
        await sweep();
      },
      // ReplayDetection: oidc-provider finds before it saves; the ledger's conditional insert (upsert above) is what
      // decides, atomically, so the read is skipped (one store round trip less per token request).
      find: (id) => (model === 'ReplayDetection' ? Promise.resolve(undefined) : findWhere('id', id)),
      findByUid: (uid) => findWhere('uid', uid),
      findByUserCode: (userCode) => findWhere('user_code', userCode),
      async consume(id) {
        await answerWrites.hold(ledger.consume(model, id).then((first) => {
          if (!first) {
            cache?.delete(id);
            throw new errors.InvalidGrant(`${model} was already used`);
          }
          // As a read from the store now shows it: a later use is a replay to oidc-provider (it revokes the grant).
          // Uses racing this one are not marked yet: the store decides between them, and exactly one wins.
          const hit = cache?.get(id);
          if (hit) hit.consumedAt = now();
        }));
      },
      async destroy(id) {
        const uid = cache?.get(id)?.uid;
        if (uid) uids.delete(uid);
        cache?.delete(id);
        await database.run('DELETE FROM oidc_models WHERE model = ? AND id = ?', [model, id]);
      },
      async revokeByGrantId(grantId) {
        for (const [key, entry] of cache ?? []) if (entry.grantId === grantId) cache?.delete(key);
        await database.run('DELETE FROM oidc_models WHERE model = ? AND grant_id = ?', [model, grantId]);
      },
    };
  };
}

/** A payload as oidc-provider takes it back: a fresh object, with `consumed` once the store recorded the use. */
function toPayload(json: string, consumedAt: number | null): AdapterPayload {
  const payload = JSON.parse(json) as AdapterPayload;
  if (consumedAt !== null) payload.consumed = consumedAt;
  return payload;
}

function unkeptAdapter(): Adapter {
  return {
    upsert: async () => undefined,
    find: async () => undefined,
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    consume: async () => undefined,
    destroy: async () => undefined,
    revokeByGrantId: async () => undefined,
  };
}

/** Clients come from the station's registry, so `clients add` takes effect (within CLIENT_CACHE_MS) without a restart. */
function clientAdapter(clients: ClientRegistry, clock: Clock): Adapter {
  const readOnly = async (): Promise<never> => {
    throw new TypeError('OIDC clients are managed through the client registry');
  };
  const recent = new Map<string, { metadata: AdapterPayload | undefined; until: number }>();
  return {
    async find(id) {
      const hit = recent.get(id);
      if (hit && hit.until > clock.now().getTime()) return hit.metadata;
      const client = await clients.find(id);
      const metadata = client ? toOidcClientMetadata(client) : undefined;
      if (recent.size >= CACHE_LIMIT) recent.clear();
      recent.set(id, { metadata, until: clock.now().getTime() + CLIENT_CACHE_MS });
      return metadata;
    },
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    upsert: readOnly,
    consume: readOnly,
    destroy: readOnly,
    revokeByGrantId: readOnly,
  };
}
