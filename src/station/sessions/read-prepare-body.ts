import { createHash } from 'node:crypto';
import { mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, Writable, finished, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
// stream-json hands a long string over in chunks: a document's base64 is never one string in memory.
import { parser, type Token } from 'stream-json/parser.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { StationError } from '../../core/errors/station-error.js';
import { stagingPathFor } from '../files/staging-file-name.js';
import { StagedDocument } from './staged-document.js';

/** Every value but the documents' contents, added up: names, reasons, credentials are a few kilobytes at most. */
const OTHER_VALUES_BYTES = 64 * 1024;
/** A prepare body nests three levels (body, files, file); deeper is not a prepare request. */
const MAX_DEPTH = 4;
const HEAD_BYTES = 1024;
/** Decoded bytes gathered before a write: the parser hands a string over in pieces of a few hundred characters. */
const WRITE_BYTES = 256 * 1024;
const BASE64_TEXT = /^[A-Za-z0-9+/]*={0,2}$/;

export interface PrepareBodyOptions {
  /** Bytes of body accepted at most (the route's limit). */
  limitBytes: number;
  /** Where documents are decoded to: a directory of the data directory, created 0700 when missing. */
  uploadsDirectory: string;
  /**
   * Checks the credentials ({client_id, secret} as sent), called once: as soon as both have arrived, before any
   * later byte is read, or at the end of a body that lacks one. A rejection ends the reading there.
   */
  authenticate: (credentials: Record<string, unknown>) => Promise<void>;
}

export interface PrepareBody {
  /** The body as JSON.parse would give it, each `files[i].fileContent` a StagedDocument instead of base64 text. */
  value: unknown;
  /** The files of `value`, for the caller to remove once it has adopted or refused them. */
  staged: StagedDocument[];
}

type Frame = { kind: 'object'; entries: Map<string, unknown>; key: string | undefined } | { kind: 'array'; items: unknown[] };

/**
 * Reads a prepare-files JSON body as it arrives: the credentials are checked the moment both have arrived (an
 * integrator sends them first, so a wrong secret costs a few hundred bytes of reading), and each document's base64
 * is decoded straight into a 0600 file. Memory stays at a chunk and the small fields whatever the body's size. On
 * any failure the files written so far are removed and the rest of the body is left unread for the caller to drain.
 */
export async function readPrepareBody(source: Readable, options: PrepareBodyOptions): Promise<PrepareBody> {
  await mkdir(options.uploadsDirectory, { recursive: true, mode: 0o700 });
  const reader = new BodyAssembler(options);
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > options.limitBytes) done(new StationError('ERR_HTTP_BODY_TOO_LARGE', 'The request body is larger than this endpoint accepts.', { status: 413 }));
      else done(null, chunk);
    },
  });
  const consumer = new Writable({
    objectMode: true,
    write(token: Token, _encoding, done) {
      reader.take(token).then(() => done(), done);
    },
  });
  source.pipe(counter);
  // pipe() does not pass on a client that went away mid-body: without this the reading would wait for ever.
  finished(source, (error) => {
    if (error) counter.destroy(error);
  });
  try {
    await pipeline(counter, parser.asStream({ packValues: false, streamValues: true }), consumer);
    return await reader.finish();
  } catch (error) {
    source.unpipe(counter);
    await reader.discard();
    throw error instanceof StationError ? error : new InvalidInputError(`Invalid prepare-files request: the body is not JSON (${(error as Error).message})`);
  }
}

/** Builds the body from the parser's tokens, with a document's content going to a file instead of a string. */
class BodyAssembler {
  readonly #options: PrepareBodyOptions;
  readonly #stack: Frame[] = [];
  readonly #staged: StagedDocument[] = [];
  #root: unknown;
  #text: string[] | undefined;
  #document: DocumentFile | undefined;
  #otherBytes = 0;
  #authenticated = false;

  constructor(options: PrepareBodyOptions) {
    this.#options = options;
  }

