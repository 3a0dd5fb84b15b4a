#!/usr/bin/env node
// Re-takes docs/report-screenshot.png on purpose: runs `demo` (from the build) into a
// temporary report, opens it in Debian's Chromium (`scripts/ensure-chromium.mjs`
// installs it) at 1200 px wide and saves a full-page screenshot. Tests never write it.
//
//   pnpm --filter @compaction/demo build && node apps/demo/scripts/report-screenshot.mjs [out.png]
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];
const entry = new URL('../dist/index.js', import.meta.url);
const out = resolve(process.argv[2] ?? fileURLToPath(new URL('../../../docs/report-screenshot.png', import.meta.url)));

if (!existsSync(fileURLToPath(entry))) {
  console.error('error: apps/demo/dist is missing; run `pnpm --filter @compaction/demo... build` first');
  process.exit(1);
}
if (!existsSync(CHROMIUM)) {
  console.error(`error: ${CHROMIUM} is missing; run \`node scripts/ensure-chromium.mjs\` (as root)`);
  process.exit(1);
}
const { main } = await import(entry.href);
const report = join(mkdtempSync(join(tmpdir(), 'compaction-screenshot-')), 'report.html');
const quiet = { write: () => true };
const code = await main(['demo', '--out', report], {
  stdout: quiet,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  fetch: globalThis.fetch,
});
if (code !== 0) process.exit(code);

const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.goto(pathToFileURL(report).href, { waitUntil: 'load' });
  await page.screenshot({ path: out, fullPage: true });
} finally {
  await browser.close();
}
console.log(`wrote ${out}`);
