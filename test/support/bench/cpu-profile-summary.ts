import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Nodes whose inclusive time is below this share of the busy time are left out of the tree. */
const TREE_THRESHOLD = 0.03;
const TREE_DEPTH = 16;

/**
 * A text flame graph of a V8 CPU profile (.cpuprofile, as the inspector writes it), per operation of the run it
 * covers: self time by origin (each npm package, Node's internals, the station's bundle, V8's own buckets), then
 * the call tree top-down with inclusive and self time. Written for the benches' notes: a profile has to be read
 * per request to say what a request costs, and the DevTools view cannot divide by the request count.
 *
 * Read the native buckets with care on a machine with few cores: the profiler samples the main thread's wall
 * time, so time it spends preempted (typically right after it woke a thread-pool thread to sign) is charged to
 * the native function it was in, such as a crypto job's `run`.
 */
export function cpuProfileSummary(path: string, operations: number, unit: string): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  // Stopping the profiler is sampled too (an inspector call); it is the bench's cost, not the server's.
  const dropSubtree = (id: number): void => {
    self.delete(id);
    for (const child of nodes.get(id)!.children ?? []) dropSubtree(child);
  };
  for (const node of nodes.values()) if (node.callFrame.url === 'node:inspector') dropSubtree(node.id);
  const inclusive = new Map<number, number>();
  const inclusiveOf = (id: number): number => {
    let total = inclusive.get(id);
    if (total === undefined) {
      total = (self.get(id) ?? 0) + (nodes.get(id)!.children ?? []).reduce((sum, child) => sum + inclusiveOf(child), 0);
      inclusive.set(id, total);
    }
    return total;
  };
  const root = profile.nodes[0]!;
  const idle = [...nodes.values()].filter((node) => node.callFrame.functionName === '(idle)').reduce((sum, node) => sum + (self.get(node.id) ?? 0), 0);
  const busy = inclusiveOf(root.id) - idle;
  const perOperation = (microseconds: number): string => `${(microseconds / operations).toFixed(1)} µs`;

  const byOrigin = new Map<string, number>();
  for (const [id, time] of self) {
    const origin = originOf(nodes.get(id)!.callFrame);
    if (origin !== '(idle)') byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + time);
  }
  const lines = [
    `CPU profile ${path}: ${(busy / 1000).toFixed(0)} ms busy on the main thread (${((100 * idle) / (busy + idle)).toFixed(0)} % idle besides), ${operations} ${unit}s; per ${unit}:`,
    `  self time by origin: ${[...byOrigin].sort((a, b) => b[1] - a[1]).filter(([, time]) => time / busy >= 0.005).map(([origin, time]) => `${origin} ${perOperation(time)}`).join(', ')}`,
    `  top-down (inclusive, [self]; ≥ ${TREE_THRESHOLD * 100} % of the busy time):`,
  ];
  const walk = (id: number, depth: number): void => {
    const node = nodes.get(id)!;
    if (inclusiveOf(id) / busy < TREE_THRESHOLD || depth > TREE_DEPTH || node.callFrame.functionName === '(idle)') return;
    if (id !== root.id) lines.push(`  ${'  '.repeat(depth)}${perOperation(inclusiveOf(id))} [${perOperation(self.get(id) ?? 0)}] ${frameName(node.callFrame)}`);
    for (const child of [...(node.children ?? [])].sort((a, b) => inclusiveOf(b) - inclusiveOf(a))) walk(child, depth + 1);
  };
  walk(root.id, -1);
  return lines.join('\n');
}

function originOf({ functionName, url }: ProfileNode['callFrame']): string {
  if (!url) return functionName.startsWith('(') ? functionName : `native ${functionName}`;
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1]!;
  if (url.startsWith('node:')) return 'node internals';
  return 'station';
}

function frameName({ functionName, url, lineNumber }: ProfileNode['callFrame']): string {
  const file = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\//, '');
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
}
