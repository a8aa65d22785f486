import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import type { HashAlgorithm, SignatureScheme } from '../tokens/token.js';
import { AsiceContainerReader } from './asice/asice-container-reader.js';
import { ASICE_MEDIA_TYPE } from './asice/asic-media-types.js';
import { mediaTypeOf } from './asice/media-type-of.js';
import { XadesBaselineSignature } from './asice/xades-baseline-signature.js';
import { AtomicOutputFile } from '../files/atomic-output-file.js';
import { outputNaming } from './output-naming.js';
import { commitOutput } from './commit-output.js';
import { digestAlgorithms } from './digest-algorithms.js';
import { signerChain } from './signer-chain.js';
import { baselinePlan } from './baseline-level.js';
import { collectValidationMaterial, timestampTokenChain, type ValidationMaterial } from './validation-material.js';
import { checkOutputPath } from './input-output-paths.js';
import { SignerCertificate } from './signer-certificate.js';
import type { FinishOptions, PrepareOptions, PreparedSignature } from './signing-options.js';
import { DocumentChangedError, SignatureValueInvalidError } from './signing-errors.js';
import type { TimestampClient } from '../tsa/timestamp-client.js';
import { timestampSignature } from './signature-timestamp.js';

/** Everything finish needs, JSON-safe. It names a file on disk: keep it on the station, never hand it to a browser. */
export interface AsiceSigningState {
  format: 'asice';
  /** Set when a signature is added to this existing container; absent when the data files make a new one. */
  containerPath?: string;
  /** `path` is where a new container's file is read from at finish. */
  dataFiles: { name: string; mediaType: string; digest: string; size: number; path?: string }[];
  signatureName: string;
  hashAlgorithm: HashAlgorithm;
  /** The XAdES document, SignatureValue still empty. */
  xml: string;
  /** Base64 canonical SignedInfo: the signed bytes. */
  signedInfo: string;
  certificate: string;
  /** The scheme prepare chose for this key (the certificate and its token together): SignedInfo names it. */
  signatureScheme: SignatureScheme;
  /** Base64 DER issuers embedded in ds:KeyInfo, nearest first (absent in states from before B-LT). */
  chain?: string[];
}

/** A file to put into a new container: where it is on disk, its name inside the container, its media type. */
export interface AsiceDataFile {
  path: string;
  /** Default: the path's base name. */
  name?: string;
  /** Default: from the name's extension. */
  mediaType?: string;
}

async function isAsiceContainer(path: string): Promise<boolean> {
  const head = Buffer.alloc(38);
  const handle = await open(path, 'r');
  try {
    const { bytesRead } = await handle.read(head, 0, 38, 0);
    return AsiceContainerReader.looksLikeContainer(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** Passes bytes through while hashing them and counting them for progress. */
function hashing(hashAlgorithm: HashAlgorithm, onBytes: (n: number) => void): Transform & { digest: () => string } {
  const hash = createHash(digestAlgorithms[hashAlgorithm].nodeName);
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      onBytes(chunk.length);
      callback(null, chunk);
    },
  });
  return Object.assign(transform, { digest: () => hash.digest('base64') });
}

/** Runs `source` through `through` to its end; a fault of either (an entry too large, say) ends it with that error. */
async function drain(source: Readable, through: Transform): Promise<void> {
  await pipeline(source, through, async (chunks: AsyncIterable<unknown>) => {
    for await (const _ of chunks);
  });
}

function manifest(dataFiles: readonly { name: string; mediaType: string }[]): string {
  const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">\n` +
    `<manifest:file-entry manifest:full-path="/" manifest:media-type="${ASICE_MEDIA_TYPE}"/>\n` +
    dataFiles.map((f) => `<manifest:file-entry manifest:full-path="${esc(f.name)}" manifest:media-type="${esc(f.mediaType)}"/>\n`).join('') +
    `</manifest:manifest>\n`
  );
}

/**
 * ASiC-E with XAdES baselines B-B to B-LTA (ETSI EN 319 162-1, EN 319 132-1) in two steps. Plain files become a new
 * container (mimetype first and stored, the files, META-INF/manifest.xml, META-INF/signatures0.xml); an existing
 * container gets one more META-INF/signaturesN.xml with every other entry copied unchanged, so earlier signatures
 * stay valid. Zip reading and writing are yauzl/yazl, streamed.
 */
