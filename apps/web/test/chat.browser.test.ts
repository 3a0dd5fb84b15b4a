/// <reference lib="dom" />
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChatStats } from '@compaction/ai-sdk';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from '../src/server/start-web-server.js';
import { webModelFromEnv } from '../src/server/web-model.js';

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
/** Screenshots of each stage, in an ignored folder; chosen ones are copied to docs/ by hand. */
const SHOTS = fileURLToPath(new URL('../out/screenshots/', import.meta.url));
/** A small window, so the replay crosses the trigger within a few messages. */
const ENV = { COMPACTION_WEB_CONTEXT_WINDOW: '40000' };
const CHAT = 'e2e-chat';

/** What the page shows of the compaction state, read from the rendered DOM. */
type Shown = {
  marker: { version: number; firstKept: string; text: string } | undefined;
  bar: { tokens: number; window: number; trigger: number; level: string; fill: number; mark: number };
  /** Height of every tool call line (one line each). */
  toolLines: number[];
  messages: { id: string; summarized: boolean; opacity: number }[];
  markerIndex: number;
};

function readPage(page: Page): Promise<Shown> {
  return page.evaluate(async () => {
    // A message's dimming and the bar's fill are CSS transitions: read them once they ended,
    // not mid-way (`getAnimations` flushes styles, so a transition just set off is included).
    await Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
    const marker = document.querySelector<HTMLElement>('.compaction-marker');
    const bar = document.querySelector<HTMLElement>('.context-bar')!;
    const nodes = [...document.querySelectorAll<HTMLElement>('.history > .message, .history > .compaction-marker')];
    const messages = nodes
      .filter((node) => node.classList.contains('message'))
      .map((node) => ({
        id: node.dataset.id!,
        summarized: node.dataset.summarized === 'true',
        opacity: Number(getComputedStyle(node).opacity),
      }));
    const label = marker?.querySelector('.label')?.textContent ?? '';
    return {
      marker: marker
        ? {
            version: Number(marker.dataset.version),
            firstKept: marker.dataset.firstKept ?? '',
            text: label,
          }
        : undefined,
      bar: {
        tokens: Number(bar.dataset.tokens),
        window: Number(bar.dataset.window),
        trigger: Number(bar.dataset.trigger),
        level: bar.dataset.level ?? '',
        fill: bar.querySelector<HTMLElement>('.fill')!.getBoundingClientRect().width,
        // Where the trigger is marked, as a share of the bar's width.
        mark: (() => {
          const track = bar.querySelector<HTMLElement>('.bar')!.getBoundingClientRect();
          return (bar.querySelector<HTMLElement>('.trigger')!.getBoundingClientRect().left - track.left) / track.width;
        })(),
      },
      toolLines: [...document.querySelectorAll<HTMLElement>('.tool-line')].map(
        (line) => line.getBoundingClientRect().height,
      ),
      messages,
      markerIndex: nodes.findIndex((node) => node.classList.contains('compaction-marker')),
    };
  });
}

/** Screenshot of the page with the boundary marker in the middle of the history. */
async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.querySelector('.compaction-marker')?.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: join(SHOTS, name) });
}

async function serverStats(server: WebServer): Promise<ChatStats> {
  return (await fetch(`${server.url}/api/chats/${CHAT}/stats`)).json() as Promise<ChatStats>;
}

/** Types into the input and waits until the answer (or the compaction) is done. */
async function send(page: Page, text: string): Promise<void> {
  await page.fill('#prompt', text);
  await page.press('#prompt', 'Enter');
  await page
    .waitForFunction(() => document.querySelector('.history')?.getAttribute('data-status') !== 'ready', null, {
      timeout: 5000,
    })
    .catch(() => {});
  await page.waitForFunction(
    () =>
      document.querySelector('.history')?.getAttribute('data-status') === 'ready' &&
      document.querySelector('.composer button')?.textContent === 'Send',
    null,
    { timeout: 60_000 },
  );
}

