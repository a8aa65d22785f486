import { createHash } from 'node:crypto';
import type { TrustAddRequest, TrustRefreshResult, TrustSources } from '../../../core/schemas/trust-api.js';
import { x509 } from '../../pki/x509.js';
import type { TrustAnchor } from '../../ports/trust-source.js';
import { parseTrustedList, parseTrustedListDocument } from './parse-trusted-list.js';
import { TrustListError } from './trust-list-error.js';
import { TrustStore } from './trust-store.js';
import type { LoadedList } from './trusted-list-trust-source.js';
import { EU, EU_LOTL_URL, TrustedListUpdater } from './trusted-list-updater.js';
import type { TrustedList } from './trusted-list.js';

/** Parsed lists by cached file name: a station verifying again parses no list twice. */
const parsed = new Map<string, TrustedList>();

/**
 * The trust a person manages, for `signing-station trust` and the Settings API: the trust sources in one view,
 * certificates added and removed, EU lists on or off, refresh and import; and the anchors it all gives.
 */
export class ManagedTrust {
  readonly #store: TrustStore;

  private constructor(store: TrustStore) {
    this.#store = store;
  }

  static async open(dataDir: string): Promise<ManagedTrust> {
    return new ManagedTrust(await TrustStore.open(dataDir));
  }

  get updater(): TrustedListUpdater {
    return new TrustedListUpdater(this.#store);
  }

  sources(stationTsa: readonly Uint8Array[]): TrustSources {
    const { euLists, lotls, lists, added } = this.#store.state;
    const tsaRoot = stationTsa[stationTsa.length - 1];
    const tsa = tsaRoot ? new x509.X509Certificate(Uint8Array.from(tsaRoot)) : undefined;
    return {
      euLists: { enabled: euLists, url: lotls.find((l) => l.id === EU)?.url ?? EU_LOTL_URL },
      lists: lists.map(({ file: _file, etag: _etag, lastModified: _lastModified, ...list }) => list),
      added: added.map(({ pem: _pem, ...certificate }) => certificate),
      stationTsa: tsa ? { subject: tsa.subject, fingerprint: fingerprintOf(tsa) } : null,
    };
  }

  /** Trusts a certificate (PEM or base64 DER) for signatures and timestamps; with a fingerprint, only that one. */
  async add(request: TrustAddRequest): Promise<TrustSources['added'][number]> {
    const certificate = readCertificate(request.certificate);
    const fingerprint = fingerprintOf(certificate);
    if (request.fingerprint !== undefined && request.fingerprint !== fingerprint) {
      throw new TrustListError('ERR_TRUST_CERTIFICATE_INVALID', `The certificate's SHA-256 fingerprint is ${fingerprint}, not the ${request.fingerprint} asked to trust: nothing was added.`);
    }
    const entry = { fingerprint, subject: certificate.subject, notAfter: certificate.notAfter.toISOString(), addedAt: new Date().toISOString(), pem: certificate.toString('pem') };
    const others = this.#store.state.added.filter((a) => a.fingerprint !== fingerprint);
    await this.#store.setAdded([...others, entry]);
    const { pem: _pem, ...shown } = entry;
    return shown;
  }

  async remove(fingerprint: string): Promise<void> {
    const { added } = this.#store.state;
    if (!added.some((a) => a.fingerprint === fingerprint)) throw new TrustListError('ERR_TRUST_CERTIFICATE_NOT_FOUND', `No added certificate has the fingerprint ${fingerprint}; \`signing-station trust list\` shows them.`, { status: 404 });
    await this.#store.setAdded(added.filter((a) => a.fingerprint !== fingerprint));
  }

  async setEuLists(enabled: boolean): Promise<void> {
    await this.#store.setEuLists(enabled);
  }

  refresh(): Promise<TrustRefreshResult> {
    return this.updater.refresh();
  }

  /** The certificates the person added, as anchors for signatures and timestamps. */
  addedAnchors(): TrustAnchor[] {
    return this.#store.state.added.map(({ pem, fingerprint }) => ({ certificate: new x509.X509Certificate(pem), serviceTypes: ['CA', 'TSA'], status: 'granted', statusSince: null, source: `certificate added here (SHA-256 ${fingerprint.slice(0, 16)}…)` }));
  }

  /** The cached national lists in use (the EU's only while they are on), parsed once per process. */
  async lists(): Promise<LoadedList[]> {
    const { euLists, lists } = this.#store.state;
    const used = lists.filter((list) => list.kind === 'national' && (euLists || list.lotl !== EU));
    return Promise.all(
      used.map(async (entry) => {
        let list = parsed.get(entry.file);
        if (!list) {
          list = parseTrustedList(parseTrustedListDocument(await this.#store.readList(entry)));
          parsed.set(entry.file, list);
        }
        return { list, source: `trusted list ${entry.territory} (sequence ${entry.sequenceNumber})` };
      }),
    );
  }
}

export function fingerprintOf(certificate: x509.X509Certificate): string {
  return createHash('sha256').update(new Uint8Array(certificate.rawData)).digest('hex');
}

function readCertificate(text: string): x509.X509Certificate {
  try {
    const der = text.includes('-----BEGIN') ? x509.PemConverter.decode(text)[0] : Buffer.from(text.replace(/\s+/g, ''), 'base64');
    if (!der) throw new Error('no certificate in it');
    return new x509.X509Certificate(der);
  } catch (cause) {
    throw new TrustListError('ERR_TRUST_CERTIFICATE_INVALID', `That is not a certificate (PEM or DER): ${(cause as Error).message}.`, { cause });
  }
}
