import { createHash, type Hash } from 'node:crypto';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import type { HashAlgorithm, SignatureScheme } from '../tokens/token.js';
import { AtomicOutputFile, type AtomicOutputOptions } from '../files/atomic-output-file.js';
import { outputNaming } from './output-naming.js';
import { commitOutput } from './commit-output.js';
import { CadesSignature } from './cms/cades-signature.js';
import { digestAlgorithms } from './digest-algorithms.js';
import { checkOutputPath } from './input-output-paths.js';
import { PdfDocumentReader } from './pdf/pdf-document-reader.js';
import { buildSignatureUpdate, type PdfSignatureUpdate } from './pdf/pdf-signature-update.js';
import { SignerCertificate } from './signer-certificate.js';
import { signerChain } from './signer-chain.js';
import type { FinishOptions, PrepareOptions, PreparedSignature } from './signing-options.js';
import { DocumentChangedError, SignatureTooLargeError, SignatureValueInvalidError } from './signing-errors.js';
import { timestampSignature } from './signature-timestamp.js';
import { baselinePlan } from './baseline-level.js';
import { appendDocumentTimestamp, appendValidationMaterial } from './pdf/pades-long-term.js';
import { collectValidationMaterial, timestampTokenChain } from './validation-material.js';

/** Everything finish needs, JSON-safe. It names a file on disk: keep it on the station, never hand it to a browser. */
export interface PadesSigningState {
  format: 'pades';
  documentPath: string;
  documentSize: number;
  /** Hex SHA-256 of the whole original file: finish refuses if the file changed since prepare. */
  documentSha256: string;
  hashAlgorithm: HashAlgorithm;
  /** Base64 incremental update, /Contents zero-filled. */
  tail: string;
  contentsStart: number;
  contentsEnd: number;
  /** Base64 DER SET OF signed attributes. */
  signedAttributes: string;
  certificate: string;
  /** The scheme prepare chose for this key (the certificate and its token together): the CMS names it. */
  signatureScheme: SignatureScheme;
  chain: string[];
  /**
   * When prepare was given the output path: the copy of the document it hashed, next to the output. Finish appends
   * to it, so the signed bytes are exactly the hashed bytes and the document is read only once.
   */
  staged?: { path: string; target: string } & AtomicOutputOptions;
}

const CHUNK = 1024 * 1024;

const BUFFERS = 4;

/**
 * Reads the whole file into `hashes` and, when given, into `output`, hashing the next chunk while earlier ones are
 * being written. A small ring of reused buffers keeps memory flat whatever the file size (a fresh buffer per read
 * would leave hundreds of megabytes to the garbage collector). Returns the number of bytes read.
 */
async function readThrough(source: FileHandle, hashes: readonly Hash[], output: AtomicOutputFile | undefined, progress?: (done: number) => void): Promise<number> {
  const ring = Array.from({ length: BUFFERS }, () => Buffer.allocUnsafe(CHUNK));
  const pending: (Promise<void> | undefined)[] = new Array(BUFFERS);
  let done = 0;
  try {
    // Promises kept for later are marked handled now, so a failure while another one is awaited cannot become an
    // unhandled rejection; awaiting them later still throws.
    const kept = <T>(promise: Promise<T>): Promise<T> => {
      promise.catch(() => undefined);
      return promise;
    };
    let reading = kept(source.read(ring[0]!, 0, CHUNK, 0));
    for (let i = 0; ; i++) {
      const { bytesRead } = await reading;
      if (bytesRead === 0) break;
      const chunk = ring[i % BUFFERS]!.subarray(0, bytesRead);
      // Read ahead into the next buffer (once its write is done) while this one is hashed.
      const next = (i + 1) % BUFFERS;
      await pending[next];
      reading = kept(source.read(ring[next]!, 0, CHUNK, done + bytesRead));
      for (const hash of hashes) hash.update(chunk);
      if (output) pending[i % BUFFERS] = kept(output.write(chunk));
      done += bytesRead;
      progress?.(done);
    }
  } finally {
    await Promise.allSettled(pending);
  }
  await Promise.all(pending);
  return done;
}

/** Room for the CMS: certificates, signature, a timestamp token with its TSA chain, and slack. */
function reservedContentsSize(certificates: readonly Uint8Array[]): number {
  return 12_288 + certificates.reduce((n, c) => n + c.length, 0);
}

/**
 * PAdES baselines B-B to B-LTA (ETSI EN 319 142-1) in two steps, so the key can live anywhere (token, card, browser
 * iframe): prepare hashes the document's byte ranges and returns the hash of the signed attributes; finish takes
 * the signature value, timestamps it and writes original + incremental update atomically.
 *
 * The signing reason is the signature dictionary's /Reason, inside the signed byte range. No
 * commitment-type-indication attribute is added: EN 319 142-1 forbids it alongside /Reason.
 */
