import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

interface Metafile {
  outputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }>; inputs: Record<string, unknown> }>;
}

/** esbuild's account of the built CLI (scripts/build-cli.js): the minified files no longer name their sources. */
const metafile = JSON.parse(readFileSync(fileURLToPath(new URL('../../out/cli-meta.json', import.meta.url)), 'utf8')) as Metafile;

/** The files `serve` evaluates before it listens: its chunk and what it imports statically (import() is first use). */
function serveStartFiles(): string[] {
  const serveChunk = Object.keys(metafile.outputs).find((path) => /\/serve-command-[^/]+\.js$/.test(path))!;
  const pending = [Object.keys(metafile.outputs).find((path) => path.endsWith('/cli/main.js'))!, serveChunk];
  const seen = new Set<string>();
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { path, kind, external } of metafile.outputs[file]!.imports) if (kind === 'import-statement' && !external) pending.push(path);
  }
  return [...seen];
}

/** The sources bundled into those files, package files as `node_modules/...` wherever node_modules lives. */
function serveStartSources(): string[] {
  return serveStartFiles()
    .flatMap((file) => Object.keys(metafile.outputs[file]!.inputs))
    .map((input) => /node_modules\/.*$/.exec(input)?.[0] ?? input);
}

/** The packages those files require at run time (natives and oidc-provider stay outside the bundle). */
function serveStartExternals(): string[] {
  return serveStartFiles().flatMap((file) => metafile.outputs[file]!.imports.filter(({ kind, external }) => kind === 'import-statement' && external).map(({ path }) => path));
}

// What keeps `signing-station serve` fast to start is mostly what its start does not load
// (docs/architecture.md#start-up-what-loads-when).
describe('the built CLI: what serve loads before it listens', () => {
  const sources = serveStartSources();

  it('holds the station, its HTTP server and zod, and only the zod it uses (a `import { z }` anywhere brings back its locales)', () => {
    expect(sources).toContain('src/station/http/create-http-server.ts');
    expect(sources).toContain('node_modules/fastify/fastify.js');
    expect(sources.filter((source) => /^node_modules\/(ajv|@fastify\/(ajv-compiler|fast-json-stringify-compiler))\//.test(source))).toEqual([]);
    expect(sources).toContainEqual(expect.stringMatching(/^node_modules\/zod\/v4\/core\/schemas\.js$/));
    expect(sources.filter((source) => /^node_modules\/zod\/v4\/locales\/(?!en\.js)/.test(source))).toEqual([]);
  });

  it('leaves the signing engines, the UI file server and the OIDC provider to their first use', () => {
    const loaded = (name: string): string[] => sources.filter((source) => source.startsWith(`node_modules/${name}/`));
    expect([...loaded('pkijs'), ...loaded('xmldsigjs'), ...loaded('@fastify/send'), ...loaded('glob'), ...loaded('mime')]).toEqual([]);
    expect(sources.filter((source) => source.includes('tslib.es6'))).toEqual([]);
  });

  it('leaves X.509, ASN.1, the TSA encoder, zip readers and writers, XML readers and EC arithmetic to their first use', () => {
    const loaded = (name: string): string[] => sources.filter((source) => source.startsWith(`node_modules/${name}/`));
    const pki = ['@peculiar/x509', '@peculiar/asn1-schema', '@peculiar/asn1-x509', '@peculiar/asn1-cms', '@peculiar/asn1-tsp', 'asn1js', 'reflect-metadata', 'tsyringe', '@noble/curves'];
    expect([...pki, '@xmldom/xmldom', 'yauzl', 'yazl'].flatMap(loaded)).toEqual([]);
  });

  it('leaves the PDF reader and the visible stamp (fontkit, which unpacks its Unicode tables when loaded) to their first use', () => {
    const loaded = (name: string): string[] => sources.filter((source) => source.startsWith(`node_modules/${name}/`));
    expect(['fontkit', 'unicode-properties', 'unicode-trie', 'tiny-inflate', 'linebreak'].flatMap(loaded)).toEqual([]);
    expect(sources.filter((source) => source.startsWith('src/station/signing/pdf/'))).toEqual([]);
  });

  it('loads SQLite and the keychain, and leaves pkcs11js to the first use of a token', () => {
    const externals = serveStartExternals();
    expect(externals).toEqual(expect.arrayContaining(['sqlite3', '@napi-rs/keyring']));
    expect(externals).not.toContain('pkcs11js');
    expect(externals).not.toContain('oidc-provider');
  });
});
