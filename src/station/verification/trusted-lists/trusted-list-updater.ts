import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { CachedList, TrustRefreshResult } from '../../../core/schemas/trust-api.js';
import { x509 } from '../../pki/x509.js';
import { euLotlAnnouncements } from './eu-lotl-announcements.js';
import { fetchTrustedList, MAX_LIST_BYTES } from './fetch-trusted-list.js';
import { followPivots, type SignerAnnouncement } from './follow-pivots.js';
import { parseTrustedList, parseTrustedListDocument } from './parse-trusted-list.js';
import { TrustListError } from './trust-list-error.js';
import type { TrustStore } from './trust-store.js';
import type { Document } from '@xmldom/xmldom';
import { PivotChainError } from './pivot-chain-error.js';
import { readableCertificates } from './readable-certificates.js';
import type { ListPointer, TrustedList } from './trusted-list.js';
import { verifyListSignature } from './verify-list-signature.js';

/** The EU list of lists, and the id the station keeps it (and the national lists it points to) under. */
export const EU_LOTL_URL = 'https://ec.europa.eu/tools/lotl/eu-lotl.xml';
export const EU = 'eu';

type ListOutcome = TrustRefreshResult['lists'][number];

interface Target {
  lotl: string;
  kind: CachedList['kind'];
  url: string | null;
  /** Checks the list's signature against what is announced for it; `what` names the list in a refusal. */
  check: (parsed: ParsedList, what: string) => Promise<unknown>;
  /** A national list must be the territory its pointer names. */
  territory?: string;
}

/** Where the pivots of a list of lists are read from: an import's files, the cache, the network. */
type PivotReader = (url: string) => Promise<string>;

const POINTER_PARALLELISM = 4;

/**
 * Brings trusted lists into the cache: fetched (refresh) or from files (import); each list's signature verified
 * against the certificates announced for it (a list of lists: its configured signing certificates; a national list:
 * those its list of lists names for its territory), and refused when its sequence number goes backwards. A refused
 * list leaves the last good copy in place, with the refusal recorded on it.
 */
export class TrustedListUpdater {
  readonly #store: TrustStore;
  readonly #now: () => Date;

  constructor(store: TrustStore, now: () => Date = () => new Date()) {
    this.#store = store;
    this.#now = now;
  }

