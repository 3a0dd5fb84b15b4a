import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { memoryStore } from './memory-store.js';

const message = (id: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: `text of ${id}` }] });

describe('memoryStore', () => {
  it('starts empty and round-trips history and record per session', async () => {
    const store = memoryStore();
    expect(await store.loadHistory('a')).toEqual([]);
    expect(await store.loadRecord('a')).toBeUndefined();
    await store.appendHistory('a', [message('1'), message('2')]);
    await store.appendHistory('a', [message('3')]);
    await store.appendHistory('b', [message('x')]);
    await store.saveRecord('a', { calibration: { 'gpt-4o': 1.1 } });
    expect((await store.loadHistory('a')).map((m) => m.id)).toEqual(['1', '2', '3']);
    expect((await store.loadHistory('b')).map((m) => m.id)).toEqual(['x']);
    expect(await store.loadRecord('a')).toEqual({ calibration: { 'gpt-4o': 1.1 }, revision: 1 });
    expect(await store.loadRecord('b')).toBeUndefined();
  });

  it('keeps copies: neither the appended nor the loaded objects alias stored data', async () => {
    const store = memoryStore();
    const appended = message('1');
    await store.appendHistory('a', [appended]);
    appended.id = 'changed';
    const loaded = await store.loadHistory('a');
    loaded[0]!.id = 'changed too';
    loaded.push(message('2'));
    expect((await store.loadHistory('a')).map((m) => m.id)).toEqual(['1']);

    const record = { calibration: { model: 1 } };
    await store.saveRecord('a', record);
    record.calibration.model = 2;
    const loadedRecord = await store.loadRecord('a');
    loadedRecord!.calibration!.model = 3;
    expect(await store.loadRecord('a')).toEqual({ calibration: { model: 1 }, revision: 1 });
  });

  it('clear forgets history and record of that session only', async () => {
    const store = memoryStore();
    await store.appendHistory('a', [message('1')]);
    await store.saveRecord('a', {});
    await store.appendHistory('b', [message('2')]);
    await store.clear('a');
    expect(await store.loadHistory('a')).toEqual([]);
    expect(await store.loadRecord('a')).toBeUndefined();
    expect(await store.loadHistory('b')).toHaveLength(1);
  });
});
