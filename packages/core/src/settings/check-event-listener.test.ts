import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { createCompactionSession } from '../session/create-compaction-session.js';
import type { CompactionEvent } from '../session/types.js';
import { memoryStore } from '../store/memory-store.js';
import { invalidSettingOf } from '../testing/invalid-setting-of.js';
import { checkEventListener } from './check-event-listener.js';

const message = (index: number): Message => ({
  id: `m${index}`,
  role: index % 2 ? 'assistant' : 'user',
  parts: [{ type: 'text', text: `message ${index} `.repeat(50) }],
});

/** A session with enough history that `compact()` compacts. */
async function sessionWithHistory() {
  const session = createCompactionSession({
    sessionId: 'on',
    store: memoryStore(),
    settings: { keepRecentMessages: 2 },
  });
  await session.append(Array.from({ length: 12 }, (_, index) => message(index)));
  return session;
}

/** `session.on` called the way JavaScript (or a cast) may call it. */
const onWith =
  (session: { on: unknown }, ...args: unknown[]) =>
  () =>
    (session.on as (...given: unknown[]) => unknown)(...args);

describe('session.on(listener)', () => {
  it("refuses the EventEmitter form on('compaction:end', fn) at the call, saying to filter by event.type", async () => {
    const session = await sessionWithHistory();
    const heard: string[] = [];
    const listener = (event: CompactionEvent) => heard.push(event.type);
    expect(invalidSettingOf(onWith(session, 'compaction:end', listener))).toBe('listener');
    expect(onWith(session, 'compaction:end', listener)).toThrow(
      /on\(listener\) takes one function .*filters by event\.type, got the string "compaction:end" and a function; on\(\) has no event-name form.*event\.type === "compaction:end"/,
    );
    // Nothing was subscribed by the refused call: the listener hears nothing.
    await session.compact();
    expect(heard).toEqual([]);
  });

  it('refuses a listener that is not a function, and no argument', async () => {
    const session = await sessionWithHistory();
    for (const args of [[], ['log'], [42], [null], [{ handleEvent() {} }], [undefined, () => {}]]) {
      expect(invalidSettingOf(onWith(session, ...args))).toBe('listener');
    }
    expect(onWith(session)).toThrow(/got no argument/);
  });

  it('keeps the valid form: one function hears every event and unsubscribes (the valid neighbour)', async () => {
    const session = await sessionWithHistory();
    const heard: string[] = [];
    const off = session.on((event) => {
      if (event.type === 'compaction:end') heard.push(event.type);
    });
    await session.compact();
    expect(heard).toEqual(['compaction:end']);
    off();
    await session.append(Array.from({ length: 12 }, (_, index) => message(index + 12)));
    await session.compact();
    expect(heard).toEqual(['compaction:end']);
  });

  it('property: arguments that do not start with a function are refused with InvalidSettingsError; a function first is the listener, whatever follows', () => {
    const anything = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.object(),
      fc.func(fc.anything()),
    );
    fc.assert(
      fc.property(fc.array(anything, { maxLength: 3 }), (args) => {
        fc.pre(typeof args[0] !== 'function');
        expect(invalidSettingOf(() => checkEventListener(args))).toBe('listener');
      }),
    );
    fc.assert(
      // TypeScript lets `listeners.forEach(session.on)` through (extra arguments are ignored), so they are here too.
      fc.property(fc.func(fc.anything()), fc.array(anything, { maxLength: 2 }), (listener, rest) => {
        expect(checkEventListener([listener, ...rest])).toBe(listener);
      }),
    );
  });
});
