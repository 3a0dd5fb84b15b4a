import { describeInvariants } from '../../test/invariant-case.js';

// The six invariants of DESIGN.md over generated conversations; with the other invariant
// file, 4 × NUM_RUNS (10,000 by default) cases. PROPERTY_RUNS changes the count.
describeInvariants([
  ['small window', 3_000],
  ['tiny window', 1_500],
]);