export class AsiceEngine {
  /** An existing container opened as adding a signature will (entries, sizes, manifest); other files need no reading. */
  static async inspect(path: string): Promise<void> {
    if (await isAsiceContainer(path)) (await AsiceContainerReader.open(path)).close();
  }

  /**
   * `input`: an existing ASiC-E container (one more signature is added), any other single file, or several files
   * (a new container holding them).
   */
  static async prepare(input: string | readonly AsiceDataFile[], options: PrepareOptions): Promise<PreparedSignature<AsiceSigningState>> {
    const hashAlgorithm = options.hashAlgorithm ?? 'SHA-256';
    const signer = new SignerCertificate(options.certificate, options.keySchemes);
    const containerPath = typeof input === 'string' && (await isAsiceContainer(input)) ? input : undefined;
    const { dataFiles, signatureName } = containerPath
      ? await AsiceEngine.#hashContainerFiles(containerPath, hashAlgorithm, options.onProgress)
      : { dataFiles: await AsiceEngine.#hashNewFiles(typeof input === 'string' ? [{ path: input }] : input, hashAlgorithm, options.onProgress), signatureName: 'META-INF/signatures0.xml' };
    const chain = await signerChain(options);
    const { xml, signedInfo } = XadesBaselineSignature.prepare({
      dataObjects: dataFiles.map((f) => ({ name: f.name, mediaType: f.mediaType, digest: new Uint8Array(Buffer.from(f.digest, 'base64')) })),
      signer,
      chain,
      hashAlgorithm,
      time: options.time ?? new Date(),
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
    });
    return {
      dataToSignDigest: createHash(digestAlgorithms[hashAlgorithm].nodeName).update(signedInfo).digest('hex'),
      digestAlgorithm: hashAlgorithm,
      signatureScheme: signer.signatureScheme,
      dataToSign: signedInfo.toString('base64'),
      state: {
        format: 'asice',
        ...(containerPath ? { containerPath } : {}),
        dataFiles,
        signatureName,
        hashAlgorithm,
        xml,
        signedInfo: signedInfo.toString('base64'),
        certificate: Buffer.from(options.certificate).toString('base64'),
        signatureScheme: signer.signatureScheme,
        chain: chain.map((c) => Buffer.from(c).toString('base64')),
      },
    };
  }

  /** The data files of an existing container, hashed, and the name its next signature file takes. */
  static async #hashContainerFiles(
    containerPath: string,
    hashAlgorithm: HashAlgorithm,
    onProgress: PrepareOptions['onProgress'],
  ): Promise<{ dataFiles: AsiceSigningState['dataFiles']; signatureName: string }> {
    const reader = await AsiceContainerReader.open(containerPath);
    try {
      const sizeOf = (name: string): number => reader.entries.find((e) => e.name === name)!.entry.uncompressedSize;
      const progress = progressOver(reader.dataFiles.reduce((n, f) => n + sizeOf(f.name), 0), onProgress);
      const dataFiles: AsiceSigningState['dataFiles'] = [];
      for (const file of reader.dataFiles) {
        const hash = hashing(hashAlgorithm, progress);
        await drain(await reader.openEntry(file.name), hash);
        dataFiles.push({ ...file, digest: hash.digest(), size: sizeOf(file.name) });
      }
      const existing = new Set(reader.entries.map((e) => e.name));
      let signatureName = 'META-INF/signatures0.xml';
      for (let n = 1; existing.has(signatureName); n++) signatureName = `META-INF/signatures${n}.xml`;
      return { dataFiles, signatureName };
    } finally {
      reader.close();
    }
  }

