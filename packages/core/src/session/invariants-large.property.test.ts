import { describeInvariants } from '../../test/invariant-case.js';

// The six invariants of DESIGN.md over generated conversations; with the other invariant
// file, 4 × NUM_RUNS (10,000 by default) cases. PROPERTY_RUNS changes the count.
describeInvariants([
  ['medium window', 8_000],
  ['large window', 20_000],
]);
