import { describe, expect, it } from 'vitest';
import { conversation, stateKeeping } from '../../test/builders.js';
import { createConversationState } from './conversation-state.js';

describe('createConversationState', () => {
  it('appends keep the epoch and index every id; a replacement starts a new epoch and reindexes', () => {
    const c = conversation();
    const [u1, a1, u2] = [c.user('a'), c.assistant('b'), c.user('c')];
    const conv = createConversationState();
    expect(conv.epoch).toBe(0);
    conv.apply({ append: [u1!, a1!] });
    expect(conv.epoch).toBe(0);
    expect([...conv.ids]).toEqual([
      [u1!.id, 0],
      [a1!.id, 1],
    ]);
    expect(conv.lastMessageId()).toBe(a1!.id);
    expect(conv.lastMessageId(1)).toBe(u1!.id);
    expect(conv.lastMessageId(0)).toBeUndefined();
    conv.apply({ replace: [u2!] });
    expect(conv.epoch).toBe(1);
    expect(conv.history.map((m) => m.id)).toEqual([u2!.id]);
    expect(conv.ids.has(u1!.id)).toBe(false);
    expect(conv.ids.get(u2!.id)).toBe(0);
  });

  it('the version follows the record state; a record change alone keeps history and epoch', () => {
    const c = conversation();
    const conv = createConversationState();
    conv.apply({ append: [c.user('a'), c.assistant('b')] });
    expect(conv.version()).toBe(0);
    conv.apply({ record: { state: stateKeeping(conv.history[1]!.id, 3) } });
    expect(conv.version()).toBe(3);
    expect(conv.epoch).toBe(0);
    expect(conv.history).toHaveLength(2);
  });

  it('a replacement does not share the caller array: later appends never change it', () => {
    const c = conversation();
    const given = [c.user('a')];
    const conv = createConversationState();
    conv.apply({ replace: given });
    conv.apply({ append: [c.assistant('b')] });
    expect(given).toHaveLength(1);
    expect(conv.history).toHaveLength(2);
  });
});