/** The page agrees with the server: boundary, dimmed messages and bar figures. */
async function expectAgreement(page: Page, server: WebServer): Promise<Shown> {
  const shown = await readPage(page);
  const stats = await serverStats(server);
  expect(shown.bar).toMatchObject({
    tokens: stats.context.contextTokens,
    window: stats.context.contextWindow,
    trigger: stats.context.triggerTokens,
  });
  const expectedLevel =
    stats.context.contextTokens >= stats.context.triggerTokens
      ? 'over'
      : stats.context.contextTokens >= stats.context.triggerTokens * 0.75
        ? 'high'
        : 'low';
  expect(shown.bar.level).toBe(expectedLevel);
  expect(shown.bar.mark).toBeCloseTo(stats.context.triggerTokens / stats.context.contextWindow, 2);
  for (const height of shown.toolLines) expect(height).toBeLessThan(32);
  expect(stats.compaction).toBeDefined();
  expect(shown.marker?.version).toBe(stats.compaction!.version);
  expect(shown.marker?.firstKept).toBe(stats.compaction!.firstKeptMessageId);
  const keptAt = shown.messages.findIndex((message) => message.id === stats.compaction!.firstKeptMessageId);
  const pruned = stats.compaction!.strategy === 'prune';
  expect(keptAt).toBeGreaterThanOrEqual(0);
  // The marker sits right before the first kept message; everything before it is dimmed, nothing after.
  expect(shown.markerIndex).toBe(keptAt);
  const dimmed = pruned ? 0 : keptAt;
  expect(shown.messages.map((message) => message.summarized)).toEqual(shown.messages.map((_, index) => index < dimmed));
  for (const message of shown.messages) expect(message.opacity < 1).toBe(message.summarized);
  const k = (tokens: number) => `${Math.round(tokens / 1000)}K`;
  const figures = `${k(stats.compaction!.tokensBefore)} → ${k(stats.compaction!.tokensAfter)} tokens`;
  expect(shown.marker?.text).toBe(
    pruned ? `Old tool outputs cleared · ${figures}` : `${keptAt} messages summarized · ${figures}`,
  );
  return shown;
}

describe('the web app in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let server: WebServer;
  let dataDir: string;
  let clientDir: string;
  let port = 0;
  let work: string;
  const pageErrors: string[] = [];

  async function start(): Promise<void> {
    server = await startWebServer({ port, dataDir, clientDir, model: webModelFromEnv(ENV) });
    port = Number(new URL(server.url).port);
  }

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'compaction-web-'));
    dataDir = join(work, 'data');
    clientDir = join(work, 'client');
    await build({
      configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
      build: { outDir: clientDir, emptyOutDir: true },
      logLevel: 'error',
    });
    await mkdir(SHOTS, { recursive: true });
    await start();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
  }, 120_000);

  afterAll(async () => {
    expect(pageErrors).toEqual([]);
    await browser?.close();
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('crosses the trigger: a boundary marker, dimmed messages and a bar that match the server', async () => {
    await page.goto(`${server.url}/?chat=${CHAT}`);
    await page.waitForSelector('#prompt');
    let turns = 0;
    for (; turns < 12; turns += 1) {
      await send(page, `Step ${turns + 1}: please carry on with the task.`);
      const shown = await readPage(page);
      const stats = await serverStats(server);
      // The bar is updated after every response, to the server's figures.
      expect(shown.bar.tokens).toBe(stats.context.contextTokens);
      if (turns === 0) await page.screenshot({ path: join(SHOTS, '1-first-answer.png') });
      if (shown.marker) await expectAgreement(page, server);
      if (stats.compaction && stats.compaction.strategy !== 'prune') break;
    }
    expect(turns).toBeGreaterThan(0);
    expect(turns).toBeLessThan(12);
    const shown = await expectAgreement(page, server);
    expect(shown.marker?.version).toBeGreaterThanOrEqual(1);
    expect(shown.messages.filter((message) => message.summarized).length).toBeGreaterThan(0);
    expect(await page.locator('.tool-call').count()).toBeGreaterThan(0);

    await page.click('.compaction-marker .marker-line');
    const stats = await serverStats(server);
    expect((await page.textContent('.compaction-summary'))?.trim()).toBe(stats.compaction!.summary.trim());
    await page.screenshot({ path: join(SHOTS, '2-auto-compaction.png') });
    await page.click('.compaction-marker .marker-line');
  }, 240_000);

  it('/compact focus … compacts on demand and moves the boundary', async () => {
    const before = await serverStats(server);
    await send(page, '/compact focus on the failing tests');
    await page.waitForFunction(
      (version) => Number(document.querySelector<HTMLElement>('.compaction-marker')?.dataset.version) === version,
      before.compaction!.version + 1,
      { timeout: 60_000 },
    );
    expect(await page.textContent('.notice')).toMatch(/^Conversation compacted: \d+ messages → summary, /);
    const after = await serverStats(server);
    expect(after.compaction?.version).toBe(before.compaction!.version + 1);
    expect(after.context.compactions).toBe(before.context.compactions + 1);
    expect(after.compaction?.summary).toContain('failing tests');
    await expectAgreement(page, server);
    await shot(page, '3-manual-compaction.png');
  }, 120_000);

  it('shows the same state after a reload and after a server restart, and goes on from there', async () => {
    const before = await expectAgreement(page, server);
    await page.reload();
    await page.waitForSelector('.compaction-marker');
    expect(await expectAgreement(page, server)).toEqual(before);
    await shot(page, '4-after-reload.png');

    await server.close();
    await start();
    await page.reload();
    await page.waitForSelector('.compaction-marker');
    expect(await expectAgreement(page, server)).toEqual(before);

    await send(page, 'Thanks — what is next?');
    const next = await expectAgreement(page, server);
    expect(next.messages.length).toBe(before.messages.length + 2);
    expect(next.marker!.version).toBeGreaterThanOrEqual(before.marker!.version);
    await shot(page, '5-after-restart.png');
  }, 180_000);
});
