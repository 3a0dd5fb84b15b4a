import type { SessionStore } from '../store/session-store.js';
import type { ConversationState } from './conversation-state.js';

/** Options of `createSessionPersistence`: the store, the conversation's key in it, and the memory it keeps in step. */
export type SessionPersistenceOptions = {
  /** Where the conversation is stored. */
  store: SessionStore;
  /** The conversation's key in `store`. */
  sessionId: string;
  /** Whether the history is written to the store (adapters whose framework keeps it pass false). */
  persistHistory: boolean;
  /** The memory that changes only once the store accepted a write. */
  conversation: ConversationState;
};
