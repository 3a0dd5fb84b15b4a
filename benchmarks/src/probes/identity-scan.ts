/**
 * Per-message cost of `startsWith` (the identity pass of an adapter's incremental
 * conversion) over 14,000 objects: laid out in allocation order, then scattered in the
 * old generation (as a long-lived history is), then with the comparison's feedback
 * having seen strings (V8 then checks each operand's map: a NaN heap number is not
 * equal to itself, so equal pointers alone do not settle `!==`).
 *
 * Usage: `node src/probes/identity-scan.ts`
 */

type StartsWith = (values: readonly unknown[], prefix: readonly unknown[]) => boolean;

/** A new copy of the pass, with feedback of its own (each source text compiles apart). */
function freshStartsWith(): StartsWith {
  return new Function(
    'values',
    'prefix',
    'if (values.length < prefix.length) return false;' +
      'for (let index = 0; index < prefix.length; index += 1) if (values[index] !== prefix[index]) return false;' +
      'return true;',
  ) as StartsWith;
}

const COUNT = 14_000;
const ROUNDS = 2_000;

function nsPerMessage(startsWith: StartsWith, values: readonly unknown[], prefix: readonly unknown[]): number {
  const runs: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round += 1) if (!startsWith(values, prefix)) throw new Error('not the same');
    runs.push(((performance.now() - started) * 1e6) / (ROUNDS * prefix.length));
  }
  return runs.sort((a, b) => a - b)[2]!;
}

const ordered = Array.from({ length: COUNT }, (_, index) => ({ index, text: `message ${index}`, parts: [{}] }));
console.log(
  `allocation order:            ${nsPerMessage(freshStartsWith(), ordered, ordered.slice()).toFixed(2)} ns a message`,
);

// Scattered: objects allocated among garbage that dies, shuffled, and moved to the old generation.
const scattered: object[] = [];
const garbage: string[] = [];
for (let index = 0; index < COUNT; index += 1) {
  scattered.push({ index, text: `message ${index}`, parts: [{}] });
  garbage.push(`${'x'.repeat(500)}${index}`);
}
garbage.length = 0;
for (let index = COUNT - 1; index > 0; index -= 1) {
  const other = Math.floor(Math.random() * (index + 1));
  [scattered[index], scattered[other]] = [scattered[other]!, scattered[index]!];
}
for (let round = 0; round < 40; round += 1) new Array(100_000).fill({}); // let scavenges promote them
console.log(
  `scattered:                   ${nsPerMessage(freshStartsWith(), scattered, scattered.slice()).toFixed(2)} ns a message`,
);

const sawStrings = freshStartsWith();
for (let round = 0; round < 200; round += 1) sawStrings([`a${round}`, 'b'], [`a${round}`, 'b']);
console.log(
  `scattered, strings seen too: ${nsPerMessage(sawStrings, scattered, scattered.slice()).toFixed(2)} ns a message`,
);
