import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { healthSchema } from '../../../src/core/schemas/health.js';
import { UNDESCRIBED_SUMMARY } from '../../../src/station/http/openapi/openapi-document.js';
import { launchChromium } from '../../support/browser/browser.js';
import { axeViolations } from '../../support/browser/axe-violations.js';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';

interface OpenApi {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { summary: string; requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>>;
}

describe('home page, OpenAPI description and health', () => {
  let station: TestStation;
  let browser: Browser;
  let version: string;
  beforeAll(async () => {
    ({ version } = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string });
    station = await startTestStation({ mode: 'sandbox' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await station?.dispose();
  });

  it('GET / says what the station is, its version and mode, the addresses pages use, and how to open the UI, without the UI token', async () => {
    const response = await fetch(`${station.baseUrl}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; frame-ancestors 'none'/);
    expect(csp).not.toContain('script-src');
    const html = await response.text();
    expect(html).not.toContain('<script');
    expect(html).toContain(`Version <strong>${version}</strong>, mode <span class="mode">sandbox</span>`);
    for (const path of ['/client/service-browser-client.js', '/web-element/os-broker/&lt;client_id&gt;/&lt;method&gt;?doc_id=', '/.well-known/openid-configuration', '/api/timestamp/&lt;client_id&gt;', 'href="/openapi.json"', 'href="/docs/iframe-helper"']) {
      expect(html).toContain(path);
    }
    expect(html).toContain('<code>signing-station serve</code> (or <code>npm start</code>) printed when it started');
    expect(html).not.toMatch(/#launch=|\/ui\/#/);
  });

  it('renders in Chromium under its CSP: the style applies, nothing is blocked, no script runs', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${station.baseUrl}/`);
    expect(await page.locator('h1').textContent()).toBe('Signing Station');
    expect(await page.evaluate(() => getComputedStyle(document.body).maxWidth)).toBe('832px');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('at 800x600 shows how to open the station UI without scrolling, and passes every axe-core rule (landmarks included)', async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await page.goto(`${station.baseUrl}/`);
    const heading = page.getByRole('heading', { name: 'Open the station UI' });
    const box = (await heading.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(600);
    const paragraph = (await page.getByText('The UI is never opened from this page').boundingBox())!;
    expect(paragraph.y + paragraph.height).toBeLessThanOrEqual(600);
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('/openapi.json describes every registered route, with the request schemas the routes validate against', async () => {
    const document = (await (await fetch(`${station.baseUrl}/openapi.json`)).json()) as OpenApi;
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe(version);
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })));
    expect(operations.filter(({ operation }) => operation.summary === UNDESCRIBED_SUMMARY).map(({ key }) => key)).toEqual([]);
    for (const key of ['GET /', 'GET /api/health', 'POST /api/timestamp/{client_id}', 'GET /web-element/os-broker/{client_id}/{method}', 'GET /.well-known/openid-configuration', 'POST /oidc/oauth/token', 'GET /admin/api/overview']) {
      expect(operations.map((o) => o.key)).toContain(key);
    }
    const prepare = document.paths['/api/signatures/prepare-files-for-signing']!.post!;
    expect(Object.keys(prepare.requestBody!.content['application/json']!.schema!.properties!)).toEqual(expect.arrayContaining(['client_id', 'secret', 'files', 'container_type']));
    // Every documented path answers something other than 404 (the route exists), probed without side effects.
    for (const { key } of operations.filter(({ key }) => key.startsWith('GET ') && !key.includes('{') && !key.includes('*'))) {
      const response = await fetch(`${station.baseUrl}${key.slice(4)}`, { redirect: 'manual' });
      expect(response.status, key).not.toBe(404);
    }
  });

  it('GET /docs/<name> serves a guide as Markdown, and nothing outside the list', async () => {
    const guide = await fetch(`${station.baseUrl}/docs/iframe-helper`);
    expect(guide.status).toBe(200);
    expect(guide.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await guide.text()).toBe(await readFile(new URL('../../../docs/iframe-helper.md', import.meta.url), 'utf8'));
    for (const name of ['nope', '..%2FREADME', 'iframe-helper.md']) {
      const response = await fetch(`${station.baseUrl}/docs/${name}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ status: 'error', code: 'ERR_DOCS_NOT_FOUND' });
    }
  });

  it('GET /api/health answers JSON for scripts and monitors', async () => {
    const response = await fetch(`${station.baseUrl}/api/health`);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(healthSchema.parse(await response.json())).toEqual({ status: 'OK', version, mode: 'sandbox' });
  });
});
