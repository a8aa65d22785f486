import type { FaultsBenchPart } from './faults-bench-part.js';
import { largeBodies } from './large-bodies.js';

const PEAK_BELOW_MB = 400;

/** Eight 60 MB wrong-secret bodies at once: the station stays under 400 MB; how soon it returns near idle is printed. */
export const largeBodiesPart: FaultsBenchPart = {
  name: 'eight 60 MB bodies at once',
  async run() {
    const figures = await largeBodies();
    const held = figures.peakRssMb < PEAK_BELOW_MB;
    const statuses = Object.entries(figures.statuses)
      .map(([status, count]) => `${count} x ${status}`)
      .join(', ');
    return {
      held,
      lines: [
        `${figures.bodies} x ${figures.bodyMb} MB: ${statuses}; idle ${figures.idleRssMb.toFixed(0)} MB, peak ${figures.peakRssMb.toFixed(0)} MB ` +
          `(under ${PEAK_BELOW_MB}: ${held ? 'yes' : 'NO, FAILED'}), ${figures.settledRssMb.toFixed(0)} MB ${(figures.settleMs / 1000).toFixed(1)} s after the last answer`,
      ],
    };
  },
};
