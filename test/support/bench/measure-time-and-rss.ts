export interface TimeAndRss {
  ms: number;
  rssGrowthMb: number;
}

/** Runs `job`, sampling RSS every 5 ms: its wall time, and the peak RSS over the RSS just before it. */
export async function measureTimeAndRss(job: () => Promise<void>): Promise<TimeAndRss> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const start = performance.now();
  await job();
  const ms = performance.now() - start;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, rssGrowthMb: (peak - before) / 1024 / 1024 };
}
