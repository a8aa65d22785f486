import type { ServiceAnswer } from '../core/schemas/browser-client-wire.js';
import type { Result } from './client-settings.js';
import type { FlowContext } from './flow-context.js';

/**
 * Hands a redirect to the integrator's `redirect` callback, or navigates: the top window when the page is framed,
 * as the published client does (a provider's page refuses to be framed).
 */
export function redirectTo(context: FlowContext, data: ServiceAnswer): Promise<Result | undefined> {
  const result = { data };
  if (context.settings.redirect) {
    context.settings.redirect(result);
  } else {
    (window.top ?? window).location.href = String(data.redirect_uri);
  }
  return Promise.resolve(result);
}
