import { PassThrough, type Readable } from 'node:stream';
import { DOMParser } from '@xmldom/xmldom';
import yauzl from 'yauzl';
import { UnsupportedDocumentError } from '../signing-errors.js';
import { mediaTypeOf } from './media-type-of.js';
import { ASICE_MEDIA_TYPE, ASICS_MEDIA_TYPE } from './asic-media-types.js';
import { ContainerTooLargeError } from './container-too-large-error.js';

const MANIFEST_NS = 'urn:oasis:names:tc:opendocument:xmlns:manifest:1.0';
/** More entries than a signed container carries; a zip claiming more is refused before anything is read. */
export const MAX_ASICE_ENTRIES = 10_000;
/**
 * The manifest is read into a DOM, which costs a few hundred bytes of memory per byte of hostile (deeply nested)
 * XML: 256 KiB holds a manifest of some 2 000 files and bounds that cost.
 */
export const MAX_MANIFEST_BYTES = 256 * 1024;
const MAX_MIMETYPE_BYTES = 256;
/** All entries together, inflated: far above any document set a person signs, far below a zip bomb. */
export const MAX_ASICE_TOTAL_BYTES = 2 * 1024 ** 3;
/**
 * Inflated size over stored size for an entry above a mebibyte. Documents, images and text deflate by ten or
 * less; only redundant filler (a bomb's zeros) reaches the hundreds deflate allows.
 */
export const MAX_ASICE_COMPRESSION_RATIO = 100;
const RATIO_APPLIES_ABOVE = 1024 * 1024;
const BDOC_MEDIA_TYPE = 'application/vnd.bdoc-1.0';

export interface AsiceEntry {
  name: string;
  compressed: boolean;
  entry: yauzl.Entry;
}

