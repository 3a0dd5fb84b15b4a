/**
 * The calls to label on a chart's x axis: call 1, then every multiple of a round step
 * (1, 2, 5, 10, 20, 50, …) chosen so that there are at most `maxTicks` labels, and the
 * last call. A multiple too close to the last call to leave room for its label is left out.
 */
export function callTicks(calls: number, maxTicks = 10): number[] {
  if (calls <= 1) return [1];
  let step = 1;
  for (let magnitude = 1; calls / step > maxTicks; magnitude *= 10) {
    step =
      [1, 2, 5].map((factor) => factor * magnitude).find((candidate) => calls / candidate <= maxTicks) ??
      10 * magnitude;
  }
  const ticks = [1];
  for (let call = step; call < calls; call += step) {
    if (call > 1 && calls - call >= step / 2) ticks.push(call);
  }
  ticks.push(calls);
  return ticks;
}
