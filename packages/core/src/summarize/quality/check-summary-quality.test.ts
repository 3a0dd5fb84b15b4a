import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heuristicCounter } from '../../tokens/heuristic-counter.js';
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

describe('checkSummaryQuality: updates and continuations (r04)', () => {
  const update = { ...history, previousSummary: GOOD };

  it('rejects an update that echoes the previous summary unchanged', () => {
    expect(checkSummaryQuality(GOOD, update)).toMatchObject({ ok: false, reason: 'stale' });
  });

  it('accepts an update that adds what the new messages did', () => {
    const next = GOOD.replace('### Blocked', '- [x] Wired dryRun into uploadAssets()\n\n### Blocked');
    expect(checkSummaryQuality(next, update)).toEqual({ ok: true });
  });

  it('property: an echo is stale however it is reordered, re-spaced or re-bulleted', () => {
    const at = GOOD.indexOf('\n\n<read-files>');
    const lines = GOOD.slice(0, at).split('\n');
    const tail = GOOD.slice(at);
    fc.assert(
      fc.property(
        fc.shuffledSubarray(lines, { minLength: lines.length, maxLength: lines.length }),
        fc.constantFrom('', ' ', '  '),
        fc.constantFrom('- ', '* ', '+ ', ''),
        fc.boolean(),
        (shuffled, pad, bullet, upper) => {
          const echoed = shuffled
            .map((line) => (line.startsWith('- ') && !line.startsWith('- [') ? `${bullet}${line.slice(2)}` : line))
            .map((line) => `${pad}${upper && !line.startsWith('#') ? line.toUpperCase() : line}${pad}`)
            .join('\n')
            .concat(tail);
          const verdict = checkSummaryQuality(echoed, update);
          // Shuffling can break the heading structure or bring a chat-looking line first: any rejection will do, never ok.
          expect(verdict.ok).toBe(false);
          if (verdict.ok === false && verdict.reason !== 'missing-headings' && verdict.reason !== 'continuation') {
            expect(verdict.reason).toBe('stale');
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: an update with one new content line is never stale', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z][a-z]{3,12} [a-z]{3,12} in src\/[a-z]{2,8}\.ts$/), (line) => {
        const next = GOOD.replace('### In Progress', `- [x] ${line}\n\n### In Progress`);
        const verdict = checkSummaryQuality(next, update);
        if (!verdict.ok) expect(verdict.reason).not.toBe('stale');
      }),
      { numRuns: 100 },
    );
  });

  it.each([
    ['a closing line', `${GOOD.split('\n\nLast request')[0]}\n\nNow let me run the deploy script with --dry-run.`],
    [
      'a line under a heading',
      GOOD.replace('## Next Steps\n', "## Next Steps\nI'll wire the flag into uploadAssets next.\n"),
    ],
    ['a bullet', GOOD.replace('## Critical Context\n', '## Critical Context\n- Sure, here is the rest of the fix:\n')],
  ])('rejects a continuation that carries every heading: %s', (_label, text) => {
    expect(checkSummaryQuality(text, history)).toMatchObject({ ok: false, reason: 'continuation' });
  });
});
