import type { DeskPrepareRequest } from '../../../core/schemas/desk-api.js';
import { readAsBase64 } from './read-as-base64.js';

/** The picked files as the desk takes them: name, type and content in base64. */
export function deskFilesOf(files: readonly File[]): Promise<DeskPrepareRequest['files']> {
  return Promise.all(files.map(async (file) => ({ fileName: file.name, mimeType: file.type || 'application/octet-stream', fileContent: await readAsBase64(file) })));
}
