import type { SessionRecord } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { agentStateStore } from './agent-state-store.js';

describe('agentStateStore', () => {
  const record: SessionRecord = {
    usage: { inputTokens: 10, contextMessageCount: 1, historyLength: 1, stateVersion: 0 },
  };

  it('serves the record from the state and holds what the session saves', async () => {
    const store = agentStateStore(record);
    expect(await store.loadRecord('any')).toEqual(record);
    expect(store.changed).toBe(false);
    const next: SessionRecord = { calibration: { default: 1.2 } };
    await store.saveRecord('any', next);
    next.calibration!.default = 9;
    expect(store.record).toEqual({ calibration: { default: 1.2 } });
    expect(store.changed).toBe(true);
  });

  it('does not let the session change the state object it was given', async () => {
    const state = structuredClone(record);
    const store = agentStateStore(state);
    const loaded = await store.loadRecord('any');
    loaded!.usage!.inputTokens = 999;
    expect(state.usage!.inputTokens).toBe(10);
    expect((await store.loadRecord('any'))!.usage!.inputTokens).toBe(10);
  });

  it('keeps no history (the agent state has the messages) and clears the record', async () => {
    const store = agentStateStore(record);
    await store.appendHistory('any', [{ id: 'm', role: 'user', parts: [] }]);
    expect(await store.loadHistory('any')).toEqual([]);
    await store.clear('any');
    expect(store.record).toBeUndefined();
    expect(store.changed).toBe(true);
  });
});
