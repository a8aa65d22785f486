import providerContext from 'oidc-provider/lib/helpers/als.js';

type ProviderHandler<Args extends unknown[]> = (...args: Args) => Promise<void>;

/**
 * Keeps oidc-provider's request context (the AsyncLocalStorage behind `Provider.ctx`, entered for each request it
 * serves) switched on only while a request is inside the provider.
 *
 * On Node before 24, the first `run` of any AsyncLocalStorage installs promise hooks for the whole process, and
 * they stay until every storage is disabled: from the first login on, every promise the station makes pays them,
 * on every route. Measured (issue 20): a TSA request's event-loop time rose by 10–20 µs after one discovery
 * request, about as much as all the station's own code on that route. So the storage is disabled whenever the
 * last request in the provider has been answered; the next request's own `run` enables it again.
 *
 * Nothing reads the context between requests: the station reads it to tie store writes to the answer that waits
 * for them (create-oidc-provider.ts), and oidc-provider reads it while serving. A read outside a request gets
 * undefined either way. Where AsyncLocalStorage is built on async context frames (Node 24 on), there are no hooks
 * to remove, and `disable` only forgets the store in the current frame, which here is never a request's.
 */
export function scopeProviderContext<Args extends unknown[]>(handle: ProviderHandler<Args>): ProviderHandler<Args> {
  let inProvider = 0;
  return async (...args) => {
    inProvider++;
    try {
      await handle(...args);
    } finally {
      if (--inProvider === 0) providerContext.disable();
    }
  };
}
