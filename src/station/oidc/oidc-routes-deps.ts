import type { StationMode } from '../../core/schemas/station-mode.js';
import type { IdentityService } from '../identity/identity-service.js';
import type { OidcService } from './oidc-service.js';

/** What the OIDC endpoints and the station's login pages are built from. */
export interface OidcRoutesDeps {
  oidc: OidcService;
  identity: IdentityService;
  mode: () => StationMode;
}
