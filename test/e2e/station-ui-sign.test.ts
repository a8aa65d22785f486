import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { seriousAxeFindings } from '../support/browser/axe-audit.js';
import { screenshotPath } from '../support/browser/screenshot-path.js';
import type { TestStation } from '../support/station/test-station.js';
import { openStationWindow, type StationWindowTestbed } from '../support/browser/station-window-testbed.js';
import { tabTo } from '../support/browser/tab-to.js';
import { timestampInWindow } from '../support/browser/timestamp-in-window.js';
import type { SoftHsm } from '../support/pkcs11/pkcs11-softhsm.js';
import { minimalPdf, writePagesPdf, writePredefinedCmapPdf } from '../support/signing/signing-test-pdfs.js';
import { textInRegion } from '../support/signing/pdf-region.js';
import { cmsParts, createNssDb, embeddedSignatures, opensslTsVerify, pdfsig } from '../support/signing/signing-validators.js';
import { extractZip } from '../support/signing/signing-zip-extract.js';
import { pem } from '../support/pkcs11/pkcs11-nss-database.js';

/** The signature box's top-left corner in displayed points, as its label reads it out. */
function placedAt(label: string | null): { x: number; y: number } {
  const match = /(\d+) pt from the left, (\d+) pt from the top/.exec(label ?? '');
  if (!match) throw new Error(`no position in the signature box's label: ${label}`);
  return { x: Number(match[1]), y: Number(match[2]) };
}

