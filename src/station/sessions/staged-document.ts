/**
 * A document of a prepare request, already decoded from its base64 into a file of the station's uploads directory
 * while the request streamed in (readPrepareBody): never held in memory whole. `head` is its first bytes, enough to
 * tell a PDF without reading the file again.
 */
export class StagedDocument {
  constructor(
    readonly path: string,
    readonly size: number,
    readonly sha256: string,
    readonly head: Buffer,
  ) {}
}
