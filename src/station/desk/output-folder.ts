import type { StationSettings } from '../store/station-settings.js';
import { checkOutputFolder } from './check-output-folder.js';

const SETTING = 'output_dir';

/**
 * Where the window saves its results: the folder the user chose (kept in the station's settings, so it holds across
 * restarts), else the default. Read on every save, so a change applies to the next result.
 */
export class OutputFolder {
  readonly #settings: Pick<StationSettings, 'set'>;
  #path: string;

  private constructor(settings: Pick<StationSettings, 'set'>, path: string) {
    this.#settings = settings;
    this.#path = path;
  }

  static async open(settings: Pick<StationSettings, 'get' | 'set'>, fallback: string): Promise<OutputFolder> {
    return new OutputFolder(settings, (await settings.get(SETTING)) ?? fallback);
  }

  get path(): string {
    return this.#path;
  }

  /** Checks the folder (checkOutputFolder), stores its real path and returns it; a refused one changes nothing. */
  async choose(path: string): Promise<string> {
    const real = await checkOutputFolder(path);
    await this.#settings.set(SETTING, real);
    this.#path = real;
    return real;
  }
}
