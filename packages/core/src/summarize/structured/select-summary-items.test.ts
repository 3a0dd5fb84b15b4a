import { describe, expect, it } from 'vitest';
import { heuristicCounter } from '../../tokens/heuristic-counter.js';
import { selectSummaryItems } from './select-summary-items.js';
import type { SummaryItem } from './summary-items.js';

const counter = heuristicCounter();
const item = (text: string, extra: Partial<SummaryItem> = {}): SummaryItem => ({
  section: 'done',
  text,
  order: 0,
  weight: 1,
  at: 1,
  ...extra,
});

describe('selectSummaryItems', () => {
  it('never chooses more than the budget, whatever the items', () => {
    const items = Array.from({ length: 50 }, (_, index) =>
      item(`- line ${index} with name_${index} ${'x'.repeat(index)}`),
    );
    for (const budget of [0, 5, 40, 200, 10_000]) {
      const chosen = selectSummaryItems(items, budget, (text) => counter.countText(text));
      const used = chosen.reduce((total, chosenItem) => total + counter.countText(chosenItem.text) + 1, 0);
      expect(used).toBeLessThanOrEqual(budget);
    }
  });

  it('prefers names not yet carried, recent work, and pays for a continued line with its head', () => {
    const repeated = item('- `parse_args` in cli.ts');
    const same = item('- `parse_args` again in cli.ts');
    const fresh = item('- `read_config` in config.ts');
    const old = item('- `old_thing` in legacy.ts', { at: 0 });
    const countText = (text: string) => counter.countText(text);
    const budget = countText(repeated.text) + countText(fresh.text) + 2;
    expect(selectSummaryItems([repeated, same, fresh, old], budget, countText)).toEqual([repeated, fresh]);
    const head = item('- Edited `a.ts`: adds `first_name`');
    const more = item('  - also `second_name`', { head: head.text, weight: 0.2 });
    const chosen = selectSummaryItems([more, head], 1000, countText);
    expect(chosen).toContain(head);
    expect(chosen).toContain(more);
  });
});
