import { link, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { numberedFileName } from './numbered-file-name.js';
import { stagingPathFor } from './staging-file-name.js';

/** How many "name (n).ext" variants a numbered commit tries: a folder is not expected to hold that many. */
const MAX_VARIANTS = 1000;

export interface AtomicOutputOptions {
  /** Replace whatever has the target's name (rename) instead of refusing it (link, EEXIST). */
  overwrite?: boolean;
  /**
   * When the target's name is taken at commit, take the first free of `name (2).ext`, `name (3).ext` and so on
   * instead (each claimed by link(2), so two writers never get one name and nothing is ever replaced).
   */
  numberWhenTaken?: boolean;
}

/**
 * An output written atomically: bytes go to a temporary file in the target's directory (same file system, so the
 * final step is a rename), which is fsynced before it takes the target's name, and the directory is fsynced after.
 * Without `overwrite` the target name is claimed with link(2), which fails with EEXIST if anything exists there:
 * no check-then-write race. The temporary file's name carries the writer's pid, so a later run can tell the
 * leftovers of a killed one (removeStaleStagingFiles) from a file still being written. Streams (signed PDFs, containers) and whole buffers (`writeFileAtomic`) both go here.
 * `durable: false` keeps the rename and drops both fsyncs, for files that mean nothing after a crash (the running
 * station's control file): readers still see the old file or the whole new one.
 */
export class AtomicOutputFile {
  private closed = false;

  private constructor(
    readonly target: string,
    readonly tempPath: string,
    readonly handle: FileHandle,
    private readonly naming: AtomicOutputOptions,
    /** Bytes written so far; the next write lands here. */
    private size: number,
    private readonly durable: boolean,
  ) {}

  static async create(target: string, options: AtomicOutputOptions & { mode?: number; durable?: boolean } = {}): Promise<AtomicOutputFile> {
    const tempPath = stagingPathFor(target);
    const handle = await open(tempPath, 'wx', options.mode ?? 0o644);
    return new AtomicOutputFile(target, tempPath, handle, options, 0, options.durable ?? true);
  }

  /** Reopens a temporary file left by `create` (in an earlier step or process) to append to it and commit it. */
  static async resume(target: string, tempPath: string, options: AtomicOutputOptions = {}): Promise<AtomicOutputFile> {
    if (dirname(tempPath) !== dirname(target)) throw new TypeError('the temporary file must be in the target directory');
    const handle = await open(tempPath, 'r+');
    return new AtomicOutputFile(target, tempPath, handle, options, (await handle.stat()).size, true);
  }

  /**
   * Appends `data`. Positions are assigned at call time, so several writes may be in flight at once (the caller
   * hashes the next chunk meanwhile) and still land in call order.
   */
  async write(data: Uint8Array): Promise<void> {
    const position = this.size;
    this.size += data.length;
    let done = 0;
    while (done < data.length) done += (await this.handle.write(data, done, data.length - done, position + done)).bytesWritten;
  }

  get bytesWritten(): number {
    return this.size;
  }

  /** Closes the temporary file without committing it, to `resume` it later. */
  async close(): Promise<void> {
    await this.handle.close();
    this.closed = true;
  }

  /**
   * Makes the file visible under its target name (or, with `numberWhenTaken`, the first free numbered variant) and
   * resolves with the path it took. Rejects with the EEXIST error when the name is taken (no `overwrite`).
   */
  async commit(): Promise<string> {
    if (this.durable) await this.handle.sync();
    await this.handle.close();
    this.closed = true;
    let path = this.target;
    try {
      if (this.naming.overwrite) await rename(this.tempPath, this.target);
      else {
        path = await this.#link();
        await unlink(this.tempPath);
      }
    } catch (error) {
      await unlink(this.tempPath).catch(() => undefined);
      throw error;
    }
    if (!this.durable) return path;
    const dir = await open(dirname(this.target), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
    return path;
  }

  /** Links the finished file under the target's name, or the first free numbered one: never over an existing file. */
  async #link(): Promise<string> {
    const extension = extname(this.target);
    const stem = this.target.slice(0, this.target.length - extension.length);
    const variants = this.naming.numberWhenTaken ? MAX_VARIANTS : 1;
    for (let n = 1; ; n++) {
      const path = numberedFileName(stem, extension, n);
      try {
        await link(this.tempPath, path);
        return path;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= variants) throw error;
      }
    }
  }

  /** Drops the temporary file; safe to call after a failed commit. */
  async abort(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      await this.handle.close().catch(() => undefined);
    }
    await unlink(this.tempPath).catch(() => undefined);
  }
}
