import type { JSX } from 'react';
import type { StationMode } from '../../core/schemas/station-mode.js';

export function ModeBanner({ mode }: { mode: StationMode }): JSX.Element {
  return mode === 'sandbox' ? (
    <span className="mode mode-sandbox" data-testid="mode">
      Sandbox mode — provider methods are simulated with test identities
    </span>
  ) : (
    <span className="mode mode-production" data-testid="mode">
      Production mode
    </span>
  );
}
