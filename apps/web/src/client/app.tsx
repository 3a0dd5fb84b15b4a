import { useEffect, useState } from 'react';
import { type LoadedChat, loadChat, loadInfo } from './chat-api.js';
import { ChatView } from './chat-view.js';

/** The chat id from `?chat=`, or a new one put into the address (so a reload finds the conversation). */
function chatIdFromLocation(): string {
  const url = new URL(window.location.href);
  const given = url.searchParams.get('chat');
  if (given && /^[A-Za-z0-9_-]{1,80}$/.test(given)) return given;
  const chatId = `chat-${crypto.randomUUID().slice(0, 8)}`;
  url.searchParams.set('chat', chatId);
  window.history.replaceState(null, '', url);
  return chatId;
}

/** Loads the conversation (messages, figures, boundary) from the server, then shows it. */
export function App() {
  const [chatId] = useState(chatIdFromLocation);
  const [loaded, setLoaded] = useState<LoadedChat | undefined>();
  const [model, setModel] = useState('');
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    loadChat(chatId).then(setLoaded, (failure: Error) => setError(failure.message));
    loadInfo().then(
      (info) => setModel(info.model),
      () => {},
    );
  }, [chatId]);
  if (error) return <p className="fatal">Could not load the conversation: {error}</p>;
  if (!loaded) return <p className="loading">Loading…</p>;
  return <ChatView chatId={chatId} initial={loaded} model={model} />;
}
