/**
 * Renders the sample insurance cards (./samples.ts) to PNG with Chromium (playwright-core):
 * `npx tsx infra/dev/sandbox/cards/make-cards.ts`. Each card is HTML at 1,000 × 630 CSS pixels (a
 * card's 85.6 × 54 mm); the images are committed, and the sandbox Messages API knows them by their
 * SHA-256, so run this only when a card changes (CHROMIUM_PATH names another browser).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { SAMPLE_SIDES, type SampleSide } from './samples.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const BROWSER = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find(
  (path) => path && existsSync(path),
);

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function html(side: SampleSide): string {
  const { brand, colour, title, rows, footer } = side.look;
  const lines = rows.map(([label, value]) => `<div class="row"><span>${escapeHtml(label)}</span><b>${escapeHtml(value)}</b></div>`).join('');
  return `<!doctype html><html><head><style>
    body { margin: 0; }
    .card { width: 1000px; height: 630px; box-sizing: border-box; padding: 44px 56px; font-family: 'DejaVu Sans', sans-serif;
            background: linear-gradient(160deg, #ffffff 55%, ${colour}22); border-top: 36px solid ${colour}; color: #1b1b1b; }
    .brand { font-size: 46px; font-weight: bold; color: ${colour}; letter-spacing: 1px; }
    .title { font-size: 26px; margin: 6px 0 30px; color: #333; }
    .row { display: flex; gap: 24px; font-size: 27px; margin: 12px 0; }
    .row span { width: 300px; flex: none; color: #555; }
    .foot { position: absolute; left: 56px; top: 570px; font-size: 18px; color: #777; }
  </style></head><body><div class="card"><div class="brand">${escapeHtml(brand)}</div><div class="title">${escapeHtml(title)}</div>${lines}
  ${footer ? `<div class="foot">${escapeHtml(footer)}</div>` : ''}</div></body></html>`;
}

async function main(): Promise<void> {
  if (!BROWSER) throw new Error('No Chromium: apt-get install chromium, or set CHROMIUM_PATH');
  const browser = await chromium.launch({ executablePath: BROWSER, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 630 }, deviceScaleFactor: 1 });
    for (const side of SAMPLE_SIDES) {
      await page.setContent(html(side));
      const png = await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width: 1000, height: 630 } });
      await writeFile(`${HERE}${side.file}`, png);
      console.log(`${side.file}: ${png.length} bytes`);
    }
  } finally {
    await browser.close();
  }
}

await main();
