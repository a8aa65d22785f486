import { extname } from 'node:path';

const byExtension: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.xml': 'application/xml',
  '.json': 'application/json',
  '.html': 'text/html',
  '.csv': 'text/csv',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.odt': 'application/vnd.oasis.opendocument.text',
  '.zip': 'application/zip',
};

/** The media type recorded for a data file (manifest, DataObjectFormat) when the caller gives none. */
export function mediaTypeOf(fileName: string): string {
  return byExtension[extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}
