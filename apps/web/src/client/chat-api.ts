import type {
  CompactionBoundary,
  CompactionContextData,
  CompactionData,
  CompactionUIMessage,
} from '@compaction/ai-sdk/ui';

/** `GET /api/chats/:id`. */
export type LoadedChat = {
  messages: CompactionUIMessage[];
  context: CompactionContextData;
  compaction: CompactionBoundary | undefined;
};

/** `POST /api/chats/:id/compact`. */
export type CompactResponse =
  | { compacted: true; compaction: CompactionData; context: CompactionContextData }
  | { compacted: false; reason: string; context: CompactionContextData };

async function json<T>(response: Response): Promise<T> {
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`);
  return body;
}

/** The conversation as the server has it: messages, usage figures, last boundary. */
export async function loadChat(chatId: string): Promise<LoadedChat> {
  return json<LoadedChat>(await fetch(`/api/chats/${encodeURIComponent(chatId)}`));
}

/** Manual compaction of the conversation the server holds. */
export async function compactChat(chatId: string, focus: string | undefined): Promise<CompactResponse> {
  return json<CompactResponse>(
    await fetch(`/api/chats/${encodeURIComponent(chatId)}/compact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(focus ? { focus } : {}),
    }),
  );
}

/** What the app chats with. */
export async function loadInfo(): Promise<{ model: string }> {
  return json<{ model: string }>(await fetch('/api/info'));
}