describe('signing and timestamping from the station window, in Chromium, with a SoftHSM token', () => {
  let testbed: StationWindowTestbed;
  let softhsm: SoftHsm;
  let station: TestStation;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    testbed = await openStationWindow({ dirPrefix: 'ui-sign-', token: { label: 'Desk Token', pin: '1234', keys: [{ id: '0a', algorithm: 'RSA-2048', usage: 'signing' }] } });
    ({ softhsm, station, page, dir } = testbed);
  });
  afterAll(() => testbed?.dispose());

  it('shows a token plugged in while the window is open, with the token and certificate ids the command line takes', async () => {
    // First: a module is re-initialised to find new tokens only while no login is kept on it.
    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    // Keys cannot be generated here while the station holds the module: an empty token is plugged in.
    await softhsm.createToken('Second Token', '4321', []);
    const tokens = page.getByRole('list', { name: 'Cards, tokens and certificate stores' });
    await expect.poll(() => tokens.textContent(), { timeout: 10_000 }).toContain('Second Token');
    expect(await tokens.textContent()).toMatch(/Token id: pkcs11-[0-9a-f]{16}/);
    expect(await tokens.textContent()).toContain('Certificate id: 0a');
    await page.getByRole('navigation').getByRole('button', { name: 'Sign' }).click();
  });


  it('signs a PDF with the keyboard alone: file, certificate, reason, consent, a wrong PIN asked again in place, the result saved beside the others', async () => {
    const original = join(dir, 'contract.pdf');
    await writeFile(original, minimalPdf('Contract to sign from the window'));
    await expect.poll(() => page.getByLabel('Signing certificate').textContent()).toContain('Desk Token');

    await tabTo(page, 'input[type=file]');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
    await chooser.setFiles(original);
    await expect.poll(() => page.getByRole('list', { name: 'Files' }).textContent()).toContain('contract.pdf');
    expect(await page.getByRole('form', { name: 'Sign documents' }).textContent()).toContain('PDF signature (PAdES)');
    await tabTo(page, 'select[name=certificate]');
    await tabTo(page, 'input[name=reason]');
    await page.keyboard.type('I approve this contract');
    await page.screenshot({ path: screenshotPath('sign.png'), fullPage: true });
    expect(await seriousAxeFindings(page)).toEqual([]);
    await tabTo(page, 'form[aria-label="Sign documents"] button[type=submit]');
    await page.keyboard.press('Enter');

    // The consent takes the focus: Tab to its Sign button.
    const consent = page.getByRole('article', { name: /asks you to sign/ });
    await expect.poll(() => consent.textContent()).toContain('I approve this contract');
    // The station's own window asks: it says so, rather than showing its loopback address.
    expect(await consent.textContent()).toContain('This window asks you to sign.');
    await tabTo(page, '.prompt .button.primary');
    await page.keyboard.press('Enter');

    const pin = page.getByRole('form', { name: 'PIN' });
    await expect.poll(() => pin.isVisible(), { timeout: 10_000 }).toBe(true);
    // The PIN prompt names the requester as the consent does, never the window's own loopback address.
    expect(await pin.textContent()).toContain('This window needs the PIN');
    await page.keyboard.type('0000');
    await page.keyboard.press('Enter');
    await expect.poll(() => pin.textContent()).toContain('Wrong PIN.');
    expect(await station.prompts.pending()).toHaveLength(1);
    await page.keyboard.type('1234');
    await page.keyboard.press('Enter');

    const result = page.getByTestId('result');
    await expect.poll(() => result.textContent(), { timeout: 15_000 }).toContain('Signed.');
    const path = (await page.getByTestId('saved-path').textContent())!;
    expect(path).toMatch(/contract\.signed( \(\d+\))?\.pdf$/);
    expect(path.startsWith(station.window.outputDir)).toBe(true);
    // The signed document leaves the form, and its parts with it: none is drawn again (siblings keyed alike were),
    // and the file field names no file the form no longer has.
    expect(await page.getByText('Signature format:').count()).toBeLessThanOrEqual(1);
    expect(await page.locator('form[aria-label="Sign documents"] input[type=file]').inputValue()).toBe('');
    // Signed the way a web page signs: the browser client framed the station's iframe helper for the USB-token method.
    const helper = await page.getByTestId('signing-helper').locator('iframe').getAttribute('src');
    expect(helper).toMatch(new RegExp(`^${station.baseUrl}/web-element/os-broker/signing-station-desk/certeurope-usb-token-signature\\?doc_id=`));
    expect(await readFile(original)).toEqual(minimalPdf('Contract to sign from the window'));
    const report = await pdfsig(await createNssDb(join(dir, 'nss'), softhsm.ca.pem), path);
    expect(report.signatures.map((signature) => signature.valid), report.output).toEqual([true]);
    expect(Buffer.from(await readFile(path)).toString('latin1')).toContain('I approve this contract');
    expect(cmsParts(embeddedSignatures(await readFile(path))[0]!.cms).timestampToken).toBeDefined();

    await page.getByRole('navigation').getByRole('button', { name: 'Activity' }).click();
    const log = page.getByRole('table', { name: 'Signature log' });
    await expect.poll(() => log.getByRole('row', { name: /contract\.pdf/ }).first().textContent()).toContain('this window');
    await page.getByRole('navigation').getByRole('button', { name: 'Sign' }).click();
  });

  it('signs at the level chosen: B-B carries no signature timestamp (the B-T default does: see the first signature)', async () => {
    const original = join(dir, 'level.pdf');
    await writeFile(original, minimalPdf('Level B-B'));
    await page.locator('input[type=file]').first().setInputFiles(original);
    await page.locator('select[name=baseline]').selectOption('B-B');
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: /asks you to sign/ }).getByRole('button', { name: 'Sign' }).click();
    await expect.poll(() => page.getByTestId('saved-path').textContent(), { timeout: 15_000 }).toMatch(/level\.signed( \(\d+\))?\.pdf$/);
    const [signature] = embeddedSignatures(await readFile((await page.getByTestId('saved-path').textContent())!));
    expect(cmsParts(signature!.cms).timestampToken).toBeUndefined();

    // The result speaks of level.pdf: once another file is chosen it is gone, not left to read as that file's.
    expect(await page.getByTestId('result').textContent()).toContain('Signed.');
    await page.locator('input[type=file]').first().setInputFiles(join(dir, 'contract.pdf'));
    await expect.poll(() => page.getByTestId('result').count()).toBe(0);
    await page.getByRole('button', { name: 'Remove contract.pdf' }).click();
  });

  it('a reason without a placed box: the language choice appears with the reason, and the stamp’s labels are in the one chosen', async () => {
    const original = join(dir, 'kiri.pdf');
    await writeFile(original, minimalPdf('Reason only'));
    await page.locator('input[type=file]').first().setInputFiles(original);
    const language = page.locator('select[name=stampLanguage]');
    expect(await language.count()).toBe(0);
    await page.getByLabel('Reason (optional)').fill('Saskaņots');
    // Offered once a stamp will be drawn, starting at the window's language.
    await expect.poll(() => language.inputValue()).toBe('en');
    await language.selectOption('lv');
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: /asks you to sign/ }).getByRole('button', { name: 'Sign' }).click();
    // The token may still be logged in from an earlier signature, or ask its PIN now.
    const pin = page.getByRole('form', { name: 'PIN' });
    const saved = page.getByTestId('saved-path');
    await expect.poll(async () => (await pin.isVisible()) || (await saved.count()) > 0, { timeout: 15_000 }).toBe(true);
    if (await pin.isVisible()) {
      await page.keyboard.type('1234');
      await page.keyboard.press('Enter');
    }
    await expect.poll(() => saved.textContent(), { timeout: 15_000 }).toMatch(/kiri\.signed( \(\d+\))?\.pdf$/);
    const text = (await textInRegion((await saved.textContent())!, 1, { x: 0, y: 0, width: 612, height: 792 })).replace(/\s+/g, ' ');
    expect(text).toContain('Digitāli parakstījis');
    expect(text).toContain('Iemesls: Saskaņots');
    expect(text).not.toContain('Digitally signed by');
  });

  it('previews a Japanese PDF whose font is not embedded: pdf.js loads the predefined CMap from the station and draws the text', async () => {
    await page.locator('input[type=file]').first().setInputFiles(await writePredefinedCmapPdf(join(dir, 'japanese.pdf'), '署名します'));
    const canvas = page.getByTestId('page-preview').getByRole('img');
    await expect.poll(() => canvas.getAttribute('aria-label')).toBe('Page 1 of 1');
    // Without the CMap pdf.js cannot map the codes to glyphs and draws nothing for that font: the page stays white.
    const darkPixels = (): Promise<number> =>
      canvas.evaluate((element) => {
        const drawn = element as HTMLCanvasElement;
        const { data } = drawn.getContext('2d')!.getImageData(0, 0, drawn.width, drawn.height);
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 3]! > 0) dark++;
        return dark;
      });
    await expect.poll(darkPixels, { timeout: 10_000 }).toBeGreaterThan(200);
    // Files are added pick by pick: this one is taken out before the next test picks its own.
    await page.getByRole('button', { name: 'Remove japanese.pdf' }).click();
    expect(await page.getByRole('list', { name: 'Files' }).count()).toBe(0);
  });

  it('previews a PDF page by page and signs visibly in the box placed by dragging and the arrow keys, on a turned, cropped second page', async () => {
    // Page 2 is displayed turned a quarter and cropped off-origin: 712 x 512 pt as a reader shows it.
    const original = await writePagesPdf(join(dir, 'two-pages.pdf'), [
      { entries: '/MediaBox [0 0 612 792]', content: 'BT /F1 18 Tf 72 720 Td (First page) Tj ET' },
      { entries: '/MediaBox [0 0 612 792] /CropBox [50 40 562 752] /Rotate 90', content: 'BT /F1 18 Tf 300 100 Td (Second page) Tj ET' },
    ]);
    const bytes = await readFile(original);
    await page.locator('input[type=file]').first().setInputFiles(original);
    const preview = page.getByTestId('page-preview');
    await expect.poll(() => preview.getByRole('img').getAttribute('aria-label')).toBe('Page 1 of 2');
    await page.getByRole('combobox', { name: /^Page/ }).selectOption('2');
    await expect.poll(() => preview.getByRole('img').getAttribute('aria-label')).toBe('Page 2 of 2');
    await page.getByLabel('Visible signature on the page').check();
    const box = page.getByTestId('signature-box');
    await expect.poll(() => box.getAttribute('aria-label')).toMatch(/^Signature: Signature box on page 2, 18 pt from the left, \d+ pt from the top/);
    await expect.poll(() => preview.getByRole('img').evaluate((canvas) => canvas.clientHeight)).toBe(Math.round((420 * 512) / 712));
    expect(await seriousAxeFindings(page)).toEqual([]);

    // Dragged to about (300, 150) pt, then 12 pt right and 36 pt down with the keyboard; the whole page in view first.
    await preview.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    const area = (await preview.getByRole('img').boundingBox())!;
    const grabbed = (await box.boundingBox())!;
    const scale = area.width / 712;
    await page.mouse.move(grabbed.x + 4, grabbed.y + 4);
    await page.mouse.down();
    await page.mouse.move(area.x + 300 * scale + 4, area.y + 150 * scale + 4, { steps: 8 });
    await page.mouse.up();
    const dragged = placedAt(await box.getAttribute('aria-label'));
    expect(Math.abs(dragged.x - 300)).toBeLessThanOrEqual(3);
    expect(Math.abs(dragged.y - 150)).toBeLessThanOrEqual(3);
    // In the tab order after the page chooser: keyboard users reach the box as they reach the fields.
    await page.getByRole('combobox', { name: /^Page/ }).focus();
    await tabTo(page, '[data-testid=signature-box]');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    for (let step = 0; step < 6; step++) await page.keyboard.press('ArrowDown');
    const placed = placedAt(await box.getAttribute('aria-label'));
    expect(placed).toEqual({ x: dragged.x + 12, y: dragged.y + 36 });
    await page.screenshot({ path: screenshotPath('sign-placement.png'), fullPage: true });

    await page.getByLabel('Reason (optional)').fill('Placed on page two');
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: /asks you to sign/ }).getByRole('button', { name: 'Sign' }).click();
    await expect.poll(() => page.getByTestId('saved-path').textContent(), { timeout: 15_000 }).toMatch(/two-pages\.signed( \(\d+\))?\.pdf$/);
    const path = (await page.getByTestId('saved-path').textContent())!;
    expect(await readFile(original)).toEqual(bytes);
    const report = await pdfsig(await createNssDb(join(dir, 'nss-placed'), softhsm.ca.pem), path);
    expect(report.signatures.map((signature) => signature.valid), report.output).toEqual([true]);
    // pdftotext crops the page as displayed, from its top-left corner: where the preview measured the box.
    const inBox = (await textInRegion(path, 2, { x: placed.x, y: placed.y, width: 220, height: 80 })).replace(/\s+/g, ' ');
    expect(inBox).toContain('Digitally signed by');
    expect(inBox).toContain('Reason: Placed on page two');
    const beside = await textInRegion(path, 2, { x: 0, y: 0, width: 712, height: placed.y });
    expect(beside).not.toContain('Digitally signed by');
    expect(await textInRegion(path, 1, { x: 0, y: 0, width: 612, height: 792 })).not.toContain('Digitally signed by');
  });

  it('a declined consent ends the browser client’s flow with “Not signed”, saves nothing and logs the decline', async () => {
    const original = join(dir, 'declined.pdf');
    await writeFile(original, minimalPdf('Not to be signed'));
    await page.locator('input[type=file]').first().setInputFiles(original);
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: /asks you to sign/ }).getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^Not signed: /);
    expect(await page.getByTestId('result').count()).toBe(0);
    expect(await readdir(station.window.outputDir)).not.toContainEqual(expect.stringMatching(/^declined/));
    await page.getByRole('navigation').getByRole('button', { name: 'Activity' }).click();
    const log = page.getByRole('table', { name: 'Signature log' });
    await expect.poll(() => log.getByRole('row', { name: /declined\.pdf/ }).first().textContent()).toContain('declined');
    await page.getByRole('navigation').getByRole('button', { name: 'Sign' }).click();
    // Not signed, so the file stays chosen until taken out.
    await page.getByRole('button', { name: 'Remove declined.pdf' }).click();
  });

  it('puts several files into an ASiC-E container, showing the upload progress; the token stays logged in briefly, so no second PIN', async () => {
    const a = join(dir, 'notes.txt');
    const b = join(dir, 'data.csv');
    await writeFile(a, 'notes\n');
    await writeFile(b, 'a,b\n1,2\n');
    await page.locator('input[type=file]').first().setInputFiles([a, b]);
    expect(await page.getByRole('form', { name: 'Sign documents' }).textContent()).toContain('ASiC-E container');
    // The bar may come and go within a frame on loopback: an observer notes that it was there at all.
    await page.evaluate(() => {
      new MutationObserver(() => {
        if (document.querySelector('progress')) (window as unknown as { sawProgress: boolean }).sawProgress = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: /asks you to sign/ }).getByRole('button', { name: 'Sign' }).click();
    const result = page.getByTestId('result');
    await expect.poll(() => page.getByTestId('saved-path').textContent(), { timeout: 15_000 }).toMatch(/notes( \(\d+\))?\.asice$/);
    const path = (await page.getByTestId('saved-path').textContent())!;
    expect(await page.evaluate(() => (window as unknown as { sawProgress?: boolean }).sawProgress)).toBe(true);
    const entries = await extractZip(path, join(dir, 'asice'));
    expect(entries).toEqual(expect.arrayContaining(['mimetype', 'notes.txt', 'data.csv', 'META-INF/manifest.xml']));
  });

  it('adds a signature to an existing ASiC-E container, keeping the first, and saves it under a new name', async () => {
    const container = join(dir, 'existing.asice');
    await writeFile(container, await readFile((await page.getByTestId('saved-path').textContent())!));
    await page.locator('input[type=file]').first().setInputFiles(container);
    expect(await page.getByRole('form', { name: 'Sign documents' }).textContent()).toContain('Add a signature to this ASiC-E container');
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: /asks you to sign/ }).getByRole('button', { name: 'Sign' }).click();
    await expect.poll(() => page.getByTestId('saved-path').textContent(), { timeout: 15_000 }).toMatch(/existing( \(\d+\))?\.asice$/);
    const path = (await page.getByTestId('saved-path').textContent())!;
    const entries = await extractZip(path, join(dir, 'asice-2'));
    expect(entries).toEqual(expect.arrayContaining(['notes.txt', 'data.csv', 'META-INF/signatures0.xml', 'META-INF/signatures1.xml']));
    expect(entries).not.toContain('existing.asice');
  });

  it('adds files pick by pick, reorders and names the container; its consent names all three (size, fingerprint on demand), the window as requester and the level; Activity lists all three', async () => {
    const names = ['contract.txt', 'Lisa 1.txt', 'Lisa 2 – hinnad.csv'];
    const paths = await Promise.all(
      names.map(async (name, index) => {
        const path = join(dir, name);
        await writeFile(path, `file ${index}\n`.repeat(index + 1));
        return path;
      }),
    );
    // Picked in two goes, the second adding to the first; then the last file moved up and the container named.
    await page.locator('input[type=file]').first().setInputFiles(paths[0]!);
    await page.locator('input[type=file]').first().setInputFiles([paths[2]!, paths[1]!]);
    const chosen = page.getByRole('list', { name: 'Files' }).getByRole('listitem');
    await expect.poll(() => chosen.allTextContents()).toHaveLength(3);
    await page.getByRole('button', { name: 'Move Lisa 1.txt up' }).click();
    expect((await chosen.allTextContents()).map((text) => text.replace(/ \(.*$/, ''))).toEqual(names);
    await page.getByLabel('Container name').fill('Contract with annexes');
    // The level chosen for an earlier signature is kept with the screen: this one is set back to B-T.
    await page.locator('select[name=baseline]').selectOption('B-T');
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    const consent = page.getByRole('article', { name: 'This window asks you to sign.' });
    const files = consent.getByRole('list', { name: 'Files signed (3)' });
    await expect.poll(() => files.getByRole('listitem').allTextContents()).toHaveLength(3);
    const items = await files.getByRole('listitem').allTextContents();
    names.forEach((name, index) => {
      expect(items[index]).toContain(name);
      expect(items[index]).toContain(`(${Buffer.byteLength(`file ${index}\n`.repeat(index + 1))} bytes)`);
    });
    expect(await consent.textContent()).toContain('Baseline B-T (with a trusted time)');
    // The fingerprint is there for whoever compares it, one click away.
    const second = files.getByRole('listitem').nth(1);
    expect(await second.locator('.digest').isVisible()).toBe(false);
    await second.getByText('SHA-256 fingerprint').click();
    expect(await second.locator('.digest').textContent()).toBe(createHash('sha256').update(await readFile(paths[1]!)).digest('hex'));
    expect(await seriousAxeFindings(page)).toEqual([]);
    await consent.getByRole('button', { name: 'Sign' }).click();
    // The token may still be logged in from the signature before: the PIN is asked only if it is not.
    const pin = page.getByRole('form', { name: 'PIN' });
    await page.getByTestId('saved-path').or(pin).first().waitFor({ timeout: 15_000 });
    if ((await pin.count()) > 0) {
      await pin.getByLabel('PIN').fill('1234');
      await pin.getByLabel('PIN').press('Enter');
    }
    await expect.poll(() => page.getByTestId('saved-path').textContent(), { timeout: 15_000 }).toMatch(/\/Contract with annexes( \(\d+\))?\.asice$/);
    const entries = await extractZip((await page.getByTestId('saved-path').textContent())!, join(dir, 'asice-3'));
    expect(entries).toEqual(expect.arrayContaining(names));

    await page.getByRole('navigation').getByRole('button', { name: 'Activity' }).click();
    const row = page.getByRole('table', { name: 'Signature log' }).getByRole('row', { name: /Lisa 2/ }).first();
    await expect.poll(() => row.textContent()).toContain('contract.txt, Lisa 1.txt, Lisa 2 – hinnad.csv');
    await page.getByRole('navigation').getByRole('button', { name: 'Sign' }).click();
  });

  it('timestamps a file; the .tsr verifies with openssl against the station TSA', async () => {
    const file = join(dir, 'minutes.txt');
    await writeFile(file, 'minutes of the meeting\n');
    await timestampInWindow(page, file);
    await page.screenshot({ path: screenshotPath('timestamp.png'), fullPage: true });
    const path = (await page.getByTestId('saved-path').filter({ visible: true }).textContent())!;
    const root = join(dir, 'tsa-root.pem');
    await writeFile(root, pem('CERTIFICATE', station.tsa.certificates.at(-1)!));
    const verified = await opensslTsVerify(await readFile(file), await readFile(path), root);
    expect(verified.stdout + verified.stderr).toContain('Verification: OK');
  });

  it('timestamps a file into an ASiC-S container (EN 319 162-1): unzipped, openssl verifies its token over its file; the Verify screen reads it', async () => {
    const file = join(dir, 'report.txt');
    await writeFile(file, 'quarterly report\n');
    await page.getByRole('navigation').getByRole('button', { name: 'Timestamp' }).click();
    await page.locator('input[type=file]:visible').setInputFiles(file);
    await page.getByLabel('ASiC-S container with the file and its timestamp (.asics)').check();
    await page.getByRole('button', { name: 'Timestamp', exact: true }).last().click();
    await expect.poll(() => page.getByTestId('saved-path').filter({ visible: true }).textContent()).toMatch(/report( \(\d+\))?\.asics$/);
    const path = (await page.getByTestId('saved-path').filter({ visible: true }).textContent())!;

    // The first entry is "mimetype", stored (method 0), with no extra field, holding the ASiC-S media type.
    const zip = await readFile(path);
    expect([zip.readUInt32LE(0), zip.readUInt16LE(8), zip.readUInt16LE(26), zip.readUInt16LE(28)]).toEqual([0x04034b50, 0, 8, 0]);
    expect(zip.subarray(30, 38).toString('latin1')).toBe('mimetype');
    expect(zip.subarray(38, 38 + 31).toString('latin1')).toBe('application/vnd.etsi.asic-s+zip');
    const unpacked = join(dir, 'asics');
    expect((await extractZip(path, unpacked)).sort()).toEqual(['META-INF/timestamp.tst', 'mimetype', 'report.txt']);
    const root = join(dir, 'tsa-root-asics.pem');
    await writeFile(root, pem('CERTIFICATE', station.tsa.certificates.at(-1)!));
    const token = await readFile(join(unpacked, 'META-INF/timestamp.tst'));
    const verified = await opensslTsVerify(await readFile(join(unpacked, 'report.txt')), token, root);
    expect(verified.stdout + verified.stderr).toContain('Verification: OK');
    const otherData = await opensslTsVerify(Buffer.from('another report\n'), token, root);
    expect(otherData.stdout + otherData.stderr).not.toContain('Verification: OK');

    await page.getByRole('navigation').getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('region', { name: 'Verify a signed file' }).getByLabel('Choose files').setInputFiles(path);
    await page.getByRole('button', { name: 'Verify', exact: true }).last().click();
    const result = page.getByRole('status', { name: 'Verification result' });
    await expect.poll(() => result.textContent()).toMatch(/report( \(\d+\))?\.asics: all 1 valid/);
  });

});
