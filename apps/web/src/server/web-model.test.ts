import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebApp, type WebApp } from './create-web-app.js';
import { DEFAULT_REPLAY_WINDOW, webModelFromEnv } from './web-model.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
  });
}

/** A minimal OpenAI-compatible endpoint: streams "Hello from the endpoint." and reports usage. */
async function fakeEndpoint(): Promise<{ url: string; requests: Record<string, unknown>[] }> {
  const requests: Record<string, unknown>[] = [];
  const server: Server = createServer(async (request, response) => {
    requests.push(JSON.parse(await readBody(request)) as Record<string, unknown>);
    if (request.url !== '/v1/chat/completions') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: object, finish: string | null, usage?: object) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'local-model', choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
    response.write(chunk({ role: 'assistant', content: 'Hello from ' }, null));
    response.write(chunk({ content: 'the endpoint.' }, null));
    response.write(chunk({}, 'stop', { prompt_tokens: 42, completion_tokens: 5, total_tokens: 47 }));
    response.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests };
}

describe('webModelFromEnv', () => {
  it('replays the recorded session offline by default, with a small window', () => {
    const model = webModelFromEnv({});
    expect(model.description).toMatch(/^replay of 258c7280-.*\.jsonl \(\d+ recorded model calls, offline\)$/);
    expect(model.settings.contextWindow).toBe(DEFAULT_REPLAY_WINDOW);
    expect(model.summarizer).toBe('structured');
    expect(Object.keys(model.tools)).toEqual(expect.arrayContaining(['Read', 'Bash', 'Edit']));
  });

  it('refuses malformed variables at once, naming them', () => {
    expect(() => webModelFromEnv({ COMPACTION_WEB_CONTEXT_WINDOW: 'big' })).toThrow(/COMPACTION_WEB_CONTEXT_WINDOW/);
    expect(() => webModelFromEnv({ COMPACTION_WEB_CONTEXT_WINDOW: '100' })).toThrow(/≥ 4000/);
    expect(() => webModelFromEnv({ COMPACTION_DEMO_BASE_URL: 'not a url' })).toThrow(/is not a URL/);
    expect(() => webModelFromEnv({ COMPACTION_DEMO_BASE_URL: 'http://127.0.0.1:1/v1' })).toThrow(
      /COMPACTION_DEMO_MODEL is not/,
    );
  });

  it('chats with an OpenAI-compatible endpoint when one is configured, as the CLI chat does', async () => {
    const endpoint = await fakeEndpoint();
    const model = webModelFromEnv({
      COMPACTION_DEMO_BASE_URL: endpoint.url,
      COMPACTION_DEMO_MODEL: 'local-model',
      COMPACTION_DEMO_API_KEY: 'secret',
      COMPACTION_WEB_CONTEXT_WINDOW: '32000',
    });
    expect(model).toMatchObject({ description: `local-model at ${endpoint.url}`, summarizer: 'llm' });
    const dataDir = await mkdtemp(join(tmpdir(), 'compaction-web-endpoint-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const web: WebApp = createWebApp({ dataDir, model });
    cleanups.push(() => web.close());

    const response = await web.app.request('/api/chats/endpoint-chat/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi there' }] }] }),
    });
    const stream = await response.text();
    expect(stream).toContain('"delta":"Hello from "');
    expect(stream).toContain('"delta":"the endpoint."');
    expect(stream).toContain('"type":"data-compaction-context"');
    expect(endpoint.requests[0]).toMatchObject({
      model: 'local-model',
      stream: true,
      messages: [
        { role: 'system', content: model.instructions },
        { role: 'user', content: 'Hi there' },
      ],
    });

    const stored = (await (await web.app.request('/api/chats/endpoint-chat')).json()) as {
      messages: { role: string }[];
      context: { contextWindow: number };
    };
    expect(stored.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(stored.context.contextWindow).toBe(32_000);
  });

  it('keeps the user message when the endpoint is down, and says why in the stream', async () => {
    const model = webModelFromEnv({ COMPACTION_DEMO_BASE_URL: 'http://127.0.0.1:9/v1', COMPACTION_DEMO_MODEL: 'm' });
    const dataDir = await mkdtemp(join(tmpdir(), 'compaction-web-down-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const web = createWebApp({ dataDir, model });
    cleanups.push(() => web.close());
    const response = await web.app.request('/api/chats/down/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Anyone there?' }] }],
      }),
    });
    expect(await response.text()).toContain('"type":"error"');
    const stored = (await (await web.app.request('/api/chats/down')).json()) as { messages: { id: string }[] };
    expect(stored.messages.map((message) => message.id)).toContain('u1');
  }, 30_000); // the AI SDK retries a refused connection twice, with backoff
});
