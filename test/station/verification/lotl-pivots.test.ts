import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x509 } from '../../../src/station/pki/x509.js';
import { euLotlAnnouncements } from '../../../src/station/verification/trusted-lists/eu-lotl-announcements.js';
import { followPivots, type SignerAnnouncement } from '../../../src/station/verification/trusted-lists/follow-pivots.js';
import { ManagedTrust } from '../../../src/station/verification/trusted-lists/managed-trust.js';
import { parseTrustedList, parseTrustedListDocument } from '../../../src/station/verification/trusted-lists/parse-trusted-list.js';
import { createListSigner, lotlXml, LOTL_TYPE, nationalListXml, signWithXmlsec, type ListSigner } from '../../support/verification/trusted-list-xml.js';

// Our own announcement (as the Official Journal's), the keys it and two pivots announce, and a current list of lists
// signed by the newest key: K0 (announced) signs pivot 10, which announces K1; K1 signs pivot 20, which announces
// K2; K2 signs the current list (sequence 30).
const served = new Map<string, string>();
const requested: string[] = [];
let server: Server;
let base: string;
let k0: ListSigner;
let k1: ListSigner;
let k2: ListSigner;
let stranger: ListSigner;
let eeSigner: ListSigner;
let dirs: string[] = [];

const pivotUrl = (sequence: number): string => `${base}/zz-lotl-pivot-${sequence}.xml`;
const OJ_NEW = 'https://eur-lex.invalid/oj/zz-2026';
const OJ_OLD = 'https://eur-lex.invalid/oj/zz-2019';

/** A ZZ list of lists announcing `next` for itself and pointing to the EE list, signed by `by`. */
function lotl(sequence: number, next: ListSigner, by: ListSigner, schemeUris: string[] = []): Promise<string> {
  const pointers = [
    { territory: 'ZZ', location: `${base}/zz-lotl.xml`, certificates: [next.der], type: LOTL_TYPE },
    { territory: 'EE', location: `${base}/ee.xml`, certificates: [eeSigner.der] },
  ];
  return signWithXmlsec(lotlXml({ territory: 'ZZ', sequence, schemeUris }, pointers), by);
}

async function freshTrust(): Promise<ManagedTrust> {
  const dir = await mkdtemp(join(tmpdir(), 'lotl-pivots-'));
  dirs.push(dir);
  const trust = await ManagedTrust.open(dir);
  await trust.setEuLists(false);
  return trust;
}

const current = (): Promise<string> => lotl(30, k2, k2, [pivotUrl(20), pivotUrl(10)]);

beforeAll(async () => {
  [k0, k1, k2, stranger, eeSigner] = (await Promise.all(['K0 announced', 'K1', 'K2 newest', 'Stranger', 'EE list signer'].map((name) => createListSigner(`Pivot test ${name}`)))) as [ListSigner, ListSigner, ListSigner, ListSigner, ListSigner];
  server = createServer((request, response) => {
    requested.push(request.url ?? '/');
    const body = served.get(request.url ?? '/');
    if (body === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/vnd.etsi.tsl+xml' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  served.set('/zz-lotl-pivot-10.xml', await lotl(10, k1, k0));
  served.set('/zz-lotl-pivot-20.xml', await lotl(20, k2, k1, [pivotUrl(10)]));
  served.set('/ee.xml', await signWithXmlsec(nationalListXml({ territory: 'EE', sequence: 4 }, []), eeSigner));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  dirs = [];
});

describe('a list of lists signed by a newer key, followed from the announced one through its pivots', () => {
  it('is accepted when each pivot is signed by the key the step before announces, and its pivots are kept (fetched once)', async () => {
    served.set('/zz-lotl.xml', await current());
    const trust = await freshTrust();
    const imported = await trust.updater.importUrl(`${base}/zz-lotl.xml`, [k0.certPem]);
    expect(imported.lists.map((l) => [l.territory, l.outcome])).toEqual([
      ['ZZ', 'updated'],
      ['EE', 'updated'],
    ]);
    served.set('/zz-lotl.xml', await lotl(31, k2, k2, [pivotUrl(20), pivotUrl(10)]));
    const before = requested.filter((path) => path.includes('pivot')).length;
    const refreshed = await trust.refresh();
    expect(refreshed.lists.find((l) => l.territory === `${base}/zz-lotl.xml`)).toMatchObject({ outcome: 'updated' });
    expect(requested.filter((path) => path.includes('pivot')).length).toBe(before);
    expect(trust.sources([]).lists.find((l) => l.kind === 'lotl')).toMatchObject({ sequenceNumber: 31, refused: null });
  });

  it('refuses the list when a pivot is not signed by the key the one before announces, and says which pivot', async () => {
    served.set('/zz-lotl.xml', await current());
    const good = served.get('/zz-lotl-pivot-20.xml')!;
    served.set('/zz-lotl-pivot-20.xml', await lotl(20, k2, stranger, [pivotUrl(10)]));
    try {
      const result = await (await freshTrust()).updater.importUrl(`${base}/zz-lotl.xml`, [k0.certPem]).catch((error: Error) => error);
      expect(result).toMatchObject({ code: 'ERR_TRUST_LIST_PIVOT_FAILED', step: { step: 'signature', position: 2, count: 2, url: pivotUrl(20) }, message: expect.stringContaining('pivot 2 of 2') });
    } finally {
      served.set('/zz-lotl-pivot-20.xml', good);
    }
  });

  it('refuses a list of lists signed by a key the last pivot no longer announces, though an earlier step did', async () => {
    served.set('/zz-lotl.xml', await lotl(30, k2, k1, [pivotUrl(20), pivotUrl(10)]));
    const result = await (await freshTrust()).updater.importUrl(`${base}/zz-lotl.xml`, [k0.certPem]).catch((error: Error) => error);
    expect(result).toMatchObject({ step: { step: 'lotl-signature', position: 3, count: 2, url: null }, message: expect.stringContaining(`last pivot (${pivotUrl(20)})`) });
  });

  it('imports offline from a folder holding the list of lists and its pivots, and says which pivot file is missing', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'lotl-pivots-folder-'));
    dirs.push(folder);
    await writeFile(join(folder, 'zz-lotl.xml'), await current());
    await writeFile(join(folder, 'zz-lotl-pivot-20.xml'), served.get('/zz-lotl-pivot-20.xml')!);
    await writeFile(join(folder, 'ee.xml'), served.get('/ee.xml')!);
    const missing = await (await freshTrust()).updater.importPath(folder, [k0.certPem]);
    expect(missing.lists[0]).toMatchObject({ outcome: 'refused', pivot: { step: 'unavailable', position: 1, url: pivotUrl(10) }, message: expect.stringContaining('add zz-lotl-pivot-10.xml') });
    await writeFile(join(folder, 'zz-lotl-pivot-10.xml'), served.get('/zz-lotl-pivot-10.xml')!);
    const trust = await freshTrust();
    const before = requested.length;
    const imported = await trust.updater.importPath(folder, [k0.certPem]);
    expect(imported.lists.map((l) => [l.territory, l.outcome])).toEqual([
      [join(folder, 'zz-lotl.xml'), 'updated'],
      [join(folder, 'ee.xml'), 'updated'],
    ]);
    expect(requested.length).toBe(before);
    expect(trust.sources([]).lists.find((l) => l.kind === 'lotl')).toMatchObject({ sequenceNumber: 30 });
  });
});

