#!/usr/bin/env node
// Makes sure a PostgreSQL server answers on loopback for @compaction/postgres's tests and
// the docs' examples: POSTGRES_URL, or postgres://postgres@127.0.0.1:5432/postgres. When
// nothing answers there, installs Debian's `postgresql` package if its binaries are missing
// (root with apt-get), creates a throwaway cluster in $TMPDIR/compaction-postgres (trust
// auth, loopback only) and starts it. Idempotent: a server that already answers is used
// as it is. Exits 0 when the server answers, 1 with one `ensure-postgres: …` line otherwise.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const url = new URL(process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const host = url.hostname;
const port = url.port || '5432';
const aptGet = '/usr/bin/apt-get';
const dataDir = join(tmpdir(), 'compaction-postgres');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function fail(message) {
  process.stderr.write(`ensure-postgres: ${message}\n`);
  process.exit(1);
}

function run(command, args, { asPostgres = false, quiet = false } = {}) {
  const [file, argv] = asPostgres && isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  if (!quiet) process.stdout.write(`ensure-postgres: ${[file, ...argv].join(' ')}\n`);
  return spawnSync(file, argv, {
    stdio: quiet ? 'pipe' : 'inherit',
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** The bin folder of the newest PostgreSQL Debian installed, or undefined. */
function findBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

function answers(bin) {
  const isReady = bin ? join(bin, 'pg_isready') : 'pg_isready';
  const result = spawnSync(isReady, ['-h', host, '-p', port, '-t', '2'], { encoding: 'utf8' });
  return result.status === 0;
}

/** Whether the URL's user gets in (a server that wants a password it was not given does not do). */
function acceptsUrl(bin) {
  const psql = bin ? join(bin, 'psql') : 'psql';
  const result = spawnSync(psql, [url.href, '-Atc', 'SELECT 1'], {
    encoding: 'utf8',
    env: { ...process.env, PGCONNECT_TIMEOUT: '5' },
  });
  return result.error !== undefined || result.status === 0; // without psql, trust the server
}

let bin = findBin();
if (answers(bin)) {
  if (acceptsUrl(bin)) process.exit(0);
  fail(
    `a PostgreSQL server answers at ${host}:${port} but refuses ${url.href}; set POSTGRES_URL to a URL it accepts (user, password, database)`,
  );
}
if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
  fail(`nothing answers at ${host}:${port} (POSTGRES_URL), and this script only starts servers on loopback`);
}

if (bin === undefined) {
  if (process.platform !== 'linux' || !existsSync(aptGet) || !isRoot) {
    fail(
      'PostgreSQL is not installed; run as root on Debian (or: sudo apt-get install -y postgresql), or set POSTGRES_URL',
    );
  }
  process.stdout.write("ensure-postgres: installing Debian's postgresql package\n");
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'postgresql']]) {
    const result = run(aptGet, args);
    if (result.status !== 0) fail(`apt-get ${args[0]} exited with ${result.status ?? result.signal}`);
  }
  bin = findBin();
  if (bin === undefined) fail('apt-get installed postgresql but no /usr/lib/postgresql/*/bin/postgres is there');
  // Debian may start its own cluster on install, with password auth on TCP: stop it for the throwaway one.
  if (answers(bin)) {
    const version = bin.split('/').at(-2);
    run('pg_ctlcluster', [version, 'main', 'stop']);
  }
}

if (!existsSync(join(dataDir, 'PG_VERSION'))) {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (isRoot) {
    const id = (flag) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dataDir, id('-u'), id('-g'));
  }
  const init = run(
    join(bin, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync'],
    {
      asPostgres: true,
    },
  );
  if (init.status !== 0) fail(`initdb exited with ${init.status ?? init.signal}`);
}
const options = `-c listen_addresses=${host === 'localhost' ? '127.0.0.1' : host.replace(/[[\]]/g, '')} -p ${port} -c unix_socket_directories=${dataDir} -c max_connections=200 -c fsync=off`;
const startServer = () =>
  run(
    join(bin, 'pg_ctl'),
    ['-D', dataDir, '-o', options, '-l', join(dataDir, 'server.log'), '-w', '-t', '60', 'start'],
    {
      asPostgres: true,
    },
  );
// A start can fail for a passing reason (a spawn refused under memory pressure, a server from an
// earlier run still shutting down): look again, and try once more before giving up.
let start = startServer();
if (!answers(bin)) start = startServer();
if (!answers(bin)) {
  const why = start.error ? start.error.message : (start.status ?? start.signal);
  fail(`pg_ctl start failed (${why}); see ${join(dataDir, 'server.log')}`);
}
process.stdout.write(`ensure-postgres: PostgreSQL answers at ${host}:${port} (cluster in ${dataDir})\n`);
