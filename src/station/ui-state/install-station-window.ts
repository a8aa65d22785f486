import type { FastifyInstance } from 'fastify';
import type { Overview } from '../../core/schemas/admin-api.js';
import type { StationData } from '../open-station-data.js';
import type { TokenRegistry } from '../tokens/token-registry.js';
import type { StationTokenSources } from '../tokens/create-station-token-sources.js';
import type { UiPromptBroker } from '../prompts/ui-prompt-broker.js';
import type { TimestampClient } from '../tsa/timestamp-client.js';
import type { ConsentBatches } from '../sessions/consent-batches.js';
import { StationStateFeed } from './station-state-feed.js';
import { eventsRoutes } from '../http/routes/events-routes.js';
import { deskRoutes } from '../http/routes/desk-routes.js';
import { launchLinkRoutes } from '../http/routes/launch-link-routes.js';
import { UiControl } from '../http/ui-control.js';
import { DeskSigningService } from '../desk/desk-signing-service.js';
import { DeskTimestampService } from '../desk/desk-timestamp-service.js';
import { DeskIdentifyService } from '../desk/desk-identify-service.js';
import type { IdentityService } from '../identity/identity-service.js';
import { registerDeskClient } from '../desk/desk-client.js';
import { defaultOutputDirectory } from '../desk/output-directory.js';
import { OutputFolder } from '../desk/output-folder.js';
import { outputFolderRoutes } from '../http/routes/output-folder-routes.js';
import { TokenUnlockTime } from '../desk/token-unlock-time.js';
import { tokenLoginRoutes } from '../http/routes/token-login-routes.js';

export interface StationWindowDeps {
  http: FastifyInstance;
  data: StationData;
  dataDir: string;
  tokens: TokenRegistry;
  builtInSources: StationTokenSources | undefined;
  prompts: UiPromptBroker;
  timestampClient: TimestampClient;
  batches: ConsentBatches;
  identity: IdentityService;
  station: () => Overview['station'];
  uiUrl: () => string;
  /** The output folder until the user chooses one (the default: a folder in the user's documents). */
  outputDir?: string;
}

export interface StationWindow {
  readonly feed: StationStateFeed;
  /** Where the window saves its results now: the user's choice, kept in the station's settings. */
  readonly outputDir: string;
  /** Once the port is known: the control file for `signing-station ui`. */
  listening(baseUrl: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Everything the station window needs beyond the admin API: the pushed state (/admin/api/state, /events), the
 * desk (sign and timestamp the user's own files) and new launch links for the CLI. Kept out of the composition
 * root so that stays a list of parts.
 */
export async function installStationWindow(deps: StationWindowDeps): Promise<StationWindow> {
  const folder = await OutputFolder.open(deps.data.settings, deps.outputDir ?? defaultOutputDirectory());
  const outputDir = (): string => folder.path;
  const sources = deps.builtInSources;
  const feed = new StationStateFeed({
    station: deps.station,
    outputDir,
    clients: deps.data.clients,
    audit: deps.data.audit,
    tokens: deps.tokens,
    prompts: deps.prompts,
    sharedStore: {
      dataDir: deps.dataDir,
      changedElsewhere: () => deps.data.database.changedElsewhere(),
      reload: async () => {
        if (!sources) return;
        await sources.pkcs11.refreshModules();
        sources.softStore.changedElsewhere();
      },
    },
    ...(sources
      ? {
          modules: async () => {
            await deps.tokens.start(); // the modules load when the token sources start
            return {
              loaded: sources.pkcs11.modules().map(({ name, path, kind, origin }) => ({ name, path, kind, origin })),
              user: await sources.modules.list(),
              problems: sources.pkcs11.problems(),
            };
          },
        }
      : {}),
  });
  await feed.start();
  const control = new UiControl(deps.dataDir);
  const signing = new DeskSigningService({
    sessions: deps.data.sessions,
    outputDir,
    registerClient: () => registerDeskClient(deps.data.clients, deps.station().baseUrl),
    batches: deps.batches,
  });
  const timestamps = new DeskTimestampService(deps.timestampClient, outputDir);
  await deps.http.register(eventsRoutes(feed), { prefix: '/admin/api' });
  const identify = new DeskIdentifyService(deps.identity);
  await deps.http.register(deskRoutes({ signing, timestamps, identify, outputDir, dataDir: deps.dataDir }), { prefix: '/admin/api' });
  await deps.http.register(outputFolderRoutes(folder, () => feed.changed()), { prefix: '/admin/api' });
  await deps.http.register(launchLinkRoutes(control, deps.uiUrl), { prefix: '/admin/api' });
  const unlockTime = new TokenUnlockTime(deps.data.settings, deps.tokens);
  await unlockTime.apply();
  await deps.http.register(tokenLoginRoutes(unlockTime), { prefix: '/admin/api' });
  return {
    feed,
    get outputDir() {
      return folder.path;
    },
    listening: (baseUrl) => control.publish(baseUrl),
    close: async () => {
      feed.stop();
      await control.withdraw();
    },
  };
}