describe('where the pivots start: the newest announcement the list names', () => {
  const sha256 = (signer: ListSigner): string => createHash('sha256').update(signer.der).digest('hex');
  const parsed = (xml: string): { doc: ReturnType<typeof parseTrustedListDocument>; list: ReturnType<typeof parseTrustedList> } => {
    const doc = parseTrustedListDocument(xml);
    return { doc, list: parseTrustedList(doc) };
  };
  const reader = (read: string[]) => async (url: string): Promise<string> => {
    read.push(url);
    return served.get(new URL(url).pathname)!;
  };

  it('follows only the pivots newer than the newest announcement named, whose certificates it knows by SHA-256 only', async () => {
    const announcements: SignerAnnouncement[] = [
      { reference: 'old', uri: /zz-2019/, certificates: [new x509.X509Certificate(k0.certPem)], fingerprints: [] },
      { reference: 'new', uri: /zz-2026/, certificates: [], fingerprints: [sha256(k1)] },
    ];
    const read: string[] = [];
    const followed = await followPivots(parsed(await lotl(30, k2, k2, [pivotUrl(20), OJ_NEW, pivotUrl(10), OJ_OLD])), announcements, reader(read), 'The list');
    expect(read).toEqual([pivotUrl(20)]);
    expect(followed.map((p) => p.url)).toEqual([pivotUrl(20)]);
  });

  it('takes a certificate the list carries only when its SHA-256 is announced', async () => {
    const announcements: SignerAnnouncement[] = [{ reference: 'new', uri: /zz-2026/, certificates: [], fingerprints: [sha256(k1)] }];
    await expect(followPivots(parsed(await lotl(30, stranger, stranger, [OJ_NEW])), announcements, reader([]), 'The list')).rejects.toMatchObject({ step: { step: 'lotl-signature', count: 0 } });
    await expect(followPivots(parsed(await lotl(30, k1, k1, [OJ_NEW])), announcements, reader([]), 'The list')).resolves.toEqual([]);
  });
});

describe('the EU announcements shipped', () => {
  it('hold the 2019 certificates and the newer notice by SHA-256, each with how the list of lists refers to it', async () => {
    const [first, second] = await euLotlAnnouncements();
    expect(first).toMatchObject({ reference: expect.stringContaining('OJ C 276'), fingerprints: [] });
    expect(first!.certificates).toHaveLength(8);
    expect(first!.uri!.test('https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=uriserv:OJ.C_.2019.276.01.0001.01.ENG')).toBe(true);
    expect(second).toMatchObject({ reference: expect.stringContaining('C/2026/1944'), certificates: [] });
    expect(second!.fingerprints).toHaveLength(6);
    expect(second!.uri!.test('https://eur-lex.europa.eu/eli/C/2026/1944/oj')).toBe(true);
  });
});
