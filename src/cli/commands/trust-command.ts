import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import * as z from 'zod';
import type { TrustRefreshResult, TrustSources } from '../../core/schemas/trust-api.js';
import { fingerprintSchema } from '../../core/schemas/trust-api.js';
import { parseZod } from '../../station/validation/parse-zod.js';
import { ManagedTrust } from '../../station/verification/trusted-lists/managed-trust.js';
import { ExitCode } from '../failures/exit-code.js';
import { helpExamples } from '../help-examples.js';
import { addStationOptions, resolveConfig, type StationOptionValues } from '../station-options.js';
import { withStationData } from '../with-station-data.js';
import { stationTsaCertificates } from './station-tsa-certificates.js';

interface JsonOption extends StationOptionValues {
  json?: boolean;
}

const onOff = z.enum(['on', 'off']).transform((value) => value === 'on');

const collect = (value: string, previous: string[]): string[] => [...previous, value];

async function withTrust<T>(options: StationOptionValues, work: (trust: ManagedTrust) => Promise<T>): Promise<T> {
  const config = await resolveConfig(options);
  return work(await ManagedTrust.open(config.dataDir));
}

/** `signing-station trust`: the trust a person manages (EU trusted lists, added certificates, this station's TSA). */
export function registerTrustCommand(program: Command): void {
  const trust = program.command('trust').description('what signatures and timestamps are trusted by: EU trusted lists, certificates you add, this station’s TSA');

  addStationOptions(trust.command('list').description('every trust source: trusted lists with last and next update, added certificates, this station’s TSA').option('--json', 'machine-readable')).action(async (options: JsonOption) => {
    const sources = await withStationData(options, async (data, config) => (await ManagedTrust.open(config.dataDir)).sources(await stationTsaCertificates(data)));
    process.stdout.write(options.json ? `${JSON.stringify(sources, null, 2)}\n` : formatSources(sources));
  });

  addStationOptions(trust.command('add').description('trust a CA or TSA certificate (PEM or DER file) for signatures and timestamps').argument('<file>', 'the certificate file')).action(async (file: string, options: StationOptionValues) => {
    const content = await readFile(file);
    const text = content.includes('-----BEGIN') ? content.toString('utf8') : content.toString('base64');
    const added = await withTrust(options, (managed) => managed.add({ certificate: text }));
    process.stdout.write(`trusted ${added.subject}\nSHA-256 ${added.fingerprint}\n`);
  });

  addStationOptions(trust.command('remove').description('stop trusting a certificate you added').argument('<fingerprint>', 'its SHA-256 fingerprint, as `trust list` shows it')).action(async (fingerprint: string, options: StationOptionValues) => {
    const wanted = parseZod(fingerprintSchema, fingerprint, 'Invalid fingerprint');
    await withTrust(options, (managed) => managed.remove(wanted));
    process.stdout.write(`no longer trusted: ${wanted}\n`);
  });

  addStationOptions(trust.command('eu').description('use the EU trusted lists (on) or not (off)').argument('<state>', 'on or off')).action(async (state: string, options: StationOptionValues) => {
    const enabled = parseZod(onOff, state, 'Say on or off');
    await withTrust(options, (managed) => managed.setEuLists(enabled));
    process.stdout.write(`EU trusted lists ${enabled ? 'on' : 'off'}\n`);
  });

  addStationOptions(trust.command('refresh').description('fetch newer trusted lists (conditional requests; a list badly signed or older than the kept one is refused)').option('--json', 'machine-readable')).action(async (options: JsonOption) => {
    const result = await withTrust(options, (managed) => managed.refresh());
    report(result, options.json);
  });

  addStationOptions(
    trust
      .command('import')
      .description('import trusted lists offline from a file or folder of XML lists, or a list of lists other than the EU’s from a file or URL with its signing certificate')
      .argument('<source>', 'a list (XML), a folder of lists, or the URL of a list of lists')
      .option('--lotl-signer <pem>', 'a certificate that may sign this list of lists (repeatable)', collect, [])
      .option('--json', 'machine-readable')
      .addHelpText('after', helpExamples('trust import ./eu-lists/', 'trust import https://example.org/lotl.xml --lotl-signer lotl-signer.pem')),
  ).action(async (source: string, options: JsonOption & { lotlSigner: string[] }) => {
    const signers = await Promise.all(options.lotlSigner.map((file) => readFile(file, 'utf8')));
    const result = await withTrust(options, (managed) => (/^https?:\/\//i.test(source) ? managed.updater.importUrl(source, signers) : managed.updater.importPath(source, signers)));
    report(result, options.json);
  });
}

function report(result: TrustRefreshResult, json: boolean | undefined): void {
  process.stdout.write(json ? `${JSON.stringify(result, null, 2)}\n` : result.lists.map((list) => `${list.outcome.padEnd(9)} ${list.territory}: ${list.message}\n`).join(''));
  if (result.lists.some((list) => list.outcome === 'refused')) process.exitCode = ExitCode.failed;
}

function formatSources(sources: TrustSources): string {
  const lines = [`EU trusted lists: ${sources.euLists.enabled ? 'on' : 'off'} (${sources.euLists.url})`];
  for (const list of sources.lists) {
    const refused = list.refused ? `; refused a newer copy ${list.refused.at.slice(0, 10)}: ${list.refused.reason}` : '';
    lines.push(`  ${list.kind === 'lotl' ? 'list of lists' : 'list'} ${list.territory} (${list.lotl}): sequence ${list.sequenceNumber}, ${list.services} services, issued ${list.issuedAt.slice(0, 10)}, fetched ${list.fetchedAt.slice(0, 16)}, next update ${list.nextUpdate?.slice(0, 10) ?? 'none'}${refused}`);
  }
  lines.push(`Certificates you added: ${sources.added.length === 0 ? 'none' : ''}`);
  for (const added of sources.added) lines.push(`  ${added.subject}\n    SHA-256 ${added.fingerprint} (until ${added.notAfter.slice(0, 10)})`);
  lines.push(`This station's TSA (timestamps, this machine only): ${sources.stationTsa ? `${sources.stationTsa.subject}\n    SHA-256 ${sources.stationTsa.fingerprint}` : 'none'}`);
  return `${lines.join('\n')}\n`;
}