export class PadesEngine {
  static async prepare(documentPath: string, options: PrepareOptions): Promise<PreparedSignature<PadesSigningState>> {
    const hashAlgorithm = options.hashAlgorithm ?? 'SHA-256';
    const signer = new SignerCertificate(options.certificate, options.keySchemes);
    const chain = await signerChain(options);
    if (options.outputPath) await checkOutputPath(documentPath, options.outputPath, options);
    // One open file for the structure and the bytes: a file replaced (renamed over) meanwhile cannot mix in.
    const handle = await open(documentPath, 'r');
    let prepared: { size: number; update: PdfSignatureUpdate; rangeHash: Hash; documentSha256: string; stagedPath: string | undefined };
    try {
      const { size } = await handle.stat();
      const reader = await PdfDocumentReader.open(handle, size);
      const update = await buildSignatureUpdate(reader, {
        signerName: options.signerName ?? signer.displayName,
        time: options.time ?? new Date(),
        ...(options.reason !== undefined ? { reason: options.reason } : {}),
        visible: options.visible ?? false,
        ...(options.page !== undefined ? { page: options.page } : {}),
        ...(options.rect !== undefined ? { rect: options.rect } : {}),
        ...(options.timeZone !== undefined ? { timeZone: options.timeZone } : {}),
        ...(options.stampLanguage !== undefined ? { stampLanguage: options.stampLanguage } : {}),
        contentsSize: reservedContentsSize([options.certificate, ...chain]),
      });
      const { rangeHash, documentSha256, stagedPath } = await PadesEngine.#readDocument(handle, size, hashAlgorithm, options);
      prepared = { size, update, rangeHash, documentSha256, stagedPath };
    } finally {
      await handle.close();
    }
    const { size, update, rangeHash, documentSha256, stagedPath } = prepared;
    rangeHash.update(update.tail.subarray(0, update.contentsStart));
    rangeHash.update(update.tail.subarray(update.contentsEnd));
    const signedAttributes = CadesSignature.signedAttributes(new Uint8Array(rangeHash.digest()), signer, hashAlgorithm);
    return {
      dataToSignDigest: createHash(digestAlgorithms[hashAlgorithm].nodeName).update(signedAttributes).digest('hex'),
      digestAlgorithm: hashAlgorithm,
      signatureScheme: signer.signatureScheme,
      dataToSign: Buffer.from(signedAttributes).toString('base64'),
      state: {
        format: 'pades',
        documentPath,
        documentSize: size,
        documentSha256,
        hashAlgorithm,
        tail: update.tail.toString('base64'),
        contentsStart: update.contentsStart,
        contentsEnd: update.contentsEnd,
        signedAttributes: Buffer.from(signedAttributes).toString('base64'),
        certificate: Buffer.from(options.certificate).toString('base64'),
        signatureScheme: signer.signatureScheme,
        chain: chain.map((c) => Buffer.from(c).toString('base64')),
        ...(stagedPath && options.outputPath ? { staged: { path: stagedPath, target: options.outputPath, ...outputNaming(options) } } : {}),
      },
    };
  }

  /**
   * Reads the document as signing it will, without a signer: every object its cross-reference data lists (the
   * parser's bounds apply to each), then the catalog, form and page the signature goes on. A document that cannot
   * be signed fails here, with the error its signing would end in, before anything is stored or asked.
   */
  static async inspect(documentPath: string, placement: { page?: number } = {}): Promise<void> {
    const handle = await open(documentPath, 'r');
    try {
      const reader = await PdfDocumentReader.open(handle, (await handle.stat()).size);
      for (const num of reader.entries.keys()) await reader.object(num);
      await buildSignatureUpdate(reader, { signerName: '', time: new Date(0), visible: false, ...placement, contentsSize: 0 });
    } finally {
      await handle.close();
    }
  }

