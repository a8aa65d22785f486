import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { outputFolderSchema, type OutputFolder as OutputFolderBody } from '../../../core/schemas/output-folder.js';
import { parseZod } from '../../validation/parse-zod.js';
import type { OutputFolder } from '../../desk/output-folder.js';

/**
 * Where the window saves its results (under /admin/api, UI credential): the desktop app's folder dialog, the
 * browser window's Settings and headless `serve` hosts all set it here. `changed` tells the window's feed.
 */
export function outputFolderRoutes(folder: OutputFolder, changed: () => void): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const config = { browserAccess: 'station' as const, requiresUiSession: true };

    app.get('/desk/output-folder', { config }, async (): Promise<OutputFolderBody> => ({ path: folder.path }));

    app.put('/desk/output-folder', { config }, async (request): Promise<OutputFolderBody> => {
      const { path } = parseZod(outputFolderSchema, request.body, 'Invalid output folder');
      const chosen = { path: await folder.choose(path) };
      changed();
      return chosen;
    });
  };
}
