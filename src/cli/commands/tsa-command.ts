import type { Command } from 'commander';
import { x509 } from '../../station/pki/x509.js';
import { systemClock } from '../../station/ports/clock.js';
import { TimestampAuthority } from '../../station/tsa/timestamp-authority.js';
import { addStationOptions, type StationOptionValues } from '../station-options.js';
import { withStationData } from '../with-station-data.js';

export function registerTsaCommand(program: Command): void {
  const tsa = program.command('tsa').description('the embedded RFC 3161 timestamping authority');

  addStationOptions(
    tsa
      .command('chain')
      .description('print the TSA certificate chain as PEM, TSA certificate first, root last (created on first use)'),
  ).action(async (options: StationOptionValues) => {
    const certificates = await withStationData(options, async (data) => {
      const authority = await TimestampAuthority.open({ database: data.database, vault: data.vault, clock: systemClock });
      try {
        return authority.certificates;
      } finally {
        await authority.close();
      }
    });
    process.stdout.write(certificates.map((der) => new x509.X509Certificate(Uint8Array.from(der)).toString('pem')).join('\n').concat('\n'));
  });
}
