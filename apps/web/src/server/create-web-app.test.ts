import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebApp, type WebApp } from './create-web-app.js';
import { webModelFromEnv } from './web-model.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const apps: WebApp[] = [];
afterEach(() => {
  for (const web of apps.splice(0)) web.close();
});

async function app() {
  const dataDir = await mkdtemp(join(tmpdir(), 'compaction-web-app-'));
  dirs.push(dataDir);
  const web = createWebApp({ dataDir, model: webModelFromEnv({ COMPACTION_WEB_CONTEXT_WINDOW: '24000' }) });
  apps.push(web);
  return web.app;
}

describe('createWebApp', () => {
  it('gives a new chat no messages, the window figures and no boundary', async () => {
    const response = await (await app()).request('/api/chats/new-chat');
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      messages: [],
      context: { sessionId: 'new-chat', contextWindow: 24_000, compactions: 0, contextTokens: 0 },
    });
    expect(body.compaction).toBeUndefined();
  });

  it('refuses a malformed chat id, body or focus with a 400 that says what to send', async () => {
    const web = await app();
    expect((await web.request('/api/chats/..%2Fetc')).status).toBe(400);
    const noMessages = await web.request('/api/chats/a/messages', { method: 'POST', body: '{}' });
    expect(noMessages.status).toBe(400);
    expect(await noMessages.json()).toEqual({ error: 'expected { messages: UIMessage[] }' });
    const badFocus = await web.request('/api/chats/a/compact', { method: 'POST', body: '{"focus":3}' });
    expect(badFocus.status).toBe(400);
    const longFocus = await web.request('/api/chats/a/compact', {
      method: 'POST',
      body: JSON.stringify({ focus: 'keep '.repeat(1000) }),
    });
    expect(longFocus.status).toBe(400);
    expect(((await longFocus.json()) as { error: string }).error).toMatch(/setting "focus": .*at most 2000/);
  });

  it('says there is nothing to compact in an empty chat', async () => {
    const response = await (await app()).request('/api/chats/empty/compact', { method: 'POST', body: '{}' });
    expect(await response.json()).toMatchObject({ compacted: false, context: { compactions: 0 } });
  });
});
