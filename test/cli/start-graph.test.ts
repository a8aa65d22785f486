import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const outCli = fileURLToPath(new URL('../../out/cli/', import.meta.url));

/** The files of the built CLI that `serve` evaluates before it listens: its chunk and what it imports statically. */
function serveStartGraph(): Map<string, string> {
  const serveChunk = readdirSync(join(outCli, 'chunks')).find((name) => name.startsWith('serve-command-'))!;
  const graph = new Map<string, string>();
  const pending = [join(outCli, 'main.js'), join(outCli, 'chunks', serveChunk)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (graph.has(file)) continue;
    const code = readFileSync(file, 'utf8');
    graph.set(file, code);
    // Static imports only (`} from "./x.js"`, `import "./x.js"`): dynamic import("./x.js") loads on first use.
    for (const [, path] of code.matchAll(/^(?:} from|import) "(\.[^"]+)";$/gm)) pending.push(join(dirname(file), path!));
  }
  return graph;
}

/** The packages' files esbuild names in `// node_modules/...` comments: what the bundled code came from. */
function bundledSources(graph: Map<string, string>): string[] {
  return [...graph.values()].flatMap((code) => [...code.matchAll(/^\/\/ (node_modules\/\S+)$/gm)].map((match) => match[1]!));
}

// What keeps `signing-station serve` fast to start is mostly what its start does not load (README, Start-up).
describe('the built CLI: what serve loads before it listens', () => {
  const sources = bundledSources(serveStartGraph());

  it('holds the station, Fastify and zod, and only the zod it uses (a `import { z }` anywhere brings back its locales)', () => {
    expect(sources).toContainEqual(expect.stringMatching(/^node_modules\/fastify\//));
    expect(sources).toContainEqual(expect.stringMatching(/^node_modules\/zod\/v4\/core\/schemas\.js$/));
    expect(sources.filter((source) => /^node_modules\/zod\/v4\/locales\/(?!en\.js)/.test(source))).toEqual([]);
  });

  it('leaves the signing engines, the UI file server and the OIDC provider to their first use', () => {
    const loaded = (name: string): string[] => sources.filter((source) => source.startsWith(`node_modules/${name}/`));
    expect([...loaded('pkijs'), ...loaded('xmldsigjs'), ...loaded('@fastify/send'), ...loaded('glob'), ...loaded('mime')]).toEqual([]);
    expect(sources.filter((source) => source.includes('tslib.es6'))).toEqual([]);
  });

  it('leaves X.509, ASN.1, the TSA encoder, zip and XML readers and EC arithmetic to their first use', () => {
    const loaded = (name: string): string[] => sources.filter((source) => source.startsWith(`node_modules/${name}/`));
    const pki = ['@peculiar/x509', '@peculiar/asn1-schema', '@peculiar/asn1-x509', '@peculiar/asn1-cms', '@peculiar/asn1-tsp', 'asn1js', 'reflect-metadata', 'tsyringe', '@noble/curves'];
    expect([...pki, '@xmldom/xmldom', 'yauzl'].flatMap(loaded)).toEqual([]);
  });
});
