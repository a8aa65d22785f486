// Child-process entry of card-process.ts: hosts one emulated card and obeys its parent over IPC.
import { createNationalIdCard } from './national-id-card.js';
import { createPivCard } from './piv-card.js';
import type { CardHostCommand, CardHostOptions, CardHostReply } from './card-process.js';

const options = JSON.parse(process.env.CARD_HOST_OPTIONS ?? '{}') as CardHostOptions;
const base64 = (der: Uint8Array) => Buffer.from(der).toString('base64');

const host =
  options.kind === 'piv'
    ? await createPivCard(options.piv ?? {}).then((card) => ({
        vpcd: card.vpcd,
        certificates: Object.fromEntries(Object.entries(card.certificates).map(([slot, der]) => [slot, base64(der)])),
        caPem: card.ca.pem,
        setPinTries: (tries: number) => card.applet.setPinTries(tries),
        pinTries: () => card.applet.pinTries,
      }))
    : await createNationalIdCard(options.nationalId ?? {}).then((card) => ({
        vpcd: card.vpcd,
        certificates: { authentication: base64(card.authCertificate), signing: base64(card.signCertificate) },
        caPem: card.ca.pem,
        setPinTries: (tries: number, reference = 0x85) => card.applet.setPinTries(reference, tries),
        pinTries: (reference = 0x85) => card.applet.pinTries(reference),
      }));

const reply = (message: CardHostReply) => process.send?.(message);

process.on('message', async (command: CardHostCommand) => {
  try {
    switch (command.op) {
      case 'insert':
        await host.vpcd.insert();
        return reply({ id: command.id, ok: true });
      case 'remove':
        await host.vpcd.remove();
        return reply({ id: command.id, ok: true });
      case 'setPinTries':
        host.setPinTries(command.tries, command.reference);
        return reply({ id: command.id, ok: true });
      case 'pinTries':
        return reply({ id: command.id, ok: true, value: host.pinTries(command.reference) });
    }
  } catch (error) {
    reply({ id: command.id, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
reply({ id: 0, ok: true, value: { certificates: host.certificates, caPem: host.caPem } });
