// One measured verification in a process of its own (so its memory is its own): argv FILE TRUST_PEM...; prints
// { ms, rssGrowthMb, indication } as JSON. Offline: the bench measures reading and hashing, not a network.
import { readFile } from 'node:fs/promises';
import { x509 } from '../../../../src/station/pki/x509.js';
import { verifyDocument } from '../../../../src/station/verification/verify-document.js';
import { trustOf } from '../../verification/trust-of.js';
import { measureTimeAndRss } from '../measure-time-and-rss.js';

const [file, ...pems] = process.argv.slice(2);
const trust = trustOf(...(await Promise.all(pems.map(async (pem) => new x509.X509Certificate(await readFile(pem, 'utf8'))))));
let indication: string | null = null;
const measured = await measureTimeAndRss(async () => {
  indication = (await verifyDocument(file!, { trust, offline: true })).indication;
});
process.stdout.write(JSON.stringify({ ...measured, indication }));
