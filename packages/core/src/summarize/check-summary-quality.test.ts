import { describe, expect, it } from 'vitest';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { checkSummaryQuality } from './check-summary-quality.js';

const counter = heuristicCounter();
const history = { kind: 'history' as const, replacedTokens: 10_000, counter };

const GOOD = `## Goal
Add a --dry-run flag to the deploy script.

## Constraints & Preferences
- Keep Node 22 support

## Progress
### Done
- [x] Parsed flags in scripts/deploy.ts

### In Progress
- [ ] Wiring dryRun into uploadAssets()

### Blocked
- (none)

## Key Decisions
- **Use parseArgs**: no new dependency

## Next Steps
1. Skip the S3 upload when dryRun is set

## Critical Context
- Error seen: TypeError: Cannot read properties of undefined (reading 'bucket')

<read-files>
scripts/deploy.ts
</read-files>
<modified-files>
</modified-files>

Last request from user was: let me know when the dry run works, and would you like me to stop? [User]: no`;

describe('checkSummaryQuality', () => {
  it('accepts a structured summary that is smaller than what it replaces', () => {
    expect(checkSummaryQuality(GOOD, history)).toEqual({ ok: true });
  });

  it('does not scan the carried last request (the user’s own words) for continuation', () => {
    expect(GOOD).toContain('[User]:');
    expect(checkSummaryQuality(GOOD, history).ok).toBe(true);
  });

  it('rejects an empty summary, also one that is only file blocks', () => {
    expect(checkSummaryQuality('  \n', history)).toMatchObject({ ok: false, reason: 'empty' });
    expect(checkSummaryQuality('<read-files>\na.ts\n</read-files>', history)).toMatchObject({
      ok: false,
      reason: 'empty',
    });
  });

  it('rejects a summary the output limit cut off', () => {
    expect(checkSummaryQuality(GOOD, { ...history, finishReason: 'length' })).toMatchObject({
      ok: false,
      reason: 'truncated',
    });
  });

  it.each([
    ['Sure! Here is the summary.\n\n'],
    ["I'll summarize the conversation.\n\n"],
    ['Let me summarize:\n\n'],
    ['Okay, '],
    ['**Certainly.** '],
  ])('rejects a summary that opens like a chat reply: %j', (opening) => {
    expect(checkSummaryQuality(`${opening}${GOOD}`, history)).toMatchObject({ ok: false, reason: 'continuation' });
  });

  it('rejects transcript markers and addressing the user', () => {
    const marker = GOOD.replace('## Critical Context', '## Critical Context\n[Assistant]: I will now fix it.');
    expect(checkSummaryQuality(marker, history)).toMatchObject({
      ok: false,
      reason: 'continuation',
      detail: 'it contains the transcript marker "[Assistant]:"',
    });
    const address = GOOD.replace('## Next Steps', 'Would you like me to continue?\n\n## Next Steps');
    expect(checkSummaryQuality(address, history)).toMatchObject({ ok: false, reason: 'continuation' });
  });

  it('rejects a history summary missing a required heading, naming it', () => {
    expect(checkSummaryQuality(GOOD.replace('## Key Decisions', '## Decisions'), history)).toEqual({
      ok: false,
      reason: 'missing-headings',
      detail: 'missing heading: ## Key Decisions',
    });
  });

  it('accepts heading variants (level, case, "and" for "&")', () => {
    const variant = GOOD.replace('## Constraints & Preferences', '### constraints and preferences').replace(
      '## Goal',
      '# Goal:',
    );
    expect(checkSummaryQuality(variant, history)).toEqual({ ok: true });
  });

  it('holds a turn-prefix summary to the lighter requirement (## Turn Request)', () => {
    const prefix = '## Turn Request\nFix the flaky test in test/queue.test.ts\n\n## Tried So Far\n- reran it 3 times';
    expect(checkSummaryQuality(prefix, { ...history, kind: 'turn-prefix' })).toEqual({ ok: true });
    expect(checkSummaryQuality('## Tried So Far\n- reran it', { ...history, kind: 'turn-prefix' })).toMatchObject({
      ok: false,
      reason: 'missing-headings',
    });
    expect(checkSummaryQuality(prefix, history)).toMatchObject({ ok: false, reason: 'missing-headings' });
  });

  it('rejects a summary not smaller than what it replaces, measured with the counter', () => {
    const tokens = counter.countText(GOOD);
    expect(checkSummaryQuality(GOOD, { ...history, replacedTokens: tokens + 1 }).ok).toBe(true);
    expect(checkSummaryQuality(GOOD, { ...history, replacedTokens: tokens })).toEqual({
      ok: false,
      reason: 'not-smaller',
      detail: `the summary has ${tokens} tokens, not fewer than the ${tokens} it replaces`,
    });
  });
});
