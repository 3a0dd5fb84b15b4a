import { useChat } from '@ai-sdk/react';
import {
  type CompactionBoundary,
  type CompactionContextData,
  type CompactionUIMessage,
  compactionView,
} from '@compaction/ai-sdk/ui';
import { DefaultChatTransport } from 'ai';
import { type FormEvent, Fragment, useEffect, useMemo, useRef, useState } from 'react';
import { compactChat, type LoadedChat } from './chat-api.js';
import { CompactionMarker } from './compaction-marker.js';
import { ContextBar } from './context-bar.js';
import { MessageItem } from './message-item.js';
import { parseCompactCommand } from './parse-compact-command.js';

type Latest = { compaction: CompactionBoundary | undefined; context: CompactionContextData | undefined };

/** The conversation: header with the context bar, the full history with the boundary, the input. */
export function ChatView({ chatId, initial, model }: { chatId: string; initial: LoadedChat; model: string }) {
  const [latest, setLatest] = useState<Latest>({ compaction: initial.compaction, context: initial.context });
  const [notice, setNotice] = useState<string | undefined>();
  const [input, setInput] = useState('');
  const [compacting, setCompacting] = useState(false);
  const transport = useMemo(
    () => new DefaultChatTransport<CompactionUIMessage>({ api: `/api/chats/${encodeURIComponent(chatId)}/messages` }),
    [chatId],
  );
  const { messages, sendMessage, status, error } = useChat<CompactionUIMessage>({
    id: chatId,
    messages: initial.messages,
    transport,
    onData: (part) => {
      if (part.type === 'data-compaction') {
        setLatest((current) => ({ ...current, compaction: part.data }));
        setNotice(part.data.notice);
      } else if (part.type === 'data-compaction-context') {
        setLatest((current) => ({ ...current, context: part.data }));
      } else if (part.type === 'data-compaction-error') {
        setNotice(`Compaction did not help: ${part.data.message}`);
      }
    },
  });
  const view = useMemo(() => compactionView(messages, latest), [messages, latest]);
  const busy = status === 'submitted' || status === 'streaming' || compacting;
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [messages.length]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const text = input.trim();
    if (!text || busy) return;
    setInput('');
    const command = parseCompactCommand(text);
    if (!command) {
      await sendMessage({ text });
      return;
    }
    setCompacting(true);
    try {
      const result = await compactChat(chatId, command.focus);
      if (result.compacted) {
        setLatest({ compaction: result.compaction, context: result.context });
        setNotice(result.compaction.notice);
      } else {
        setLatest((current) => ({ ...current, context: result.context }));
        setNotice(`Nothing compacted: ${result.reason}`);
      }
    } catch (failure) {
      setNotice(`Compaction failed: ${(failure as Error).message}`);
    } finally {
      setCompacting(false);
    }
  }

  return (
    <div className="app">
      <header className="header">
        <div className="title">
          <strong>@compaction</strong> chat <span className="model">{model}</span>
        </div>
        {view.usage ? <ContextBar usage={view.usage} compactions={latest.context?.compactions ?? 0} /> : null}
      </header>
      <main className="history" data-status={status}>
        {messages.length === 0 ? (
          <p className="empty">
            Send a message: the replay model answers with the next steps of a recorded coding session. Type{' '}
            <code>/compact [focus]</code> to compact now.
          </p>
        ) : null}
        {messages.map((message, index) => (
          <Fragment key={message.id}>
            {index === view.boundaryIndex && view.boundary ? (
              <CompactionMarker boundary={view.boundary} summarized={view.summarizedCount} />
            ) : null}
            <MessageItem message={message} summarized={view.summarizedIds.has(message.id)} />
          </Fragment>
        ))}
        <div ref={end} />
      </main>
      <footer className="composer">
        {notice ? (
          <output className="notice" data-kind="compaction">
            {notice}
          </output>
        ) : null}
        {error ? <output className="notice error">{error.message}</output> : null}
        <form onSubmit={submit}>
          <textarea
            id="prompt"
            value={input}
            placeholder="Message, or /compact [focus]"
            rows={2}
            onChange={(event) => setInput(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) void submit(event);
            }}
          />
          <button type="submit" disabled={busy}>
            {compacting ? 'Compacting…' : busy ? 'Answering…' : 'Send'}
          </button>
        </form>
      </footer>
    </div>
  );
}
