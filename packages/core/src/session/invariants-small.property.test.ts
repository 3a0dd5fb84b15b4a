import fc from 'fast-check';
import { describe, it } from 'vitest';
import { NUM_RUNS, runCase, turnArbitrary } from '../../test/invariant-case.js';

// The six invariants of DESIGN.md over generated conversations; the two invariant files
// together run 4 × NUM_RUNS (10,000 by default) cases. On failure fast-check prints the
// seed and the shrunk counterexample; rerun with PROPERTY_RUNS to change the count.
describe('compaction invariants (property)', () => {
  for (const [label, window] of [
    ['small window', 3000],
    ['tiny window', 1500],
  ] as const) {
    it(`hold over ${NUM_RUNS} generated conversations (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(turnArbitrary, { minLength: 1, maxLength: 12 }),
          fc.boolean(),
          fc.integer({ min: 0, max: 2 }),
          (turns, dangling, mode) => runCase(turns, dangling, mode, window),
        ),
        { numRuns: NUM_RUNS },
      );
    }, 300_000);
  }
});