  /** Every enabled list of lists and the national lists each points to, from their URLs. */
  async refresh(): Promise<TrustRefreshResult> {
    const { euLists, lotls } = this.#store.state;
    const sources = [...(euLists ? [{ id: EU, url: lotls.find((l) => l.id === EU)?.url ?? EU_LOTL_URL }] : []), ...lotls.filter((l) => l.id !== EU && l.url !== null)];
    const lists: ListOutcome[] = [];
    for (const source of sources) lists.push(...(await this.#refreshLotl(source.id, source.url!)));
    return { lists };
  }

  /** A list of lists from its URL, trusted with these signing certificates (PEM), then the lists it points to. */
  async importUrl(url: string, signersPem: readonly string[]): Promise<TrustRefreshResult> {
    const fetched = await fetchTrustedList(url, undefined);
    if (!fetched.changed) throw new TrustListError('ERR_TRUST_LIST_FETCH_FAILED', `${url} sent no list.`);
    const id = await this.#acceptLotl(fetched.xml, url, signersPem, { etag: fetched.etag, lastModified: fetched.lastModified }, this.#fetchedPivot);
    return { lists: [{ territory: this.#store.cached(id, 'lotl', this.#lotlTerritory(id))!.territory, url, outcome: 'updated', message: 'list of lists imported' }, ...(await this.#refreshPointers(id))] };
  }

  /**
   * Lists from a file or a folder's *.xml (lists of lists first, then national lists, each checked against a list
   * of lists already known or imported with it). `signersPem` trusts a list of lists other than the EU's.
   */
  async importPath(path: string, signersPem: readonly string[] = []): Promise<TrustRefreshResult> {
    const files = (await stat(path)).isDirectory() ? (await readdir(path)).filter((name) => name.toLowerCase().endsWith('.xml')).sort().map((name) => join(path, name)) : [path];
    return this.importLists(await Promise.all(files.map(async (file) => ({ file, xml: await readBounded(file) }))), signersPem);
  }

  /** Lists given as XML (a file's name and text), as importPath takes them: for a drop in the window's Settings. */
  async importLists(read: ReadonlyArray<{ file: string; xml: string }>, signersPem: readonly string[] = []): Promise<TrustRefreshResult> {
    // Each file is parsed once: to take lists of lists first, and then to verify and store it.
    const parsed = read.map((entry) => ({ ...entry, ...parse(entry.xml) }));
    const lists: ListOutcome[] = [];
    // Of a territory's lists of lists the newest is imported; the older ones are there as its pivots.
    const lotlFiles = parsed.filter((entry) => entry.list.pointers.length > 0);
    const newest = lotlFiles.filter((entry) => !lotlFiles.some((other) => other.list.territory === entry.list.territory && other.list.sequenceNumber > entry.list.sequenceNumber));
    const byName = new Map(read.map(({ file, xml }) => [basename(file), xml]));
    const fromFiles: PivotReader = async (url) => {
      const xml = byName.get(basename(new URL(url).pathname)) ?? (await this.#store.readPivot(url));
      if (xml === undefined) throw new Error(`it is neither among the files imported nor kept here; add ${basename(new URL(url).pathname)} to them`);
      return xml;
    };
    for (const { file, xml, doc, list } of newest) {
      lists.push(await this.#outcome(file, null, async () => {
        await this.#acceptLotl(xml, null, signersPem, null, fromFiles, { doc, list });
        return 'updated';
      }));
    }
    const lotls = await this.#cachedLotls();
    for (const { file, xml, doc, list } of parsed.filter((entry) => entry.list.pointers.length === 0)) {
      lists.push(await this.#outcome(file, null, () => this.#acceptNationalFromAnyLotl(xml, doc, list, lotls)));
    }
    return { lists };
  }

  async #acceptLotl(xml: string, url: string | null, signersPem: readonly string[], validators: Validators | null, pivots: PivotReader, parsed: ParsedList = parse(xml)): Promise<string> {
    const { list } = parsed;
    if (list.pointers.length === 0) throw new TrustListError('ERR_TRUST_LIST_INVALID', `The list ${list.territory} points to no other list: it is not a list of lists.`);
    const id = lotlIdOf(list);
    await this.#accept(xml, { lotl: id, kind: 'lotl', url, check: this.#lotlCheck(id, signersPem, pivots) }, validators, parsed);
    if (signersPem.length > 0 || url !== null) await this.#store.setLotl(id, url, signersPem);
    return id;
  }

  async #acceptNationalFromAnyLotl(xml: string, doc: Document, list: TrustedList, lotls: Array<{ id: string; lotl: TrustedList }>): Promise<ListOutcome['outcome']> {
    const candidates = lotls.flatMap(({ id, lotl }) => lotl.pointers.filter((p) => p.territory === list.territory).map((pointer) => ({ id, pointer })));
    if (candidates.length === 0) throw new TrustListError('ERR_TRUST_LIST_UNANNOUNCED', `No list of lists known here points to a list for ${list.territory}: import the list of lists first.`);
    let last: unknown;
    for (const { id, pointer } of candidates) {
      try {
        return await this.#accept(xml, { lotl: id, kind: 'national', url: null, check: nationalCheck(pointer), territory: pointer.territory }, null, { doc, list });
      } catch (error) {
        last = error;
      }
    }
    throw last;
  }

  /**
   * What may sign a list of lists: for the EU's, the Official Journal's announcements shipped with the station; and
   * the certificates the person gave for it, now or before. Its signature is checked through its pivots, and the
   * pivots followed are kept.
   */
  #lotlCheck(id: string, signersPem: readonly string[], pivots: PivotReader): Target['check'] {
    return async (parsed, what) => {
      const added = [...(this.#store.state.lotls.find((lotl) => lotl.id === id)?.signers ?? []), ...signersPem];
      const given: SignerAnnouncement = { reference: 'given here', uri: null, certificates: added.flatMap((pem) => x509.PemConverter.decode(pem).map((der) => new x509.X509Certificate(der))), fingerprints: [] };
      const announcements = [...(id === EU ? await euLotlAnnouncements() : []), ...(given.certificates.length > 0 ? [given] : [])];
      const followed = await followPivots(parsed, announcements, pivots, what);
      for (const pivot of followed) await this.#store.savePivot(pivot.url, pivot.xml);
    };
  }

  /** A pivot from the cache (pivots never change once published), else fetched within the lists' bounds. */
  readonly #fetchedPivot: PivotReader = async (url) => {
    const kept = await this.#store.readPivot(url);
    if (kept !== undefined) return kept;
    const fetched = await fetchTrustedList(url, undefined);
    if (!fetched.changed) throw new Error('the server sent no list');
    return fetched.xml;
  };

  async #refreshLotl(id: string, url: string): Promise<ListOutcome[]> {
    const lotlOutcome = await this.#outcome(url, url, async () => {
      const cached = this.#store.cached(id, 'lotl', this.#lotlTerritory(id));
      const fetched = await fetchTrustedList(url, cached);
      if (!fetched.changed) return this.#unchanged(cached!);
      return this.#accept(fetched.xml, { lotl: id, kind: 'lotl', url, check: this.#lotlCheck(id, [], this.#fetchedPivot) }, fetched);
    });
    return [lotlOutcome, ...(await this.#refreshPointers(id))];
  }

  /** The national lists the cached (last good) list of lists points to, a few at a time. */
  async #refreshPointers(id: string): Promise<ListOutcome[]> {
    const lotl = (await this.#cachedLotls()).find((entry) => entry.id === id)?.lotl;
    const pointers = (lotl?.pointers ?? []).filter((p) => !/listofthelists/i.test(p.type) && !/pdf/i.test(p.mimeType) && !/\.pdf$/i.test(p.location));
    const outcomes: ListOutcome[] = new Array<ListOutcome>(pointers.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let index = next++; index < pointers.length; index = next++) {
        const pointer = pointers[index]!;
        outcomes[index] = await this.#outcome(pointer.territory, pointer.location, async () => {
          const cached = this.#store.cached(id, 'national', pointer.territory);
          const fetched = await fetchTrustedList(pointer.location, cached);
          if (!fetched.changed) return this.#unchanged(cached!);
          return this.#accept(fetched.xml, { lotl: id, kind: 'national', url: pointer.location, check: nationalCheck(pointer), territory: pointer.territory }, fetched);
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(POINTER_PARALLELISM, pointers.length) }, worker));
    return outcomes;
  }

