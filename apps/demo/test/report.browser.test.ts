/// <reference lib="dom" />
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

/** Debian's Chromium; `scripts/ensure-chromium.mjs` installs it (the test command runs it first). */
const CHROMIUM = '/usr/bin/chromium';
/** Headless flags that keep Chromium off the (closed) network and out of any first-run UI. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SECTION_IDS = [
  'scripted-core',
  'scripted-ai-sdk',
  'scripted-langchain',
  'scripted-langchain-memory',
  'scripted-mastra',
  'claude-code',
];

/** What one section's chart, compactions and totals look like in the rendered page. */
type RenderedSection = {
  chart: { width: number; height: number; calls: number };
  series: Record<string, { points: number; width: number; height: number }>;
  /** `data-call` of each `line.compaction-marker`. */
  markers: number[];
  compactions: { beforeCall: number; strategy: string; summary: string | null; summaryHeight: number; text: string }[];
  totals: Record<string, { recorded: string; ours: string; height: number }>;
};

/** Reads one section's rendered geometry and text from the page (layout, not markup). */
function readSection(page: Page, id: string): Promise<RenderedSection> {
  return page.evaluate((sectionId) => {
    const section = document.getElementById(sectionId)!;
    const chart = section.querySelector<SVGSVGElement>('svg.context-chart')!;
    const chartBox = chart.getBoundingClientRect();
    const series: Record<string, { points: number; width: number; height: number }> = {};
    for (const line of chart.querySelectorAll<SVGPolylineElement>('polyline.series')) {
      const box = line.getBoundingClientRect();
      series[line.dataset.series!] = { points: line.points.numberOfItems, width: box.width, height: box.height };
    }
    const totals: Record<string, { recorded: string; ours: string; height: number }> = {};
    for (const row of section.querySelectorAll<HTMLTableRowElement>('table.totals tr[data-figure]')) {
      totals[row.dataset.figure!] = {
        recorded: row.querySelector<HTMLElement>('.recorded')!.textContent,
        ours: row.querySelector<HTMLElement>('.ours')!.textContent,
        height: row.getBoundingClientRect().height,
      };
    }
    return {
      chart: { width: chartBox.width, height: chartBox.height, calls: Number(chart.dataset.calls) },
      series,
      markers: [...chart.querySelectorAll<SVGLineElement>('line.compaction-marker')].map((line) =>
        Number(line.dataset.call),
      ),
      compactions: [...section.querySelectorAll<HTMLLIElement>('ol.compactions > li.compaction')].map((item) => {
        const pre = item.querySelector<HTMLElement>('pre.summary-text');
        return {
          beforeCall: Number(item.dataset.beforeCall),
          strategy: item.dataset.strategy!,
          summary: pre?.textContent ?? null,
          summaryHeight: pre?.getBoundingClientRect().height ?? 0,
          text: item.textContent,
        };
      }),
      totals,
    };
  }, id);
}

const CHROMIUM_MISSING = `${CHROMIUM} is missing: run \`node scripts/ensure-chromium.mjs\` (as root) to install it`;

// Its own test, so a machine without Chromium counts a failed test, not only skipped ones.
it(`finds Debian's Chromium at ${CHROMIUM}`, () => {
  expect(existsSync(CHROMIUM), CHROMIUM_MISSING).toBe(true);
});