  async take(token: Token): Promise<void> {
    switch (token.name) {
      case 'startObject':
      case 'startArray':
        if (this.#stack.length >= MAX_DEPTH) throw new InvalidInputError('Invalid prepare-files request: nested too deeply.');
        this.#stack.push(token.name === 'startObject' ? { kind: 'object', entries: new Map(), key: undefined } : { kind: 'array', items: [] });
        return;
      case 'endObject':
      case 'endArray': {
        const frame = this.#stack.pop()!;
        return this.#put(frame.kind === 'object' ? Object.fromEntries(frame.entries) : frame.items);
      }
      case 'startKey':
      case 'startNumber':
        this.#text = [];
        return;
      case 'startString':
        if (this.#isDocumentContent()) this.#document = await DocumentFile.create(this.#options.uploadsDirectory);
        else this.#text = [];
        return;
      case 'stringChunk':
      case 'numberChunk':
        if (this.#document) return this.#document.write(token.value);
        this.#otherBytes += token.value.length;
        if (this.#otherBytes > OTHER_VALUES_BYTES) throw new InvalidInputError(`Invalid prepare-files request: its fields other than the documents take more than ${OTHER_VALUES_BYTES} bytes.`);
        this.#text!.push(token.value);
        return;
      case 'endKey':
        return this.#setKey(this.#takeText());
      case 'endString':
        if (this.#document) {
          const document = this.#document;
          this.#document = undefined;
          // Content that is not base64 is reported with the other fields' errors, by the schema: null is no document.
          const staged = await document.finish();
          if (staged) this.#staged.push(staged);
          return this.#put(staged ?? null);
        }
        return this.#put(this.#takeText());
      case 'endNumber':
        return this.#put(Number(this.#takeText()));
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        return this.#put(token.value);
      default:
        return;
    }
  }

  async finish(): Promise<PrepareBody> {
    if (!this.#authenticated) await this.#authenticate();
    return { value: this.#root, staged: this.#staged };
  }

  async discard(): Promise<void> {
    await this.#document?.abort();
    await Promise.all(this.#staged.map((document) => unlink(document.path).catch(() => undefined)));
  }

  #takeText(): string {
    const text = this.#text!.join('');
    this.#text = undefined;
    return text;
  }

  #setKey(key: string): void {
    const frame = this.#stack.at(-1) as Extract<Frame, { kind: 'object' }>;
    // JSON.parse keeps the last of two equal keys; a credential checked before its twin arrived must not be replaced.
    if (frame.entries.has(key)) throw new InvalidInputError(`Invalid prepare-files request: "${key}" appears twice in one object.`);
    frame.key = key;
  }

  async #put(value: unknown): Promise<void> {
    const frame = this.#stack.at(-1);
    if (!frame) {
      this.#root = value;
      return;
    }
    if (frame.kind === 'array') {
      frame.items.push(value);
      return;
    }
    frame.entries.set(frame.key!, value);
    frame.key = undefined;
    if (this.#stack.length === 1 && !this.#authenticated && frame.entries.has('client_id') && frame.entries.has('secret')) await this.#authenticate();
  }

  async #authenticate(): Promise<void> {
    this.#authenticated = true;
    const root = this.#stack[0];
    const entries = root?.kind === 'object' ? root.entries : this.#root !== null && typeof this.#root === 'object' ? new Map(Object.entries(this.#root)) : new Map();
    await this.#options.authenticate({ client_id: entries.get('client_id'), secret: entries.get('secret') });
  }

  /** Whether the string starting now is `files[i].fileContent` of the body. */
  #isDocumentContent(): boolean {
    const [body, files, file] = this.#stack;
    return (
      this.#stack.length === 3 && body?.kind === 'object' && body.key === 'files' && files?.kind === 'array' && file?.kind === 'object' && file.key === 'fileContent'
    );
  }
}

/**
 * One document's base64 decoded into its file as the chunks come. Node has no streaming base64 decoder: chunks are
 * cut at a multiple of four characters and the few left over wait for the next one. Text that is not base64 stops
 * the writing; the rest of the string is read past and finish() says there is no document.
 */
class DocumentFile {
  readonly #hash = createHash('sha256');
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #size = 0;
  #carry = '';
  #valid = true;
  #pending: Buffer[] = [];
  #pendingBytes = 0;

  private constructor(
    readonly path: string,
    readonly handle: FileHandle,
  ) {}

  static async create(directory: string): Promise<DocumentFile> {
    const path = stagingPathFor(join(directory, 'document'));
    return new DocumentFile(path, await open(path, 'wx', 0o600));
  }

  async write(chunk: string): Promise<void> {
    if (!this.#valid) return;
    const text = this.#carry + chunk;
    if (!BASE64_TEXT.test(text)) {
      this.#valid = false;
      return;
    }
    const padding = text.indexOf('=');
    const whole = padding === -1 ? text.length - (text.length % 4) : padding - (padding % 4);
    this.#carry = text.slice(whole);
    await this.#append(Buffer.from(text.slice(0, whole), 'base64'));
  }

  /** The document, or undefined for content that was not base64 or decoded to nothing (its file removed). */
  async finish(): Promise<StagedDocument | undefined> {
    try {
      if (this.#valid) await this.#append(Buffer.from(this.#carry, 'base64'));
      await this.#flush();
      if (!this.#valid || this.#size === 0) {
        await this.abort();
        return undefined;
      }
      await this.handle.sync();
      await this.handle.close();
    } catch (error) {
      await this.abort();
      throw error;
    }
    return new StagedDocument(this.path, this.#size, this.#hash.digest('hex'), Buffer.concat(this.#head));
  }

  async abort(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await unlink(this.path).catch(() => undefined);
  }

  async #append(bytes: Buffer): Promise<void> {
    if (bytes.length === 0) return;
    this.#hash.update(bytes);
    if (this.#headBytes < HEAD_BYTES) {
      this.#head.push(bytes.subarray(0, HEAD_BYTES - this.#headBytes));
      this.#headBytes += Math.min(bytes.length, HEAD_BYTES - this.#headBytes);
    }
    this.#size += bytes.length;
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.length;
    if (this.#pendingBytes >= WRITE_BYTES) await this.#flush();
  }

  async #flush(): Promise<void> {
    if (this.#pendingBytes === 0) return;
    const bytes = Buffer.concat(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    let done = 0;
    while (done < bytes.length) done += (await this.handle.write(bytes, done)).bytesWritten;
  }
}
