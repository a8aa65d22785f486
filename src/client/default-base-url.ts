import { DEFAULT_PORT } from '../core/constants.js';

/** The local station on its fixed, documented port: where a page finds the service when it names no `base`. */
export const DEFAULT_BASE_URL = `http://127.0.0.1:${DEFAULT_PORT}`;
