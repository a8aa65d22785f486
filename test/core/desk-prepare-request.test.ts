import { describe, expect, it } from 'vitest';
import { deskPrepareRequestSchema } from '../../src/core/schemas/desk-api.js';

const files = [
  { fileName: 'a.txt', mimeType: 'text/plain', fileContent: 'YQ==' },
  { fileName: 'b.txt', mimeType: 'text/plain', fileContent: 'Yg==' },
];

describe('the window’s files to sign: a container’s name', () => {
  it('takes a plain name for a new container', () => {
    expect(deskPrepareRequestSchema.parse({ files, containerType: 'asice', containerName: 'Contract with annexes' }).containerName).toBe('Contract with annexes');
  });

  it('refuses, before anything is stored, a name that is a path or ends in a dot, and a name for a PDF signature', () => {
    for (const containerName of ['../outside', 'folder/name', 'name.', '']) {
      expect(deskPrepareRequestSchema.safeParse({ files, containerType: 'asice', containerName }).success, containerName).toBe(false);
    }
    expect(deskPrepareRequestSchema.safeParse({ files: files.slice(0, 1), containerType: 'pdf', containerName: 'x' }).success).toBe(false);
  });
});
