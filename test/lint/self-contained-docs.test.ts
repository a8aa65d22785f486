import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Someone who clones the repository has only what is in it: no file may cite a document the repository lacks
// (the reference texts the station was built from, or an issue tracker's numbers), and every relative link in the
// Markdown must reach a file, and a heading when it names one.
const root = process.cwd();
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
const SELF = 'test/lint/self-contained-docs.test.ts';

const CITATIONS: readonly RegExp[] = [
  /SERVICE-INTERFACE/,
  /CLIENT-REFERENCE/,
  /\bDESIGN\.md\b/,
  /\bENVIRONMENT\.md\b/,
  /\bSTYLE\.md\b/,
  /\.\.\/shared\b/,
  /\bissues? #?\d+/i,
];

const TEXT_FILE = /\.(ts|tsx|js|cjs|mjs|json|md|sh|html|css|yml|yaml|txt)$|^\.ci\/|(^|\/)[^./]+$/;

function textFiles(): string[] {
  return tracked.filter((file) => file !== SELF && file !== 'package-lock.json' && TEXT_FILE.test(file) && existsSync(path.join(root, file)) && statSync(path.join(root, file)).isFile());
}

/** `file:line: text` for every line of `text` that cites a document the repository lacks. */
function citationsIn(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, index) => (CITATIONS.some((pattern) => pattern.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...withoutCode.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => headingAnchor(match[1]!)));
}

/** Relative link targets of a Markdown file (inline links and images), outside code blocks and code spans. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with each relative link of `file`: a missing file, or a heading its target lacks. */
function brokenLinks(file: string): string[] {
  const markdown = readFileSync(path.join(root, file), 'utf8');
  return relativeLinks(markdown).flatMap((target) => {
    const [pathPart = '', fragment] = target.split('#', 2);
    const targetFile = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(pathPart)));
    if (!existsSync(path.join(root, targetFile))) return [`${file}: ${target} (no file ${targetFile})`];
    if (fragment === undefined || !targetFile.endsWith('.md')) return [];
    return anchorsOf(readFileSync(path.join(root, targetFile), 'utf8')).has(fragment) ? [] : [`${file}: ${target} (no heading #${fragment} in ${targetFile})`];
  });
}

describe('the repository stands on its own', () => {
  it('cites no document it lacks and no issue number', () => {
    const found = textFiles().flatMap((file) => citationsIn(file, readFileSync(path.join(root, file), 'utf8')));
    expect(found).toEqual([]);
  });

  it('every relative link in the Markdown reaches a file, and the heading it names', () => {
    const markdown = tracked.filter((file) => file.endsWith('.md') && existsSync(path.join(root, file)));
    expect(markdown).toContain('README.md');
    expect(markdown.flatMap(brokenLinks)).toEqual([]);
  });

  it('the README links every guide in docs/', () => {
    const linked = new Set(relativeLinks(readFileSync(path.join(root, 'README.md'), 'utf8')).map((target) => target.split('#')[0]));
    const guides = tracked.filter((file) => /^docs\/[^/]+\.md$/.test(file) && existsSync(path.join(root, file)));
    expect(guides.length).toBeGreaterThan(0);
    expect(guides.filter((guide) => !linked.has(guide))).toEqual([]);
  });

  it('every docs/<guide>.md a comment or file names exists, with the heading it names', () => {
    const named = textFiles().flatMap((file) =>
      [...readFileSync(path.join(root, file), 'utf8').matchAll(/\bdocs\/[a-z0-9-]+\.md(?:#[a-z0-9-]+)?/g)].map((match) => ({ file, target: match[0] })),
    );
    const broken = named.flatMap(({ file, target }) => {
      const [guide = '', fragment] = target.split('#', 2);
      if (!existsSync(path.join(root, guide))) return [`${file}: ${target} (no file)`];
      return fragment === undefined || anchorsOf(readFileSync(path.join(root, guide), 'utf8')).has(fragment) ? [] : [`${file}: ${target} (no such heading)`];
    });
    expect(named.length).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });

  it('finds what it looks for (each check on a made-up file)', () => {
    expect(citationsIn('x.ts', '// as the service interface says (SERVICE-INTERFACE 4.2)')).toHaveLength(1);
    expect(citationsIn('x.ts', '// fixed in issue 12')).toHaveLength(1);
    expect(citationsIn('x.ts', '// see docs/service-interface.md#signing-sessions')).toEqual([]);
    expect(relativeLinks('[a](docs/a.md) [b](https://x.example/) ![c](docs/c.png) `[d](e.md)`')).toEqual(['docs/a.md', 'docs/c.png']);
    expect(headingAnchor('Signing sessions and reasons (PDF, ASiC-E)')).toBe('signing-sessions-and-reasons-pdf-asic-e');
  });
});
