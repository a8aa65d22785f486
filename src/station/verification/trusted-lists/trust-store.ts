import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { addedCertificateSchema, cachedListSchema, type CachedList } from '../../../core/schemas/trust-api.js';
import { writeFileAtomic } from '../../files/write-file-atomic.js';
import { TrustListError } from './trust-list-error.js';

const stateSchema = z.object({
  euLists: z.boolean().default(true),
  /** Lists of lists other than the EU's, and signing certificates added for the EU's: id and PEM certificates. */
  lotls: z.array(z.object({ id: z.string(), url: z.string().nullable(), signers: z.array(z.string()) })).default([]),
  lists: z.array(cachedListSchema).default([]),
  added: z.array(addedCertificateSchema.extend({ pem: z.string() })).default([]),
});
export type TrustState = z.infer<typeof stateSchema>;

/**
 * The trust a person manages, in the data directory's `trust` folder: `state.json` (EU lists on or off, lists of
 * lists, added certificates, and per cached list its sequence number, next update and HTTP validators) and each
 * list's XML under `lists/`. Every write is atomic: a crash leaves the old state or the new one.
 */
export class TrustStore {
  readonly #dir: string;
  #state: TrustState;
  #queue: Promise<void> = Promise.resolve();

  private constructor(dir: string, state: TrustState) {
    this.#dir = dir;
    this.#state = state;
  }

  static async open(dataDir: string): Promise<TrustStore> {
    const dir = join(dataDir, 'trust');
    const text = await readFile(join(dir, 'state.json'), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '{}';
      throw error;
    });
    const parsed = stateSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new TrustListError('ERR_TRUST_LIST_INVALID', `The trust settings in ${join(dir, 'state.json')} cannot be read (${parsed.error.issues[0]?.message ?? 'invalid'}).`, { status: 500 });
    return new TrustStore(dir, parsed.data);
  }

  get state(): TrustState {
    return this.#state;
  }

  /** The cached list of this list of lists and territory (a list of lists is its own `lotl`). */
  cached(lotl: string, kind: CachedList['kind'], territory: string): CachedList | undefined {
    return this.#state.lists.find((list) => list.lotl === lotl && list.kind === kind && list.territory === territory);
  }

  async readList(list: CachedList): Promise<string> {
    return readFile(join(this.#dir, 'lists', list.file), 'utf8');
  }

  /** Stores a list's XML (named by its SHA-256) and its entry in place of the same list's previous copy. */
  async saveList(entry: Omit<CachedList, 'file'>, xml: string): Promise<void> {
    const file = `${createHash('sha256').update(xml).digest('hex').slice(0, 32)}.xml`;
    await mkdir(join(this.#dir, 'lists'), { recursive: true, mode: 0o700 });
    await writeFileAtomic(join(this.#dir, 'lists', file), xml, { mode: 0o600 });
    const previous = this.cached(entry.lotl, entry.kind, entry.territory);
    await this.#update((state) => ({ ...state, lists: [...state.lists.filter((list) => list !== previous), { ...entry, file }] }));
    if (previous && previous.file !== file && !this.#state.lists.some((list) => list.file === previous.file)) await rm(join(this.#dir, 'lists', previous.file), { force: true });
  }

  /** A pivot of a list of lists kept from an earlier update (by its address), or undefined. */
  async readPivot(url: string): Promise<string | undefined> {
    return readFile(this.#pivotFile(url), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
  }

  /** Keeps a pivot whose signature held: published pivots never change, so it is fetched once. */
  async savePivot(url: string, xml: string): Promise<void> {
    await mkdir(join(this.#dir, 'pivots'), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.#pivotFile(url), xml, { mode: 0o600 });
  }

  #pivotFile(url: string): string {
    return join(this.#dir, 'pivots', `${createHash('sha256').update(url).digest('hex').slice(0, 32)}.xml`);
  }

  /** Records a refused newer copy (or an unchanged fetch) on the cached entry; the list itself is kept. */
  async amend(list: CachedList, change: Partial<Pick<CachedList, 'refused' | 'fetchedAt' | 'etag' | 'lastModified'>>): Promise<void> {
    await this.#update((state) => ({ ...state, lists: state.lists.map((entry) => (entry.file === list.file && entry.territory === list.territory && entry.lotl === list.lotl ? { ...entry, ...change } : entry)) }));
  }

  async setLotl(id: string, url: string | null, signers: readonly string[]): Promise<void> {
    const current = this.#state.lotls.find((lotl) => lotl.id === id);
    const merged = { id, url: url ?? current?.url ?? null, signers: [...new Set([...(current?.signers ?? []), ...signers])] };
    await this.#update((state) => ({ ...state, lotls: [...state.lotls.filter((lotl) => lotl.id !== id), merged] }));
  }

  async setEuLists(enabled: boolean): Promise<void> {
    await this.#update((state) => ({ ...state, euLists: enabled }));
  }

  async setAdded(added: TrustState['added']): Promise<void> {
    await this.#update((state) => ({ ...state, added }));
  }

  /** Changes run one at a time, each on the state the previous one left: lists fetched in parallel lose no entry. */
  #update(change: (state: TrustState) => TrustState): Promise<void> {
    const run = this.#queue.then(async () => {
      const next = change(this.#state);
      await mkdir(this.#dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(join(this.#dir, 'state.json'), `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
      this.#state = next;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
