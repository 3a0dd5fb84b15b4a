import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Starts PostgreSQL on loopback when nothing answers there (installing Debian's package if needed). */
export function setup(): void {
  const script = fileURLToPath(new URL('../../../scripts/ensure-postgres.mjs', import.meta.url));
  const result = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${script} failed (${result.status ?? result.signal})`);
}