  /** Files for a new container, each name checked (relative, not reserved, unique) before its bytes are hashed. */
  static async #hashNewFiles(files: readonly AsiceDataFile[], hashAlgorithm: HashAlgorithm, onProgress: PrepareOptions['onProgress']): Promise<AsiceSigningState['dataFiles']> {
    if (files.length === 0) throw new TypeError('AsiceEngine.prepare needs at least one file');
    const sizes = await Promise.all(files.map(async (f) => (await stat(f.path)).size));
    const progress = progressOver(sizes.reduce((a, b) => a + b, 0), onProgress);
    const dataFiles: AsiceSigningState['dataFiles'] = [];
    for (const [i, file] of files.entries()) {
      const name = file.name ?? basename(file.path);
      if (name === 'mimetype' || name.startsWith('META-INF/') || name.startsWith('/') || name.split('/').includes('..') || name.endsWith('/')) {
        throw new InvalidInputError(`"${name}" cannot be a data file name in an ASiC-E container.`, { dataFileName: ['reserved or not a relative file path'] });
      }
      if (dataFiles.some((f) => f.name === name)) throw new InvalidInputError(`Two data files are named "${name}".`, { dataFileName: ['must be unique'] });
      const hash = hashing(hashAlgorithm, progress);
      await drain(createReadStream(file.path, { highWaterMark: 1024 * 1024 }), hash);
      dataFiles.push({ name, mediaType: file.mediaType ?? mediaTypeOf(name), digest: hash.digest(), size: sizes[i]!, path: file.path });
    }
    return dataFiles;
  }

  /** B-LT material; certificates already in ds:KeyInfo are not repeated in CertificateValues. */
  static async #validationMaterial(signer: Uint8Array, state: AsiceSigningState, timestampToken: Uint8Array | undefined): Promise<ValidationMaterial> {
    const keyInfo = [signer, ...(state.chain ?? []).map((c) => new Uint8Array(Buffer.from(c, 'base64')))];
    const material = await collectValidationMaterial(keyInfo, timestampToken ? [await timestampTokenChain(timestampToken)] : []);
    const embedded = new Set(keyInfo.map((c) => Buffer.from(c).toString('base64')));
    return { ...material, certificates: material.certificates.filter((c) => !embedded.has(Buffer.from(c).toString('base64'))) };
  }

  /** B-LTA: an archive timestamp over the data objects' bytes (read again) and the signature as it stands. */
  static async #addArchiveTimestamp(doc: Parameters<typeof XadesBaselineSignature.serialise>[0], state: AsiceSigningState, client: TimestampClient): Promise<void> {
    const hash = createHash(digestAlgorithms[state.hashAlgorithm].nodeName);
    const reader = state.containerPath ? await AsiceContainerReader.open(state.containerPath) : undefined;
    try {
      for (const file of state.dataFiles) {
        const stream = reader ? await reader.openEntry(file.name) : createReadStream(file.path!, { highWaterMark: 1024 * 1024 });
        for await (const chunk of stream) hash.update(chunk as Buffer);
      }
    } finally {
      reader?.close();
    }
    for (const part of XadesBaselineSignature.archiveTimestampInputAfterData(doc)) hash.update(part);
    const token = await timestampSignature(client, new Uint8Array(hash.digest()), state.hashAlgorithm);
    XadesBaselineSignature.addArchiveTimestamp(doc, token);
  }

  /** Writes the signed container and resolves with its path (outputPath, or a numbered variant with numberWhenTaken). */
  static async finish(state: AsiceSigningState, value: Uint8Array, options: FinishOptions): Promise<string> {
    const signatureXml = await AsiceEngine.#finishedSignatureXml(state, value, options);
    const { zip, digests, reader } = await AsiceEngine.#containerZip(state, signatureXml, options);
    try {
      return await AsiceEngine.#writeContainer(zip, state, digests, options);
    } finally {
      reader?.close();
    }
  }

  /** The signature value checked and set, then the unsigned properties the baseline asks for (timestamp, LT, LTA). */
  static async #finishedSignatureXml(state: AsiceSigningState, value: Uint8Array, options: FinishOptions): Promise<Buffer> {
    const plan = baselinePlan(options);
    const signer = new SignerCertificate(new Uint8Array(Buffer.from(state.certificate, 'base64')), [state.signatureScheme]);
    const signatureValue = signer.rawSignatureValue(value);
    if (!signer.verifies(Buffer.from(state.signedInfo, 'base64'), signatureValue, state.hashAlgorithm)) throw new SignatureValueInvalidError();
    for (const input of state.containerPath ? [state.containerPath] : state.dataFiles.map((f) => f.path!)) {
      await checkOutputPath(input, options.outputPath, options);
    }
    const { doc, timestampInput } = XadesBaselineSignature.withSignatureValue(state.xml, signatureValue);
    let timestampToken: Uint8Array | undefined;
    if (plan.timestampClient) {
      const imprint = new Uint8Array(createHash(digestAlgorithms[state.hashAlgorithm].nodeName).update(timestampInput).digest());
      timestampToken = await timestampSignature(plan.timestampClient, imprint, state.hashAlgorithm);
    }
    const material = plan.longTerm ? await AsiceEngine.#validationMaterial(signer.der, state, timestampToken) : undefined;
    XadesBaselineSignature.addUnsignedProperties(doc, timestampToken, material);
    if (plan.archiveTimestamp) await AsiceEngine.#addArchiveTimestamp(doc, state, plan.timestampClient!);
    return Buffer.from(XadesBaselineSignature.serialise(doc), 'utf8');
  }

  /**
   * The container's entries as streams: the existing container's (co-signing) or mimetype, the data files and the
   * manifest (a new one), then the signature. Data files are hashed on the way so that a file changed since
   * prepare is caught before the output is committed.
   */
  static async #containerZip(
    state: AsiceSigningState,
    signatureXml: Buffer,
    options: FinishOptions,
  ): Promise<{ zip: yazl.ZipFile; digests: Map<string, ReturnType<typeof hashing>>; reader: AsiceContainerReader | undefined }> {
    const zip = new yazl.ZipFile();
    const entryOptions = { forceDosTimestamp: true } as const;
    const digests = new Map<string, ReturnType<typeof hashing>>();
    let done = 0;
    const total = state.dataFiles.reduce((n, f) => n + f.size, 0);
    const progress = (n: number): void => {
      done += n;
      options.onProgress?.(done, total);
    };
    let reader: AsiceContainerReader | undefined;
    if (state.containerPath) {
      reader = await AsiceContainerReader.open(state.containerPath);
      for (const entry of reader.entries) {
        if (entry.name.endsWith('/')) continue;
        let stream = await reader.openEntry(entry.name);
        if (state.dataFiles.some((f) => f.name === entry.name)) {
          const hash = hashing(state.hashAlgorithm, progress);
          digests.set(entry.name, hash);
          stream = stream.pipe(hash);
        }
        zip.addReadStream(stream, entry.name, { ...entryOptions, compress: entry.compressed, mtime: entry.entry.getLastModDate() });
      }
    } else {
      zip.addBuffer(Buffer.from(ASICE_MEDIA_TYPE), 'mimetype', { ...entryOptions, compress: false });
      for (const file of state.dataFiles) {
        const hash = hashing(state.hashAlgorithm, progress);
        digests.set(file.name, hash);
        zip.addReadStream(createReadStream(file.path!, { highWaterMark: 1024 * 1024 }).pipe(hash), file.name, entryOptions);
      }
      zip.addBuffer(Buffer.from(manifest(state.dataFiles)), 'META-INF/manifest.xml', entryOptions);
    }
    zip.addBuffer(signatureXml, state.signatureName, entryOptions);
    zip.end();
    return { zip, digests, reader };
  }

  /** Streams the container into an atomic output, committed only when every data file still has its digest. */
  static async #writeContainer(zip: yazl.ZipFile, state: AsiceSigningState, digests: Map<string, ReturnType<typeof hashing>>, options: FinishOptions): Promise<string> {
    const output = await AtomicOutputFile.create(options.outputPath, { ...outputNaming(options), ...(options.outputMode !== undefined ? { mode: options.outputMode } : {}) });
    try {
      for await (const chunk of zip.outputStream) await output.write(chunk as Buffer);
      for (const file of state.dataFiles) {
        if (digests.get(file.name)?.digest() !== file.digest) throw new DocumentChangedError();
      }
      return await commitOutput(output);
    } catch (error) {
      await output.abort();
      throw error;
    }
  }
}

/** Reports bytes hashed so far against a known total. */
function progressOver(total: number, onProgress: PrepareOptions['onProgress']): (bytes: number) => void {
  let done = 0;
  return (bytes) => {
    done += bytes;
    onProgress?.(done, total);
  };
}
