import fc from 'fast-check';
import { describe, it } from 'vitest';
import { NUM_RUNS } from '../../test/invariant-case.js';
import { runSteps, stepArbitrary, summarizerFaultArbitrary } from '../../test/session-steps.js';

// The same steps with faults injected: store writes and loads fail at random, and the
// summarizer throws, answers oversize, echoes the previous summary or never answers.
// Nothing is lost after a restart, memory = store, every start has its end or error.
const RUNS = Math.max(20, Math.floor(NUM_RUNS / 25));

describe('session steps under store and summarizer faults (property)', () => {
  for (const window of [2_000, 20_000]) {
    it(`hold over ${RUNS} generated step sequences with faults (window ${window})`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(stepArbitrary, { minLength: 4, maxLength: 25 }),
          fc.array(summarizerFaultArbitrary, { minLength: 1, maxLength: 5 }),
          fc.constantFrom(0.05, 0.15, 0.3),
          fc.integer(),
          (steps, summarizerFaults, storeFaultRate, seed) =>
            runSteps(steps, { window, seed, storeFaultRate, summarizerFaults }).then(() => undefined),
        ),
        { numRuns: RUNS },
      );
    }, 300_000);
  }
});
