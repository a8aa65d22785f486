import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { addStationOptions, type StationOptionValues } from '../station-options.js';
import { withStationData } from '../with-station-data.js';
import { helpExamples } from '../help-examples.js';

const parseLimit = (value: string): number => {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1) throw new InvalidArgumentError('a positive whole number');
  return limit;
};

export function registerAuditCommand(program: Command): void {
  addStationOptions(
    program
      .command('audit')
      .description('show the signature audit log, newest first: every attempt from the CLI, the window and web pages')
      .option('--json', 'machine-readable output')
      .option('--limit <n>', 'how many entries', parseLimit, 100)
      .addHelpText('after', helpExamples('audit --limit 20', 'audit --json')),
  ).action(async (options: StationOptionValues & { json?: boolean; limit: number }) => {
    const entries = await withStationData(options, (data) => data.audit.list(options.limit));
    if (options.json) {
      process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
      return;
    }
    if (entries.length === 0) process.stdout.write('the audit log is empty\n');
    for (const e of entries) {
      process.stdout.write(
        `${e.time}  ${e.outcome === 'started' ? 'started, not completed' : e.outcome.padEnd(8)} ${e.method}  from=${e.requester ?? e.source}  client=${e.clientId ?? '-'}  signer=${e.signer ?? '-'}  ${e.documentName ?? ''} sha256=${e.documentDigest}${e.detail ? `  (${e.detail})` : ''}\n`,
      );
    }
  });
}
