import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CardProcess } from '../cards/card-process.js';
import { NATIONAL_ID_PINS } from '../cards/national-id-applet.js';
import { startPcscd, waitUntilNoCard } from '../support/pcsc/pcsc-test-env.js';
import type { PcscDaemon } from '../support/pcsc/pcsc-daemon.js';
import { runCli, spawnCliOnTerminal } from '../support/station/run-cli.js';
import { writeMinimalPdf } from '../support/signing/signing-test-pdfs.js';

const SIGN_PIN = '12345';
const WRONG_PIN = '99999';

// `signing-station sign --token` with an ID card behind the real pcscd (the emulated national-ID card, whose PIN2
// counts its tries), typed on a real terminal as a person would.
describe('signing-station sign with an ID card, on a terminal', () => {
  let daemon: PcscDaemon;
  let card: CardProcess;
  let dir: string;
  let label: string;
  const dataArgs = (): string[] => ['--data-dir', join(dir, 'data')];

  beforeAll(async () => {
    daemon = await startPcscd();
    card = await CardProcess.start({ kind: 'national-id', nationalId: { algorithm: 'P-256', subject: 'CN=MÄNNIK\\,MARI-LIIS\\,48010010000,2.5.4.4=MÄNNIK,2.5.4.42=MARI-LIIS,2.5.4.5=PNOEE-48010010000,C=EE' } });
    dir = await mkdtemp(join(tmpdir(), 'sign-card-'));
    await card.insert();
    // pcscd sees a card 360-430 ms after it is inserted: ask until `tokens list` shows it.
    for (let attempt = 0; !label; attempt++) {
      const listed = await runCli(['tokens', 'list', '--json', ...dataArgs()]);
      const tokens = JSON.parse(listed.stdout || '{"tokens":[]}') as { tokens: Array<{ kind: string; label: string }> };
      label = tokens.tokens.find((token) => token.kind === 'pcsc')?.label ?? '';
      if (!label && attempt > 20) throw new Error(`the card never appeared: ${listed.stdout}${listed.stderr}`);
    }
  });
  afterAll(async () => {
    await card?.stop();
    await waitUntilNoCard().catch(() => undefined);
    await daemon?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows the tries left, says when the last PIN was wrong, never shows a PIN, and signs with the right one', async () => {
    const input = await writeMinimalPdf(join(dir, 'card.pdf'));
    const run = spawnCliOnTerminal(['sign', input, '--token', label, '--no-timestamp', ...dataArgs()]);
    await run.waitFor(/PIN2 for .*\(3 tries left\): /);
    run.child.stdin.write(`${WRONG_PIN}\r`);
    await run.waitFor(/The last one was wrong\. PIN2 for .*\(2 tries left\): /);
    expect(await card.pinTries(NATIONAL_ID_PINS.sign)).toBe(2);
    run.child.stdin.write(`${SIGN_PIN}\r`);
    expect(await run.exit, run.output()).toBe(0);
    expect(run.output()).toContain(`signed: ${join(dir, 'card.signed.pdf')}`);
    // The screen shows no PIN typed (the card's label and document number are taken out first: they hold digits).
    const screen = run.output().replaceAll(label, '<card>');
    expect(screen).not.toContain(WRONG_PIN);
    expect(screen).not.toContain(SIGN_PIN);
    expect(await card.pinTries(NATIONAL_ID_PINS.sign)).toBe(3);
  });
});
