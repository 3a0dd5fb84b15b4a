import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NUM_RUNS } from '../../test/invariant-case.js';
import { type RunCoverage, runSteps, stepArbitrary } from '../../test/session-steps.js';

// Generated sessions through the public API step by step (appends, prepares, branch
// switches, usage reports, manual compactions, clears, concurrent calls); every window
// size compacts, splits turns and stacks summaries (checked below).
const RUNS = Math.max(20, Math.floor(NUM_RUNS / 25));

describe('session steps (property)', () => {
  for (const window of [2_000, 8_000, 20_000, 100_000]) {
    it(`hold over ${RUNS} generated step sequences (window ${window})`, async () => {
      const covered: RunCoverage[] = [];
      await fc.assert(
        fc.asyncProperty(
          fc.array(stepArbitrary, { minLength: 4, maxLength: 30 }),
          fc.integer(),
          async (steps, seed) => {
            covered.push(await runSteps(steps, { window, seed }));
          },
        ),
        { numRuns: RUNS },
      );
      // The generators reach every case that matters, whatever the window.
      expect(covered.filter((c) => c.compacted).length).toBeGreaterThan(covered.length / 2);
      expect(covered.some((c) => c.splitTurn)).toBe(true);
      expect(covered.some((c) => c.stacked)).toBe(true);
    }, 300_000);
  }
});