  async #accept(xml: string, target: Target, validators: Validators | null, { doc, list }: ParsedList = parse(xml)): Promise<ListOutcome['outcome']> {
    const what = `The trusted list ${list.territory}${target.url ? ` from ${target.url}` : ''}`;
    if (target.territory !== undefined && list.territory !== target.territory) throw new TrustListError('ERR_TRUST_LIST_UNANNOUNCED', `${what} was refused: its list of lists points to it for ${target.territory}.`);
    await target.check({ doc, list }, what);
    const previous = this.#store.cached(target.lotl, target.kind, list.territory);
    if (previous && list.sequenceNumber < previous.sequenceNumber) {
      throw new TrustListError('ERR_TRUST_LIST_ROLLED_BACK', `${what} was refused: its sequence number ${list.sequenceNumber} goes back from ${previous.sequenceNumber}, the one kept.`);
    }
    const now = this.#now().toISOString();
    if (previous && list.sequenceNumber === previous.sequenceNumber) return this.#unchanged(previous, validators);
    await this.#store.saveList(
      {
        lotl: target.lotl,
        kind: target.kind,
        territory: list.territory,
        url: target.url ?? previous?.url ?? null,
        sequenceNumber: list.sequenceNumber,
        issuedAt: list.issuedAt.toISOString(),
        nextUpdate: list.nextUpdate?.toISOString() ?? null,
        fetchedAt: now,
        etag: validators?.etag ?? null,
        lastModified: validators?.lastModified ?? null,
        services: list.services.length,
        refused: null,
      },
      xml,
    );
    return 'updated';
  }

  async #unchanged(cached: CachedList, validators?: Validators | null): Promise<'unchanged'> {
    await this.#store.amend(cached, { fetchedAt: this.#now().toISOString(), refused: null, ...(validators ? { etag: validators.etag, lastModified: validators.lastModified } : {}) });
    return 'unchanged';
  }

  /** Runs one list's update; a failure is that list's outcome (and recorded on its kept copy), not the whole run's. */
  async #outcome(label: string, url: string | null, work: () => Promise<ListOutcome['outcome']>): Promise<ListOutcome> {
    try {
      const outcome = await work();
      return { territory: label, url, outcome, message: outcome === 'updated' ? 'verified and stored' : 'no newer list' };
    } catch (error) {
      if (!(error instanceof TrustListError)) throw error;
      const pivot = error instanceof PivotChainError ? { pivot: error.step } : {};
      const kept = this.#store.state.lists.find((list) => list.url !== null && list.url === url);
      if (kept) await this.#store.amend(kept, { refused: { at: this.#now().toISOString(), reason: error.message, ...pivot } });
      return { territory: label, url, outcome: 'refused', message: kept ? `${error.message} The copy of ${kept.issuedAt.slice(0, 10)} is kept.` : error.message, ...pivot };
    }
  }

  async #cachedLotls(): Promise<Array<{ id: string; lotl: TrustedList }>> {
    const lotls = this.#store.state.lists.filter((list) => list.kind === 'lotl');
    return Promise.all(lotls.map(async (entry) => ({ id: entry.lotl, lotl: parseTrustedList(parseTrustedListDocument(await this.#store.readList(entry))) })));
  }

  #lotlTerritory(id: string): string {
    return this.#store.state.lists.find((list) => list.kind === 'lotl' && list.lotl === id)?.territory ?? (id === EU ? 'EU' : id.toUpperCase());
  }
}

type Validators = { etag: string | null; lastModified: string | null };

/** A list's XML parsed, and what the station reads from it: each list is parsed once per update. */
interface ParsedList {
  doc: Document;
  list: TrustedList;
}

function parse(xml: string): ParsedList {
  const doc = parseTrustedListDocument(xml);
  return { doc, list: parseTrustedList(doc) };
}

/** The EU's list of lists is kept as "eu"; another scheme's by its territory. */
function lotlIdOf(list: TrustedList): string {
  return list.territory === 'EU' ? EU : list.territory.toLowerCase();
}

/** A national list is checked against the certificates its list of lists' pointer announces for it. */
function nationalCheck(pointer: ListPointer): Target['check'] {
  return ({ doc }, what) => verifyListSignature(doc, readableCertificates(pointer.certificates), what);
}

async function readBounded(file: string): Promise<string> {
  if ((await stat(file)).size > MAX_LIST_BYTES) throw new TrustListError('ERR_TRUST_LIST_TOO_LARGE', `${file} is larger than any trusted list: refused.`);
  return readFile(file, 'utf8');
}