/** An existing ASiC-E container (EN 319 162-1), read entry by entry with yauzl; nothing is held in memory whole. */
export class AsiceContainerReader {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    readonly entries: AsiceEntry[],
    /** The container's mimetype: ASiC-E, or ASiC-S when opened with `acceptAsicS`. */
    public mediaType: string,
    /** Data files (root-level payload) with their media types from the manifest. */
    readonly dataFiles: { name: string; mediaType: string }[],
  ) {}

  /** True when `head` (the file's first bytes) is a zip whose first entry is a stored `mimetype`. */
  static looksLikeContainer(head: Buffer): boolean {
    return head.length >= 38 && head.readUInt32LE(0) === 0x04034b50 && head.toString('latin1', 30, 38) === 'mimetype';
  }

  /**
   * `lenientMimetype` is for verification: containers made by other software may have their mimetype compressed,
   * not first, or none (their signatures still verify); the media type is then the mimetype entry's wherever it is,
   * or ASiC-E without one. Signing keeps the strict form, which it also writes. `acceptNoDataFile` is for
   * verification too: a container with nothing in it to sign is read, and its signatures said to be malformed.
   */
  static async open(path: string, options: { acceptAsicS?: boolean; lenientMimetype?: boolean; acceptNoDataFile?: boolean } = {}): Promise<AsiceContainerReader> {
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true }, (err, z) => (err ? reject(err) : resolve(z))),
    ).catch((cause: Error) => {
      throw new UnsupportedDocumentError(`Not a readable ASiC-E container: ${cause.message}`, { cause });
    });
    const entries: AsiceEntry[] = [];
    await new Promise<void>((resolve, reject) => {
      const names = new Set<string>();
      let total = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        // Declared sizes, checked before a byte is inflated; yauzl (validateEntrySizes) then stops any entry that
        // inflates past its declared size, so these bounds hold for the bytes actually read too.
        total += entry.uncompressedSize;
        if (total > MAX_ASICE_TOTAL_BYTES) return reject(new ContainerTooLargeError(`The container is too large: its entries hold more than ${MAX_ASICE_TOTAL_BYTES} bytes.`, { entry: entry.fileName, limit: MAX_ASICE_TOTAL_BYTES }));
        if (entry.uncompressedSize > RATIO_APPLIES_ABOVE && entry.uncompressedSize > MAX_ASICE_COMPRESSION_RATIO * entry.compressedSize) {
          return reject(new ContainerTooLargeError(`The container's entry ${entry.fileName} is too large: it inflates more than ${MAX_ASICE_COMPRESSION_RATIO} times.`, { entry: entry.fileName, limit: MAX_ASICE_COMPRESSION_RATIO }));
        }
        // Two entries of one name make "the file" ambiguous: which one was signed, which one is shown?
        if (names.has(entry.fileName)) return reject(new UnsupportedDocumentError(`Not a valid ASiC-E container: the entry ${entry.fileName} appears twice.`));
        if (names.size >= MAX_ASICE_ENTRIES) return reject(new UnsupportedDocumentError(`The container has more than ${MAX_ASICE_ENTRIES} entries.`));
        names.add(entry.fileName);
        entries.push({ name: entry.fileName, compressed: entry.compressionMethod !== 0, entry });
        zip.readEntry();
      });
      zip.on('end', resolve);
      zip.on('error', reject);
      zip.readEntry();
    }).catch((cause: unknown) => {
      zip.close();
      throw cause instanceof UnsupportedDocumentError || cause instanceof ContainerTooLargeError ? cause : new UnsupportedDocumentError(`Not a readable ASiC-E container: ${(cause as Error).message}`, { cause });
    });
    const reader = new AsiceContainerReader(zip, entries, ASICE_MEDIA_TYPE, []);
    try {
      const first = entries[0];
      reader.mediaType = first && first.name === 'mimetype' && !first.compressed ? (await reader.readText('mimetype', MAX_MIMETYPE_BYTES)).trim() : '';
      if (!reader.mediaType && options.lenientMimetype) {
        reader.mediaType = entries.some((e) => e.name === 'mimetype') ? (await reader.readText('mimetype', MAX_MIMETYPE_BYTES)).trim() : ASICE_MEDIA_TYPE;
        if (reader.mediaType === BDOC_MEDIA_TYPE) reader.mediaType = ASICE_MEDIA_TYPE; // BDOC 1.0: the ASiC-E of Estonian signers
      }
      if (reader.mediaType !== ASICE_MEDIA_TYPE && !(options.acceptAsicS && reader.mediaType === ASICS_MEDIA_TYPE)) {
        throw new UnsupportedDocumentError('Not an ASiC-E container: the first entry must be a stored mimetype of application/vnd.etsi.asic-e+zip.');
      }
      const manifestTypes = new Map<string, string>();
      if (entries.some((e) => e.name === 'META-INF/manifest.xml')) {
        const manifest = await reader.readText('META-INF/manifest.xml', MAX_MANIFEST_BYTES);
        if (/<!DOCTYPE/i.test(manifest)) throw new UnsupportedDocumentError('The container’s manifest.xml declares a DOCTYPE, which ASiC-E manifests never do.');
        const doc = parseManifest(manifest);
        const fileEntries = doc.getElementsByTagNameNS(MANIFEST_NS, 'file-entry');
        for (let i = 0; i < fileEntries.length; i++) {
          const e = fileEntries[i]!;
          manifestTypes.set(e.getAttributeNS(MANIFEST_NS, 'full-path') ?? '', e.getAttributeNS(MANIFEST_NS, 'media-type') ?? '');
        }
      }
      for (const e of entries) {
        if (e.name === 'mimetype' || e.name.startsWith('META-INF/') || e.name.endsWith('/')) continue;
        reader.dataFiles.push({ name: e.name, mediaType: manifestTypes.get(e.name) || mediaTypeOf(e.name) });
      }
      if (reader.dataFiles.length === 0 && !options.acceptNoDataFile) throw new UnsupportedDocumentError('The ASiC-E container holds no data file to sign.');
      return reader;
    } catch (error) {
      reader.close();
      throw error;
    }
  }

  /** Names of the existing XAdES signature files. */
  get signatureFiles(): string[] {
    return this.entries.map((e) => e.name).filter((n) => /^META-INF\/.*signatures.*\.xml$/i.test(n));
  }

  /**
   * The entry's inflated bytes. An entry that inflates past its declared size fails as too large at that byte
   * (yauzl counts them); any other fault of the stream as damaged.
   */
  async openEntry(name: string): Promise<Readable> {
    const found = this.entries.find((e) => e.name === name);
    if (!found) throw new UnsupportedDocumentError(`The container has no entry ${name}.`);
    const stream = await new Promise<Readable>((resolve, reject) =>
      this.zip.openReadStream(found.entry, (err, opened) => (err ? reject(new UnsupportedDocumentError(`The container's entry ${name} cannot be read: ${err.message}`, { cause: err })) : resolve(opened))),
    );
    const out = new PassThrough();
    stream.on('error', (cause: Error) =>
      out.destroy(
        /too many bytes/.test(cause.message)
          ? new ContainerTooLargeError(`The container's entry ${name} is too large: it inflates past the ${found.entry.uncompressedSize} bytes it declares.`, { entry: name, limit: found.entry.uncompressedSize })
          : new UnsupportedDocumentError(`The container's entry ${name} is damaged: ${cause.message}`, { cause }),
      ),
    );
    return stream.pipe(out);
  }

  /** The entry as text, refused unread when its (verified) size is above `maxBytes`. */
  private async readText(name: string, maxBytes: number): Promise<string> {
    const size = this.entries.find((e) => e.name === name)?.entry.uncompressedSize ?? 0;
    if (size > maxBytes) throw new UnsupportedDocumentError(`The container’s ${name} is ${size} bytes; at most ${maxBytes} are accepted.`);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of await this.openEntry(name)) chunks.push(chunk as Buffer);
    } catch (cause) {
      if (cause instanceof UnsupportedDocumentError || cause instanceof ContainerTooLargeError) throw cause;
      throw new UnsupportedDocumentError(`The container's entry ${name} is damaged: ${(cause as Error).message}`, { cause });
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  close(): void {
    this.zip.close();
  }
}

function parseManifest(text: string): ReturnType<DOMParser['parseFromString']> {
  try {
    return new DOMParser().parseFromString(text, 'application/xml');
  } catch (cause) {
    throw new UnsupportedDocumentError(`The container's manifest.xml is not well-formed XML: ${(cause as Error).message}`, { cause });
  }
}
