import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type ChatPrompt, type CompactionUIMessage, compactionChat } from '@compaction/ai-sdk';
import { InvalidSettingsError, sqliteStore } from '@compaction/core';
import {
  convertToModelMessages,
  createUIMessageStream,
  createUIMessageStreamResponse,
  generateId,
  stepCountIs,
  streamText,
} from 'ai';
import { Hono } from 'hono';
import { isChatId } from './chat-id.js';
import { chatStore } from './chat-store.js';
import { clientFile } from './serve-client.js';
import type { WebModel } from './web-model.js';

/** Options of {@link createWebApp}. */
export type WebAppOptions = {
  /** Where chats (`chats/`) and compaction state (`sessions.db`, core's `sqliteStore`) persist. */
  dataDir: string;
  /** What the app chats with. */
  model: WebModel;
  /**
   * The built client (`vite build` output) to serve at `/`.
   * @default undefined (API only)
   */
  clientDir?: string;
  /**
   * Model calls one response may make (tool steps included).
   * @default 6
   */
  maxSteps?: number;
};

/** Steps the history holds: one `step-start` part per model call of each assistant message. */
function modelCalls(messages: readonly CompactionUIMessage[]): number {
  let calls = 0;
  for (const message of messages) {
    if (message.role === 'assistant') calls += message.parts.filter((part) => part.type === 'step-start').length;
  }
  return calls;
}

/**
 * The web app's server: the chat route (`POST /api/chats/:id/messages`, streaming
 * `streamText` through the compaction middleware, with `data-compaction` parts), the
 * conversation (`GET /api/chats/:id`: messages and stats), `GET /api/chats/:id/stats`,
 * `POST /api/chats/:id/compact` (`{ focus? }`), and the built client. Chats persist as
 * UI messages in `dataDir/chats`, compaction state in core's `sqliteStore` (`dataDir/sessions.db`).
 */
export function createWebApp(options: WebAppOptions): WebApp {
  const { model } = options;
  mkdirSync(options.dataDir, { recursive: true });
  const chats = chatStore(join(options.dataDir, 'chats'));
  const store = sqliteStore(join(options.dataDir, 'sessions.db'));
  const chat = compactionChat({
    model: model.model,
    store,
    summarizer: model.summarizer,
    settings: model.settings,
  });
  const prompt = (messages: readonly CompactionUIMessage[]): ChatPrompt => ({
    messages,
    instructions: model.instructions,
    tools: model.tools,
  });
  const app = new Hono();

  app.onError((error, c) => {
    const status = InvalidSettingsError.isInstance(error) ? 400 : 500;
    return c.json({ error: error instanceof Error ? error.message : String(error) }, status);
  });

  app.use('/api/chats/:id/*', async (c, next) => {
    if (!isChatId(c.req.param('id'))) return c.json({ error: 'a chat id is 1–80 letters, digits, - or _' }, 400);
    await next();
  });
  app.use('/api/chats/:id', async (c, next) => {
    if (!isChatId(c.req.param('id'))) return c.json({ error: 'a chat id is 1–80 letters, digits, - or _' }, 400);
    await next();
  });

  app.get('/api/info', (c) => c.json({ model: model.description }));

  app.get('/api/chats/:id', async (c) => {
    const chatId = c.req.param('id');
    const messages = await chats.load(chatId);
    return c.json({ messages, ...(await chat.stats(chatId, prompt(messages))) });
  });

  app.get('/api/chats/:id/stats', async (c) => {
    const chatId = c.req.param('id');
    return c.json(await chat.stats(chatId, prompt(await chats.load(chatId))));
  });

  app.post('/api/chats/:id/compact', async (c) => {
    const chatId = c.req.param('id');
    const body = (await c.req.json().catch(() => ({}))) as { focus?: unknown };
    if (body.focus !== undefined && typeof body.focus !== 'string') {
      return c.json({ error: 'focus must be a string' }, 400);
    }
    const messages = await chats.load(chatId);
    const focus = body.focus?.trim();
    return c.json(await chat.compact(chatId, { ...prompt(messages), ...(focus ? { focus } : {}) }));
  });

  app.post('/api/chats/:id/messages', async (c) => {
    const chatId = c.req.param('id');
    const body = (await c.req.json().catch(() => undefined)) as { messages?: unknown } | undefined;
    if (!Array.isArray(body?.messages)) return c.json({ error: 'expected { messages: UIMessage[] }' }, 400);
    const messages = body.messages as CompactionUIMessage[];
    // Stored before the answer starts: a failed or interrupted answer never loses the user's message.
    await chats.save(chatId, messages);
    model.replay?.seek(chatId, modelCalls(messages));
    const responseMessageId = generateId();
    const stream = createUIMessageStream<CompactionUIMessage>({
      originalMessages: messages,
      execute: async ({ writer }) => {
        const parts = chat.streamCompaction(writer, { chatId, ...prompt(messages), responseMessageId });
        try {
          const result = streamText({
            model: chat.model,
            instructions: model.instructions,
            messages: await convertToModelMessages(messages, { tools: model.tools }),
            tools: model.tools,
            stopWhen: stepCountIs(options.maxSteps ?? 6),
            providerOptions: chat.providerOptions(chatId),
          });
          writer.merge(
            result.toUIMessageStream({
              originalMessages: messages,
              generateMessageId: () => responseMessageId,
              onFinish: parts.onFinish,
            }),
          );
        } catch (error) {
          parts.stop();
          throw error;
        }
      },
      onFinish: async ({ messages: finished }) => {
        await chats.save(chatId, finished);
      },
      onError: (error) => (error instanceof Error ? error.message : String(error)),
    });
    return createUIMessageStreamResponse({ stream });
  });

  app.get('*', async (c) => {
    if (!options.clientDir) return c.notFound();
    return (
      (await clientFile(options.clientDir, c.req.path)) ??
      (await clientFile(options.clientDir, '/')) ??
      c.text('The client is not built: run `pnpm --filter @compaction/web build`.', 404)
    );
  });

  return { app, close: () => store.close() };
}

/** What {@link createWebApp} returns: the Hono app, and `close` for its database. */
export type WebApp = { app: Hono; close(): void };
