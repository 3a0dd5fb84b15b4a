import { CliError } from './cli-error.js';

/**
 * A token figure from a flag: `20000`, `20_000`, `20k`, `1.5M`, or a fraction like `0.8`
 * where the setting accepts one.
 *
 * @throws CliError naming the flag when the value is not a number.
 */
export function parseTokenCount(flag: string, value: string): number {
  const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(value.replaceAll('_', '').replaceAll(',', ''));
  if (!match) throw new CliError(`--${flag} expects a number like 20000, 20k or 0.8, got "${value}"`);
  const multiplier = { '': 1, k: 1_000, m: 1_000_000 }[match[2]!.toLowerCase() as '' | 'k' | 'm'];
  return Number(match[1]) * multiplier;
}
