import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROUTE_TABLE } from '../../lib/http/routes.js';
import { findChromium } from '../support/chromium.js';
import { MOCK_SET_1 } from '../support/events.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';

/**
 * GET /api/docs in a real browser: Playwright (playwright-core) drives a headless Chromium, the one
 * shipped in an npm package or the one CHROMIUM_PATH names (test/support/chromium.ts). The page renders every
 * route of the route table from the OpenAPI document, its "Test Request" client sends mock set 1 to the
 * same server and shows the mock answer, and nothing is fetched from any host but the API's own.
 */

const openapi = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { summary: string }>>;
};

let api: LocalApi;
let browser: Browser;
let page: Page;
/** Requests to any host but the local API (refused), console errors and uncaught page errors. */
const elsewhere: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  const chromiumBinary = findChromium();
  // The server and the browser start side by side (neither needs the other until the page loads);
  // whichever started is kept for afterAll to stop, even when the other failed.
  const [server, chrome] = await Promise.allSettled([startLocalApi(), chromium.launch({ ...chromiumBinary, args: ['--no-sandbox'] })]);
  if (server.status === 'fulfilled') api = server.value;
  if (chrome.status === 'fulfilled') browser = chrome.value;
  for (const started of [server, chrome]) if (started.status === 'rejected') throw started.reason;
  page = await browser.newPage();
  const own = new URL(api.url).host;
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.host === own) return route.continue();
    elsewhere.push(url.href);
    return route.abort();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

describe('GET /api/docs (the interactive API reference)', () => {
  it('answers an HTML page without a token, with a policy that allows only its own origin', async () => {
    const reply = await fetch(`${api.url}/api/docs`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(reply.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(reply.headers.get('cache-control')).toBe('no-store');
    const html = await reply.text();
    expect(html).toContain('<script src="docs/scalar.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    const script = await fetch(`${api.url}/api/docs/scalar.js`);
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(await script.text()).toContain('@scalar/api-reference');
  });

  it('renders every route of the route table, by method, path and summary', async () => {
    await page.goto(`${api.url}/api/docs`);
    const needles = ROUTE_TABLE.flatMap((route) => [`${route.method} ${route.path}`, openapi.paths[route.path]![route.method.toLowerCase()]!.summary]);
    // The reference renders as it reads the document: wait until every route is on the page (or time out).
    await page
      .waitForFunction(
        (all) => {
          // Runs in the browser (no DOM types in this project). innerText, not textContent: the text as rendered.
          // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what the test reads.
          const text = (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText.replace(/\s+/g, ' ');
          return all.every((needle) => text.includes(needle));
        },
        needles,
        // Every 200 ms rather than every animation frame: innerText lays the whole page out each time it is read.
        { timeout: 30_000, polling: 200 },
      )
      .catch(() => undefined);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a reader sees it.
    const text = (await page.locator('body').innerText()).replace(/\s+/g, ' ');
    for (const route of ROUTE_TABLE) {
      const summary = openapi.paths[route.path]![route.method.toLowerCase()]!.summary;
      expect([route.method, route.path, text.includes(`${route.method} ${route.path}`), text.includes(summary)]).toEqual([
        route.method,
        route.path,
        true,
        true,
      ]);
    }
  }, 60_000);

  it('its "Test Request" client sends mock set 1 to this server and shows the mock answer', async () => {
    await page
      .getByRole('button', { name: /Test Request/ })
      .first()
      .click();
    const client = page.getByRole('dialog');
    await client.waitFor();
    await client.getByPlaceholder('Token').fill(api.token);
    await client.locator('.cm-content[data-language="json"]').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(JSON.stringify(MOCK_SET_1));
    // The client takes an edited body into its request after a debounce (328 ms in Scalar's event bus): a
    // Send before that still carries the example body. A timer set in the page now, longer than the
    // debounce, fires after the debounce's own timer (set when the text went in), so the first Send
    // normally carries the edited body; should the debounce ever be longer, send again (at most five
    // times) until the edited body went out.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    let status = 0;
    let body: { message?: string; inNetwork?: { individual: { copay: string } } } = {};
    for (let attempt = 0; attempt < 5 && body.message !== 'Mock Eligibility check successful.'; attempt++) {
      const answered = page.waitForResponse((response) => response.url() === `${api.url}/api/eligibility/v1` && response.request().method() === 'POST');
      await client.getByRole('button', { name: /^Send/ }).first().click();
      const response = await answered;
      [status, body] = [response.status(), await response.json()];
    }
    expect([status, body.message, body.inNetwork?.individual.copay]).toEqual([200, 'Mock Eligibility check successful.', '$20.00']);
    await client.getByText('200 OK').first().waitFor();
    await client.getByText('Mock Eligibility check successful.').first().waitFor();
  }, 60_000);

  it('fetched nothing from any other host and logged no error', () => {
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
  });
});
