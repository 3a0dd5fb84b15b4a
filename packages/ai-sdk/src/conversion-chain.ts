import type { Message } from '@compaction/core';
import {
  compactSent,
  keepOriginalsFrom,
  refsCount,
  rememberSent,
  type SentMessages,
  STRIDE,
  sentMessageAt,
  sentMessages,
  sentPrefix,
  sentRole,
} from './sent-messages.js';
import { type AiSdkMessage, toCoreMessage } from './to-core-messages.js';

/**
 * One chain of a conversion (the leading system messages, or the conversation) as last
 * converted: per message the values the next call is compared with (packed), its content
 * id (packed: two 32-bit words for the 16 hex digits after the prefix), and its core
 * message — held while the session may read it, let go ({@link releaseChain}) while the
 * session holds the history counted, not loaded, and made again from the kept values and
 * id when asked for. A chain is only ever appended to: one an edit cuts is copied up to the
 * cut ({@link chainPrefix}), so a history handed out over its first messages reads the same.
 */
export type Chain = {
  /** The id prefix of this chain's content ids. */
  readonly prefix: string;
  /** The values of each message as sent, and beside them (the table's two words of the caller) the id's 16 hex digits. */
  readonly sent: SentMessages;
  /** Ids that are not the prefix and 16 lowercase hex digits, by index. */
  otherIds: Map<number, string> | undefined;
  /** The core messages from `coreBase` on. */
  core: Message[];
  /** How many core messages before `core[0]` were let go. */
  coreBase: number;
};

/** An empty chain of ids starting with `prefix`. */
export function newChain(prefix: string): Chain {
  return { prefix, sent: sentMessages(), otherIds: undefined, core: [], coreBase: 0 };
}

/** How many messages `chain` holds. */
export function chainLength(chain: Chain): number {
  return chain.sent.count;
}

/** A new chain holding the first `count` messages of `chain` (which is left as it is). */
export function chainPrefix(chain: Chain, count: number): Chain {
  const kept = Math.max(0, Math.min(count, chain.sent.count));
  let otherIds: Map<number, string> | undefined;
  if (chain.otherIds) {
    otherIds = new Map([...chain.otherIds].filter(([index]) => index < kept));
    if (otherIds.size === 0) otherIds = undefined;
  }
  const coreBase = Math.min(chain.coreBase, kept);
  return {
    prefix: chain.prefix,
    sent: sentPrefix(chain.sent, kept),
    otherIds,
    core: chain.core.slice(0, kept - coreBase),
    coreBase,
  };
}

/** Adds a message, its id and its core message after those `chain` holds. */
export function appendToChain(chain: Chain, message: AiSdkMessage, id: string, core: Message): void {
  const index = chain.sent.count;
  const digits = id.length - chain.prefix.length;
  if (digits === 16 && id.startsWith(chain.prefix) && HEX.test(id.slice(chain.prefix.length))) {
    const high = Number.parseInt(id.slice(chain.prefix.length, chain.prefix.length + 8), 16);
    rememberSent(chain.sent, message, high, Number.parseInt(id.slice(chain.prefix.length + 8), 16));
  } else {
    chain.otherIds ??= new Map();
    chain.otherIds.set(index, id);
    rememberSent(chain.sent, message);
  }
  if (chain.coreBase + chain.core.length !== index) materialize(chain); // never: a released chain has no core messages
  chain.core.push(core);
}

const HEX = /^[0-9a-f]{16}$/;

/** The id of message `index` (`0 <= index < chainLength(chain)`). */
export function chainId(chain: Chain, index: number): string {
  const other = chain.otherIds?.get(index);
  if (other !== undefined) return other;
  const core = index >= chain.coreBase ? chain.core[index - chain.coreBase] : undefined;
  if (core !== undefined) return core.id;
  const table = chain.sent.table;
  return `${chain.prefix}${hex8(table[index * STRIDE + 2]!)}${hex8(table[index * STRIDE + 3]!)}`;
}

function hex8(word: number): string {
  return word.toString(16).padStart(8, '0');
}

/** The id and role of message `index`, read without making its core message again. */
export function chainHead(chain: Chain, index: number): { id: string; role: Message['role'] } {
  const held = heldChainMessage(chain, index);
  if (held !== undefined) return held;
  return { id: chainId(chain, index), role: sentRole(chain.sent, index) as Message['role'] };
}

/** The core message at `index`, made again (with every message let go before it) when it was let go. */
export function chainMessage(chain: Chain, index: number): Message {
  if (index < chain.coreBase) materialize(chain);
  return chain.core[index - chain.coreBase]!;
}

/** The core message at `index` if it is held, without making any again. */
export function heldChainMessage(chain: Chain, index: number): Message | undefined {
  return index >= chain.coreBase ? chain.core[index - chain.coreBase] : undefined;
}

/** Pushes the core messages `[from, to)` onto `out`, made again first when some were let go. */
export function pushChainMessages(chain: Chain, from: number, to: number, out: Message[]): void {
  if (from < chain.coreBase && from < to) materialize(chain);
  const core = chain.core;
  const base = chain.coreBase;
  for (let index = from; index < to; index += 1) out.push(core[index - base]!);
}

/**
 * Lets go of the core messages (the session holds the history counted, not loaded) and of
 * the originals before `keepOriginalsAt` (the last user message: what the next call
 * compares in full), and trims the tables to size.
 */
export function releaseChain(chain: Chain, keepOriginalsAt: number): void {
  keepOriginalsFrom(chain.sent, keepOriginalsAt);
  compactSent(chain.sent);
  chain.coreBase = chain.sent.count;
  chain.core = [];
}

/** How many core messages `chain` holds (not let go). */
export function heldMessages(chain: Chain): number {
  return chain.core.length;
}

/** Makes the core messages let go again, from the kept values and ids. */
function materialize(chain: Chain): void {
  const made: Message[] = [];
  let at = 0; // where message `index`'s values start
  for (let index = 0; index < chain.coreBase; index += 1) {
    made.push(toCoreMessage(sentMessageAt(chain.sent, index, at) as AiSdkMessage, chainId(chain, index)));
    at += refsCount(chain.sent.table[index * STRIDE]!);
  }
  for (const message of chain.core) made.push(message);
  chain.core = made;
  chain.coreBase = 0;
}
