// What a person sees of each case, as Chromium renders it: which marker numbers are legible on the
// page, and which URLs the page asks for. Reads {"cases": [{"id", "html"}]} as
// JSON on stdin and writes {"<id>": {"markers": {"<marker>": "visible"|"hidden"}, "fetched":
// [...]}} on stdout. Run by oracle.py, which knows where Chromium and playwright-core are.
//
// A marker is a number (7 and four digits). It is legible when swapping each of its digits for
// another changes the screenshot of the page's reachable area (the viewport's width, the page's
// height: a person scrolls down, not sideways) with enough contrast, over at least MIN_HEIGHT rows
// of pixels. Digits have one width in the fonts here, so the swap moves nothing else on the page.
'use strict';

const path = require('path');
const { chromium } = require(path.join(process.env.ORACLE_NODE_MODULES, 'playwright-core'));

const WIDTH = 1280;
const HEIGHT = 800;
const MAX_PAGE_HEIGHT = 12000;
const MIN_CONTRAST = 1.25;
const MIN_HEIGHT = 3;
const MARKER = /\b7\d{4}\b/g;
const ORIGIN = 'http://docs.example';

function readStdin() {
  return new Promise((resolve) => {
    const chunks = [];
    process.stdin.on('data', (chunk) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

// Runs in the page: swap the marker's digits in every text node holding it (not in style or
// script, whose text is no text on the page); returns how many nodes held it.
function swapDigits(marker) {
  const rotate = (text) => text.replace(/\d/g, (d) => String((Number(d) + 5) % 10));
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_TEXT);
  let held = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentNode && node.parentNode.nodeName.toLowerCase();
    if (parent === 'style' || parent === 'script') continue;
    if (!node.data.includes(marker)) continue;
    node.data = node.data.split(marker).join(rotate(marker));
    held += 1;
  }
  return held;
}

function restoreDigits(marker) {
  const rotated = marker.replace(/\d/g, (d) => String((Number(d) + 5) % 10));
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.data.includes(rotated)) node.data = node.data.split(rotated).join(marker);
  }
}

// Runs in a blank page: the rows spanned by pixels whose colour changed with enough contrast.
async function changedRows([before, after, minContrast]) {
  async function pixels(base64) {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    return context.getImageData(0, 0, bitmap.width, bitmap.height);
  }
  const a = await pixels(before);
  const b = await pixels(after);
  if (a.width !== b.width || a.height !== b.height) return { rows: -1 };
  const linear = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = (d, i) => 0.2126 * linear(d[i]) + 0.7152 * linear(d[i + 1]) + 0.0722 * linear(d[i + 2]);
  let top = Infinity;
  let bottom = -Infinity;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i] === b.data[i] && a.data[i + 1] === b.data[i + 1] && a.data[i + 2] === b.data[i + 2]) continue;
    const la = luminance(a.data, i);
    const lb = luminance(b.data, i);
    const contrast = (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    if (contrast < minContrast) continue;
    const row = Math.floor(i / 4 / a.width);
    top = Math.min(top, row);
    bottom = Math.max(bottom, row);
  }
  return { rows: bottom >= top ? bottom - top + 1 : 0 };
}

async function screenshot(page) {
  const height = await page.evaluate(
    // The scrolling element: the body in quirks mode (a page without a doctype), else the root.
    (max) => Math.min(max, Math.max(document.scrollingElement.scrollHeight, innerHeight)),
    MAX_PAGE_HEIGHT,
  );
  const png = await page.screenshot({
    fullPage: true,
    clip: { x: 0, y: 0, width: WIDTH, height },
    animations: 'disabled',
    caret: 'hide',
  });
  return png.toString('base64');
}

// One page for every case, each loaded afresh: the route serves the current case's source and
// refuses (and records) every other request.
async function judge(page, helper, item, fetched) {
  const result = { markers: {} };
  await page.goto(`${ORIGIN}/case`, { waitUntil: 'load', timeout: 15000 });
  // A closed <details> is one click from being read: its content counts as seen.
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  const markers = [...new Set(item.html.match(MARKER) || [])];
  const before = await screenshot(page);
  for (const marker of markers) {
    const held = await page.evaluate(swapDigits, marker);
    let verdict = 'hidden';
    if (held > 0) {
      const after = await screenshot(page);
      if (after !== before) {
        const { rows } = await helper.evaluate(changedRows, [before, after, MIN_CONTRAST]);
        verdict = rows < 0 || rows >= MIN_HEIGHT ? 'visible' : 'hidden';
      }
      await page.evaluate(restoreDigits, marker);
    }
    result.markers[marker] = verdict;
  }
  result.fetched = [...new Set(fetched)].filter((url) => url !== `${ORIGIN}/favicon.ico`);
  return result;
}

(async () => {
  const input = JSON.parse(await readStdin());
  const browser = await chromium.launch({
    executablePath: process.env.ORACLE_CHROMIUM,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync',
      '--font-render-hinting=none',
    ],
  });
  try {
    const helper = await browser.newPage();
    const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT } });
    const page = await context.newPage();
    let current = null;
    let fetched = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url === `${ORIGIN}/case`) {
        return route.fulfill({ contentType: 'text/html; charset=utf-8', body: current.html });
      }
      fetched.push(url);
      return route.abort();
    });
    const out = {};
    for (const item of input.cases) {
      current = item;
      fetched = [];
      out[item.id] = await judge(page, helper, item, fetched);
    }
    process.stdout.write(JSON.stringify(out));
  } finally {
    await browser.close();
  }
})().catch((error) => {
  process.stderr.write(String(error && error.stack || error));
  process.exit(1);
});
