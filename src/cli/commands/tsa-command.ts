import type { Command } from 'commander';
import { x509 } from '../../station/pki/x509.js';
import { stationTsaCertificates } from './station-tsa-certificates.js';
import { findTsaTokenKey } from '../../station/tsa/find-tsa-token-key.js';
import { createStationTokenSources } from '../../station/tokens/create-station-token-sources.js';
import { addStationOptions, resolveConfig, type StationOptionValues } from '../station-options.js';
import { configuredPkcs11Modules } from '../../station/config/configured-pkcs11-modules.js';
import { withStationData } from '../with-station-data.js';
import { helpExamples } from '../help-examples.js';

export function registerTsaCommand(program: Command): void {
  const tsa = program.command('tsa').description('the embedded RFC 3161 timestamping authority');

  addStationOptions(
    tsa
      .command('chain')
      .description('print the TSA certificate chain as PEM, TSA certificate first, root last (the configured token’s, or the station’s own, created on first use)')
      .addHelpText('after', helpExamples('tsa chain > tsa-chain.pem')),
  ).action(async (options: StationOptionValues) => {
    const config = await resolveConfig(options);
    const certificates = await withStationData(options, async (data) => {
      if (config.tsa) {
        // The chain is public: only the PKCS#11 source is started, and no PIN is needed.
        const { pkcs11 } = createStationTokenSources({
          database: data.database,
          vault: data.vault,
          modulePaths: configuredPkcs11Modules(config),
          pcsc: { enabled: false },
        });
        await pkcs11.start();
        try {
          return (await findTsaTokenKey(config.tsa.token, pkcs11)).certificates;
        } finally {
          await pkcs11.stop();
        }
      }
      return stationTsaCertificates(data);
    });
    process.stdout.write(certificates.map((der) => new x509.X509Certificate(Uint8Array.from(der)).toString('pem')).join('\n').concat('\n'));
  });
}
