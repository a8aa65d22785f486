import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { packageRoot } from '../../files/package-root.js';
import { x509 } from '../../pki/x509.js';
import type { SignerAnnouncement } from './follow-pivots.js';

const announcementsSchema = z.array(
  z.object({
    reference: z.string(),
    uri: z.string(),
    certificates: z.array(z.string().regex(/^[\w.-]+\.pem$/)),
    fingerprints: z.array(z.string().regex(/^[0-9a-f]{64}$/)),
  }),
);

/**
 * The EU list of lists' signing certificates as the Official Journal announced them, shipped with the station
 * (resources/trust/eu-lotl-signers: announcements.json names each notice, how the list refers to it, and its
 * certificates or their SHA-256).
 */
export async function euLotlAnnouncements(): Promise<SignerAnnouncement[]> {
  const dir = join(packageRoot(), 'resources', 'trust', 'eu-lotl-signers');
  const announcements = announcementsSchema.parse(JSON.parse(await readFile(join(dir, 'announcements.json'), 'utf8')));
  return Promise.all(
    announcements.map(async ({ reference, uri, certificates, fingerprints }) => ({
      reference,
      uri: new RegExp(uri),
      certificates: (await Promise.all(certificates.map((file) => readFile(join(dir, file), 'utf8')))).flatMap((pem) => x509.PemConverter.decode(pem).map((der) => new x509.X509Certificate(der))),
      fingerprints,
    })),
  );
}
