// oidc-provider's request context: one AsyncLocalStorage, entered for each request the provider serves (its
// initialize_app.js) and read as `Provider.ctx`. The package has no exports map, so the module is reachable; it
// has no type declarations, hence this one (provider-context-scope.ts is its only importer).
declare module 'oidc-provider/lib/helpers/als.js' {
  import type { AsyncLocalStorage } from 'node:async_hooks';

  const providerContext: AsyncLocalStorage<object>;
  export default providerContext;
}
