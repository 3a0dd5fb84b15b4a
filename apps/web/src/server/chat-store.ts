import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CompactionUIMessage } from '@compaction/ai-sdk';
import { isChatId } from './chat-id.js';

/** The UI messages of each chat, as `useChat` shows them (the full history). */
export type ChatStore = {
  /** The chat's messages; an unknown chat has none. */
  load(chatId: string): Promise<CompactionUIMessage[]>;
  /** Replaces the chat's messages (atomically: a reader sees the old or the new list). */
  save(chatId: string, messages: readonly CompactionUIMessage[]): Promise<void>;
};

/**
 * A {@link ChatStore} in `<dir>/<chatId>.json`, written through a temp file and a
 * rename so a crash leaves the old or the new history. Saves of one chat run in order.
 * @throws Error when a chat id is not a valid one, or a file holds no message list.
 */
export function chatStore(dir: string): ChatStore {
  const queues = new Map<string, Promise<unknown>>();
  const file = (chatId: string) => {
    if (!isChatId(chatId)) throw new Error(`not a chat id: ${JSON.stringify(chatId)}`);
    return join(dir, `${chatId}.json`);
  };
  function serial<T>(chatId: string, task: () => Promise<T>): Promise<T> {
    const run = (queues.get(chatId) ?? Promise.resolve()).then(task, task);
    queues.set(
      chatId,
      run.catch(() => undefined),
    );
    return run;
  }
  return {
    load(chatId) {
      const path = file(chatId);
      return serial(chatId, async () => {
        let text: string;
        try {
          text = await readFile(path, 'utf8');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
          throw error;
        }
        const messages = JSON.parse(text) as unknown;
        if (!Array.isArray(messages)) throw new Error(`${path} holds no list of messages`);
        return messages as CompactionUIMessage[];
      });
    },
    save(chatId, messages) {
      const path = file(chatId);
      return serial(chatId, async () => {
        await mkdir(dir, { recursive: true });
        const temp = `${path}.${process.pid}.tmp`;
        await writeFile(temp, `${JSON.stringify(messages)}\n`);
        await rename(temp, path);
      });
    },
  };
}
