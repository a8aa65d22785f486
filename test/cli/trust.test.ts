import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestCa } from '../support/pki/test-pki.js';
import { runCli } from '../support/station/run-cli.js';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs.js';
import { createListSigner, lotlXml, nationalListXml, SERVICE_TYPE, signWithXmlsec, STATUS } from '../support/verification/trusted-list-xml.js';

const tempDir = tempDirsRemovedAfterEach('cli-trust-');

describe('signing-station trust', () => {
  it('adds a certificate, lists it with its fingerprint beside this station’s TSA, turns EU lists off, removes it', async () => {
    const dir = await tempDir();
    const data = ['--data-dir', join(dir, 'data'), '--key-store', 'passphrase'];
    const ca = await createTestCa('CN=Someone Trusted CA,C=LV');
    await writeFile(join(dir, 'ca.pem'), ca.pem);
    const fingerprint = createHash('sha256').update(ca.der).digest('hex');
    const env = { SIGNING_STATION_PASSPHRASE: 'correct horse battery staple' };
    expect(await runCli(['trust', 'add', join(dir, 'ca.pem'), ...data], { env })).toMatchObject({ code: 0, stdout: expect.stringContaining(fingerprint) });
    expect(await runCli(['trust', 'eu', 'off', ...data], { env })).toMatchObject({ code: 0 });
    const listed = await runCli(['trust', 'list', '--json', ...data], { env });
    expect(JSON.parse(listed.stdout)).toMatchObject({ euLists: { enabled: false }, added: [{ fingerprint, subject: ca.certificate.subject }], stationTsa: { fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(await runCli(['trust', 'remove', fingerprint, ...data], { env })).toMatchObject({ code: 0 });
    expect(await runCli(['trust', 'remove', fingerprint, ...data], { env })).toMatchObject({ code: 1, stderr: expect.stringContaining('No added certificate') });
  });

  it('imports a list of lists with its signer and a national list offline; a broken one exits 1 saying why', async () => {
    const dir = await tempDir();
    const data = ['--data-dir', join(dir, 'data'), '--key-store', 'passphrase'];
    const env = { SIGNING_STATION_PASSPHRASE: 'correct horse battery staple' };
    const [lotlSigner, eeSigner] = await Promise.all([createListSigner('CLI LOTL signer'), createListSigner('CLI EE signer')]);
    const ca = await createTestCa('CN=CLI Listed CA,C=EE');
    await mkdir(join(dir, 'lists'));
    await writeFile(join(dir, 'lotl-signer.pem'), lotlSigner.certPem);
    await writeFile(join(dir, 'lists', 'lotl.xml'), await signWithXmlsec(lotlXml({ territory: 'ZZ', sequence: 1 }, [{ territory: 'EE', location: 'https://lists.invalid/ee.xml', certificates: [eeSigner.der] }]), lotlSigner));
    const ee = await signWithXmlsec(nationalListXml({ territory: 'EE', sequence: 1 }, [{ provider: 'P', name: 'CLI Listed CA', certificates: [ca.der], periods: [{ type: SERVICE_TYPE.caQc, status: STATUS.granted, since: new Date('2020-01-01') }] }]), eeSigner);
    await writeFile(join(dir, 'lists', 'ee.xml'), ee);
    const imported = await runCli(['trust', 'import', join(dir, 'lists'), '--lotl-signer', join(dir, 'lotl-signer.pem'), ...data], { env });
    expect(imported).toMatchObject({ code: 0, stdout: expect.stringMatching(/updated\s+.*lotl\.xml[\s\S]*updated\s+.*ee\.xml/) });
    await writeFile(join(dir, 'ee-broken.xml'), ee.replace('CLI Listed CA</tsl:Name>', 'Someone Else</tsl:Name>'));
    const broken = await runCli(['trust', 'import', join(dir, 'ee-broken.xml'), ...data], { env });
    expect(broken).toMatchObject({ code: 1, stdout: expect.stringContaining('does not verify') });
  });
});