describe('the demo report in headless Chromium', () => {
  let browser: Browser | undefined;
  let page: Page;
  let reportUrl: string;
  const requests: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(CHROMIUM_MISSING);
    const out = join(await mkdtemp(join(tmpdir(), 'compaction-report-')), 'report.html');
    const run = await runCli(['demo', '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    reportUrl = pathToFileURL(out).href;

    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(reportUrl, { waitUntil: 'load' });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('renders every replay with a sized chart whose series and compaction markers are drawn', async () => {
    expect(await page.title()).not.toBe('');
    for (const id of SECTION_IDS) {
      const section = await readSection(page, id);
      expect(section.chart.width, id).toBeGreaterThan(400);
      expect(section.chart.height, id).toBeGreaterThan(150);
      expect(section.series.ours?.points, id).toBe(section.chart.calls);
      expect(section.series.uncompacted?.points, id).toBe(section.chart.calls);
      // The ours line spans the chart from the first call to the last and has height.
      expect(section.series.ours!.width, id).toBeGreaterThan(section.chart.width * 0.8);
      expect(section.series.ours!.height, id).toBeGreaterThan(0);
      expect(section.markers.length, id).toBeGreaterThanOrEqual(1);
      for (const call of section.markers) expect(call, id).toBeGreaterThanOrEqual(1);
      for (const call of section.markers) expect(call, id).toBeLessThanOrEqual(section.chart.calls);
    }
    const recorded = await readSection(page, 'claude-code');
    expect(recorded.series.recorded?.points).toBe(recorded.chart.calls);
    expect(recorded.series.recorded!.width).toBeGreaterThan(recorded.chart.width * 0.8);
  });

  it('lists each compaction of the chart with its summary text, or says why there is none', async () => {
    for (const id of SECTION_IDS) {
      const { compactions, markers } = await readSection(page, id);
      expect(
        compactions.map((compaction) => compaction.beforeCall),
        id,
      ).toEqual(markers);
      for (const compaction of compactions) {
        expect(compaction.text, id).toContain(`Before call ${compaction.beforeCall}: Conversation compacted: `);
        if (compaction.strategy === 'prune') {
          expect(compaction.summary, id).toBeNull();
          expect(compaction.text, id).toContain('No summary: old tool outputs were cleared instead.');
        } else {
          // The structured summary, open and laid out (not collapsed to nothing).
          expect(compaction.summary, id).toMatch(/^## Goal\n\S.*\n## Next Steps\n/s);
          expect(compaction.summaryHeight, id).toBeGreaterThan(100);
        }
      }
      expect(compactions.filter((compaction) => compaction.summary !== null).length, id).toBeGreaterThanOrEqual(1);
    }
    await expect.poll(() => page.locator('#scripted-core-compactions pre.summary-text').first().isVisible()).toBe(true);
  });

  it('shows the totals with figures on both sides where there is a recording', async () => {
    const figure = /^\d[\d,.]*[KM]?$/;
    for (const id of SECTION_IDS) {
      const { totals } = await readSection(page, id);
      expect(Object.keys(totals), id).toEqual([
        'inputTokens',
        'callInputTokens',
        'summarizationInputTokens',
        'maxContextTokens',
        'costUnits',
      ]);
      for (const [key, row] of Object.entries(totals)) {
        expect(row.height, `${id} ${key}`).toBeGreaterThan(10);
        expect(row.ours, `${id} ${key}`).toMatch(figure);
      }
    }
    const { totals } = await readSection(page, 'claude-code');
    expect(totals.inputTokens?.recorded).toMatch(figure);
    expect(totals.maxContextTokens?.recorded).toMatch(figure);
  });

  it('loads nothing but the file itself and logs no errors', () => {
    expect(requests).toEqual([reportUrl]);
    expect(errors).toEqual([]);
  });

  it('says for every replay how many compaction errors and calls above the trigger it had, and draws none here', async () => {
    for (const id of SECTION_IDS) {
      const status = page.locator(`#${id}-status`);
      expect(await status.isVisible(), id).toBe(true);
      expect(await status.getAttribute('data-errors'), id).toBe('0');
      expect(await status.getAttribute('data-over-trigger'), id).toBe('0');
      expect(await status.textContent(), id).toMatch(
        /^0 compaction errors · 0 calls above the trigger of [\d,]+ tokens$/,
      );
    }
    expect(await page.locator('.compaction-error-marker, circle.over-trigger, li.compaction-error').count()).toBe(0);
  });

  it('labels both chart axes with their unit and ticks, and draws each compaction where it took effect', async () => {
    for (const id of SECTION_IDS) {
      const chart = page.locator(`#${id}-chart`);
      expect(await chart.locator('text.x-title').textContent(), id).toMatch(/^model call \(1–\d+\)$/);
      expect(await chart.locator('text.y-title').textContent(), id).toBe('context sent (tokens)');
      expect(await chart.locator('text.tick').count(), id).toBeGreaterThanOrEqual(8);
      const drops = await chart.locator('line.compaction-drop').evaluateAll((lines) =>
        lines.map((line) => {
          const box = line.getBoundingClientRect();
          return { call: Number((line as SVGLineElement).dataset.call), height: box.height };
        }),
      );
      const markers = await chart
        .locator('line.compaction-marker')
        .evaluateAll((lines) => lines.map((line) => Number((line as SVGLineElement).dataset.call)));
      expect(
        drops.map((drop) => drop.call),
        id,
      ).toEqual(markers);
      for (const drop of drops) expect(drop.height, `${id} call ${drop.call}`).toBeGreaterThan(2);
    }
  });

  it('takes a full-page screenshot (to a temporary file: tests write no tracked file)', async () => {
    const screenshot = join(await mkdtemp(join(tmpdir(), 'compaction-report-shot-')), 'report.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    const png = readFileSync(screenshot);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // IHDR: width then height, big-endian.
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBeGreaterThan(900);
  }, 30_000);
});
