import yazl from 'yazl';
import { ASICS_MEDIA_TYPE } from '../asice/asic-media-types.js';

/**
 * An ASiC-S container with a time assertion (ETSI EN 319 162-1, 4.3): the `mimetype` entry first, stored and
 * without extra fields, naming application/vnd.etsi.asic-s+zip; the one data object at the root under its own
 * name; and `META-INF/timestamp.tst`, the DER RFC 3161 TimeStampToken over that data object. Written by yazl (the
 * ASiC-E engine's zip writer) in memory: the window's file is in memory already.
 */
export async function asicsTimestampContainer(fileName: string, data: Uint8Array, timestampToken: Uint8Array): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  // DOS timestamps only: the extended-timestamp extra field would break "mimetype without extra fields".
  const options = { forceDosTimestamp: true } as const;
  zip.addBuffer(Buffer.from(ASICS_MEDIA_TYPE), 'mimetype', { ...options, compress: false });
  zip.addBuffer(Buffer.from(data), fileName, options);
  zip.addBuffer(Buffer.from(timestampToken), 'META-INF/timestamp.tst', options);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
