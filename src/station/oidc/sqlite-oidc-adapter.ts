import { errors, type Adapter, type AdapterFactory, type AdapterPayload } from 'oidc-provider';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { Database } from '../store/database.js';
import type { Clock } from '../ports/clock.js';
import { toOidcClientMetadata } from './oidc-client-metadata.js';
import { OneTimeUseLedger } from './one-time-use-ledger.js';

interface ModelRow {
  payload: string;
  expires_at: number | null;
  consumed_at: number | null;
}

/**
 * Access tokens are only ever looked up by UserInfo, introspection and revocation, none of which the beta profile
 * has: they are not kept at all. Were such an endpoint ever enabled, it would find none of them: unknown, refused,
 * never wrongly accepted.
 */
const UNKEPT_MODELS = new Set(['AccessToken']);

/** Expired rows are swept at most this often, not on every write. */
const SWEEP_INTERVAL_SECONDS = 60;

/**
 * oidc-provider's storage on the station's SQLite store. Every write is committed before the provider goes on, so
 * nothing is answered on a decision the store has not kept. Recording a client-assertion jti and consuming an
 * authorization code are conditional writes (OneTimeUseLedger): of two concurrent requests, exactly one wins.
 */
export function sqliteOidcAdapter(database: Database, clients: ClientRegistry, clock: Clock): AdapterFactory {
  const now = (): number => Math.floor(clock.now().getTime() / 1000);
  const ledger = new OneTimeUseLedger(database, now);
  let lastSweep = 0;
  const sweep = async (): Promise<void> => {
    if (now() - lastSweep < SWEEP_INTERVAL_SECONDS) return;
    lastSweep = now();
    await database.run('DELETE FROM oidc_models WHERE expires_at IS NOT NULL AND expires_at < ?', [now()]);
  };

  return (model: string): Adapter => {
    if (model === 'Client') return clientAdapter(clients);
    if (UNKEPT_MODELS.has(model)) return unkeptAdapter();

    const findWhere = async (column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> => {
      const row = await database.get<ModelRow>(`SELECT payload, expires_at, consumed_at FROM oidc_models WHERE model = ? AND ${column} = ?`, [model, value]);
      if (!row || (row.expires_at !== null && row.expires_at <= now())) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      if (row.consumed_at !== null) payload.consumed = row.consumed_at;
      return payload;
    };

    return {
      async upsert(id, payload, expiresIn) {
        const expiresAt = typeof expiresIn === 'number' ? now() + expiresIn : null;
        if (model === 'ReplayDetection') {
          // The store decides whether the jti is new, also between concurrent requests. oidc-provider always gives a
          // jti its assertion's remaining lifetime; without one it is kept for good.
          if (!(await ledger.recordAssertion(id, JSON.stringify(payload), expiresAt ?? Number.MAX_SAFE_INTEGER))) {
            throw new errors.InvalidClientAuth('client assertion tokens must only be used once');
          }
          return;
        }
        await database.run(
          `INSERT INTO oidc_models (model, id, payload, grant_id, uid, user_code, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
             uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`,
          [model, id, JSON.stringify(payload), payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, expiresAt],
        );
        await sweep();
      },
      // oidc-provider looks a jti up before it records it; the conditional insert above decides alone, and a read
      // of the store fewer per token request is worth having.
      find: (id) => (model === 'ReplayDetection' ? Promise.resolve(undefined) : findWhere('id', id)),
      findByUid: (uid) => findWhere('uid', uid),
      findByUserCode: (userCode) => findWhere('user_code', userCode),
      async consume(id) {
        if (!(await ledger.consume(model, id))) throw new errors.InvalidGrant(`${model} was already used`);
      },
      async destroy(id) {
        await database.run('DELETE FROM oidc_models WHERE model = ? AND id = ?', [model, id]);
      },
      async revokeByGrantId(grantId) {
        await database.run('DELETE FROM oidc_models WHERE model = ? AND grant_id = ?', [model, grantId]);
      },
    };
  };
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

/**
 * Clients come from the station's registry, read on each use, so `clients add` takes effect without a restart;
 * their settings only (private_key_jwt needs no secret, so the vault is not asked).
 */
function clientAdapter(clients: ClientRegistry): Adapter {
  const readOnly = async (): Promise<never> => {
    throw new TypeError('OIDC clients are managed through the client registry');
  };
  return {
    async find(id) {
      const client = await clients.findSettings(id);
      return client ? toOidcClientMetadata(client) : undefined;
    },
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    upsert: readOnly,
    consume: readOnly,
    destroy: readOnly,
    revokeByGrantId: readOnly,
  };
}