  /**
   * Reads the document once: the byte-range hash (continued with the update's bytes by the caller), the
   * document's SHA-256 for the audit log, and, with an output path, a staged copy the signed update is appended to.
   */
  static async #readDocument(
    handle: FileHandle,
    size: number,
    hashAlgorithm: HashAlgorithm,
    options: PrepareOptions,
  ): Promise<{ rangeHash: Hash; documentSha256: string; stagedPath: string | undefined }> {
    const rangeHash = createHash(digestAlgorithms[hashAlgorithm].nodeName);
    const fileHash: Hash = hashAlgorithm === 'SHA-256' ? rangeHash : createHash('sha256');
    const staging = options.outputPath
      ? await AtomicOutputFile.create(options.outputPath, { ...outputNaming(options), ...(options.outputMode !== undefined ? { mode: options.outputMode } : {}) })
      : undefined;
    try {
      const read = await readThrough(handle, fileHash === rangeHash ? [rangeHash] : [rangeHash, fileHash], staging, (done) => options.onProgress?.(done, size));
      if (read !== size) throw new DocumentChangedError();
      await staging?.close();
    } catch (error) {
      await staging?.abort();
      throw error;
    }
    const documentSha256 = (fileHash === rangeHash ? rangeHash.copy() : fileHash).digest('hex');
    return { rangeHash, documentSha256, stagedPath: staging?.tempPath };
  }

  /** Drops what prepare staged on disk; for a signature that will never be finished. */
  static async abort(state: PadesSigningState): Promise<void> {
    if (state.staged) await unlink(state.staged.path).catch(() => undefined);
  }

  /** Writes the signed document and resolves with its path (outputPath, or a numbered variant with numberWhenTaken). */
  static async finish(state: PadesSigningState, value: Uint8Array, options: FinishOptions): Promise<string> {
    const plan = baselinePlan(options);
    const signer = new SignerCertificate(new Uint8Array(Buffer.from(state.certificate, 'base64')), [state.signatureScheme]);
    const signatureValue = signer.rawSignatureValue(value);
    if (state.staged && options.outputPath !== state.staged.target) throw new TypeError('finish must write to the outputPath given to prepare');
    const signedAttributes = new Uint8Array(Buffer.from(state.signedAttributes, 'base64'));
    if (!signer.verifies(signedAttributes, signatureValue, state.hashAlgorithm)) throw new SignatureValueInvalidError();
    if (!state.staged) await checkOutputPath(state.documentPath, options.outputPath, options);

    const chain = state.chain.map((c) => new Uint8Array(Buffer.from(c, 'base64')));
    const timestampToken = plan.timestampClient
      ? await timestampSignature(plan.timestampClient, CadesSignature.timestampImprint(signatureValue, signer, state.hashAlgorithm), state.hashAlgorithm)
      : undefined;
    // Gathered before anything is written: a revoked signer or an unreachable responder leaves no output behind.
    const material = plan.longTerm ? await collectValidationMaterial([signer.der, ...chain], timestampToken ? [await timestampTokenChain(timestampToken)] : []) : undefined;
    const cms = CadesSignature.assemble({ signedAttributes, signatureValue, signer, chain, hashAlgorithm: state.hashAlgorithm, ...(timestampToken ? { timestampToken } : {}) });
    const reserved = (state.contentsEnd - state.contentsStart - 2) / 2;
    if (cms.length > reserved) throw new SignatureTooLargeError(cms.length, reserved);
    const contents = Buffer.alloc(reserved);
    contents.set(cms);
    const tail = Buffer.from(state.tail, 'base64');
    tail.write(contents.toString('hex'), state.contentsStart + 1, 'latin1');
    return PadesEngine.#write(state, tail, options, async (output) => {
      if (!material) return;
      await appendValidationMaterial(output, material, contents);
      if (plan.archiveTimestamp) await appendDocumentTimestamp(output, plan.timestampClient!, state.hashAlgorithm);
    });
  }

  /** Original + signature update, then whatever `extend` appends (B-LT, B-LTA), committed atomically. */
  static async #write(state: PadesSigningState, tail: Buffer, options: FinishOptions, extend: (output: AtomicOutputFile) => Promise<void>): Promise<string> {
    const { staged } = state;
    const output = staged
      ? await AtomicOutputFile.resume(staged.target, staged.path, staged)
      : await AtomicOutputFile.create(options.outputPath, { ...outputNaming(options), ...(options.outputMode !== undefined ? { mode: options.outputMode } : {}) });
    try {
      const total = state.documentSize + tail.length;
      if (staged) {
        if (output.bytesWritten !== state.documentSize) throw new DocumentChangedError();
      } else {
        const check = createHash('sha256');
        const source = await open(state.documentPath, 'r');
        const copied = await readThrough(source, [check], output, (done) => options.onProgress?.(done, total)).finally(() => source.close());
        if (copied !== state.documentSize || check.digest('hex') !== state.documentSha256) throw new DocumentChangedError();
      }
      await output.write(tail);
      await extend(output);
      const written = await commitOutput(output);
      options.onProgress?.(total, total);
      return written;
    } catch (error) {
      await output.abort();
      throw error;
    }
  }
}
