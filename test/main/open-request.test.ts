import { describe, expect, it } from 'vitest';
import { filesOfDeepLink, filesToOpen } from '../../src/main/open-request.js';

describe('documents a launch of the desktop app asks to sign', () => {
  it('takes paths from "open with" (relative to the launch directory), file URLs and deep links; skips options and the app itself', () => {
    const argv = ['/opt/Signing Station/signing-station', '.', '--no-sandbox', 'out/main/index.js', 'contract.pdf', '/home/u/notes.txt', 'file:///home/u/a%20b.pdf', 'signing-station://sign?file=/home/u/c.pdf&file=/home/u/d.txt'];
    expect(filesToOpen(argv, '/home/u/docs')).toEqual(['/home/u/docs/contract.pdf', '/home/u/notes.txt', '/home/u/a b.pdf', '/home/u/c.pdf', '/home/u/d.txt']);
  });

  it('ignores deep links that are not sign requests or name relative paths', () => {
    expect(filesOfDeepLink('signing-station://sign?file=relative.pdf')).toEqual([]);
    expect(filesOfDeepLink('signing-station://delete?file=/etc/passwd')).toEqual([]);
    expect(filesOfDeepLink('https://sign?file=/a.pdf')).toEqual([]);
    expect(filesOfDeepLink('not a url')).toEqual([]);
  });
});
