import { Option, type Command } from 'commander';
import { DEFAULT_PORT } from '../../core/constants.js';
import { createStation } from '../../station/create-station.js';
import { addStationOptions, openKeyStore, resolveConfig, type StationOptionValues } from '../station-options.js';
import { parsePort } from '../parse-port.js';
import { helpExamples } from '../help-examples.js';
import { openInBrowser } from '../open-in-browser.js';

interface ServeOptions extends StationOptionValues {
  host?: string;
  port?: number;
  mode?: 'sandbox' | 'production';
  open?: boolean;
  /** False with --no-browser: no browser is opened, even with --open (as `npm start -- --no-browser` asks). */
  browser?: boolean;
}

export function registerServeCommand(program: Command): void {
  addStationOptions(
    program
      .command('serve')
      .description('run the station headless: service endpoints, iframe helper and the station UI on 127.0.0.1')
      .option('--host <host>', 'address to listen on (loopback only)', '127.0.0.1')
      .option('--port <port>', `port to listen on; 0 picks a free one (default ${DEFAULT_PORT})`, parsePort)
      .addOption(new Option('--mode <mode>', 'sandbox (simulated providers, the default) or production').choices(['sandbox', 'production']))
      .option('--open', 'open the station UI in the browser (BROWSER, else the OS opener), through a page only this user can read')
      .option('--no-browser', 'open no browser (the default; wins over --open)')
      .addHelpText('after', helpExamples('serve', 'serve --port 0 --data-dir /tmp/station --mode production')),
  ).action(async (options: ServeOptions) => {
    const config = await resolveConfig(options, { host: options.host as '127.0.0.1', port: options.port, mode: options.mode });
    const station = await createStation(config, { keyStore: openKeyStore(config) });
    // Handlers go in before the address is printed: a supervisor that signals as soon as it reads the line
    // must get a clean shutdown, not the default kill.
    const stopped = new Promise<void>((resolve) => {
      process.once('SIGTERM', () => resolve());
      process.once('SIGINT', () => resolve());
    });
    process.stdout.write(`listening ${station.baseUrl}\n`);
    process.stdout.write(`ui ${station.uiUrl()}\n`);
    if (options.open && options.browser !== false) {
      await openInBrowser(await station.uiLaunchPage()).catch((error: unknown) =>
        process.stderr.write(`serve: could not open a browser (${error instanceof Error ? error.message : String(error)}); open the ui link above yourself.\n`),
      );
    }
    await stopped;
    await station.close();
  });
}
