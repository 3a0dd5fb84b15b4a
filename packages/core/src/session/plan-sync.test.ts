import { describe, expect, it } from 'vitest';
import { conversation, stateKeeping } from '../../test/builders.js';
import { InvalidMessageError } from '../errors/invalid-message-error.js';
import type { Message } from '../messages/types.js';
import { planSync } from './plan-sync.js';

function history(): Message[] {
  const c = conversation();
  return [c.user('a'), c.assistant('b'), c.user('c'), c.assistant('d')];
}

describe('planSync', () => {
  it('a longer list with the history as its prefix appends the rest', () => {
    const held = history();
    const extra: Message = { id: 'x', role: 'user', parts: [{ type: 'text', text: 'more' }] };
    expect(planSync(held, [...held, extra], {})).toEqual({ kind: 'append', messages: [extra] });
    expect(planSync(held, held, {})).toEqual({ kind: 'append', messages: [] });
  });

  it('a diverging list is a branch: the state stays only if its kept range starts in the common prefix', () => {
    const held = history();
    const edited: Message = { id: 'edited', role: 'user', parts: [{ type: 'text', text: 'c, edited' }] };
    const branch = [held[0]!, held[1]!, edited];
    const record = {
      state: stateKeeping(held[1]!.id),
      usage: { inputTokens: 5, contextMessageCount: 4, historyLength: 4, stateVersion: 1 },
      stuckAtHistoryLength: 4,
    };
    const kept = planSync(held, branch, record);
    expect(kept).toEqual({
      kind: 'branch',
      history: branch,
      record: { state: record.state, usage: undefined, stuckAtHistoryLength: undefined },
    });
    const dropped = planSync(held, branch, { state: stateKeeping(held[3]!.id) });
    expect(dropped.kind === 'branch' && dropped.record.state).toBeUndefined();
    const shorter = planSync(held, [held[0]!], {});
    expect(shorter.kind).toBe('branch');
  });

  it('an invalid branch throws before anything is planned', () => {
    const held = history();
    expect(() =>
      planSync(held, [held[0]!, { id: 'bad', role: 'nobody', parts: [] } as unknown as Message], {}),
    ).toThrow(InvalidMessageError);
  });
});
