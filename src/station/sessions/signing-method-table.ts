import { StationError } from '../../core/errors/station-error.js';
import type { SigningMethod } from './signing-method.js';

/** Signing methods by `sign_type` and by complete path; a code claimed twice is a wiring mistake. */
export class SigningMethodTable {
  readonly #bySignType = new Map<string, SigningMethod>();
  readonly #byCompletePath = new Map<string, SigningMethod>();

  constructor(methods: readonly SigningMethod[]) {
    for (const method of methods) {
      for (const signType of method.signTypes) claim(this.#bySignType, signType, method, 'sign_type');
      for (const path of method.completePaths) claim(this.#byCompletePath, path, method, 'complete path');
    }
  }

  forSignType(signType: unknown): SigningMethod {
    const method = typeof signType === 'string' ? this.#bySignType.get(signType) : undefined;
    if (!method) throw unknownMethod('sign_type', [...this.#bySignType.keys()]);
    return method;
  }

  forCompletePath(path: string): SigningMethod {
    const method = this.#byCompletePath.get(path);
    if (!method) throw unknownMethod('method', [...this.#byCompletePath.keys()]);
    return method;
  }
}

function claim(map: Map<string, SigningMethod>, key: string, method: SigningMethod, what: string): void {
  if (map.has(key)) throw new TypeError(`Signing ${what} "${key}" is claimed by two methods`);
  map.set(key, method);
}

function unknownMethod(field: string, known: string[]): StationError {
  return new StationError('ERR_SIGNING_METHOD_UNKNOWN', `Unknown signing method; known: ${known.join(', ')}.`, {
    status: 400,
    details: { errors: { [field]: ['is not a signing method of this station'] } },
  });
}
