#!/usr/bin/env node
// Makes sure a Redis server answers on loopback for @compaction/redis's tests and the
// docs' examples: REDIS_URL, or redis://127.0.0.1:6379. When nothing answers there,
// installs Debian's `redis-server` package if it is missing (root with apt-get) and starts
// a server bound to loopback (daemonized, no persistence). Idempotent: a server that
// already answers is used as it is. Exits 0 when the server answers, 1 with one
// `ensure-redis: …` line otherwise.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const host = url.hostname;
const port = Number(url.port || 6379);
const aptGet = '/usr/bin/apt-get';
const server = '/usr/bin/redis-server';

function fail(message) {
  process.stderr.write(`ensure-redis: ${message}\n`);
  process.exit(1);
}

/** Whether a server at host:port answers PING with PONG. */
function answers() {
  return new Promise((resolve) => {
    const socket = createConnection({ host: host.replace(/[[\]]/g, ''), port });
    let reply = '';
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk;
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

if (await answers()) process.exit(0);
if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
  fail(`nothing answers at ${host}:${port} (REDIS_URL), and this script only starts servers on loopback`);
}
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!existsSync(server)) {
  if (process.platform !== 'linux' || !existsSync(aptGet) || !isRoot) {
    fail(
      'redis-server is not installed; run as root on Debian (or: sudo apt-get install -y redis-server), or set REDIS_URL',
    );
  }
  process.stdout.write("ensure-redis: installing Debian's redis-server package\n");
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'redis-server']]) {
    process.stdout.write(`ensure-redis: apt-get ${args.join(' ')}\n`);
    const result = spawnSync(aptGet, args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) fail(`apt-get ${args[0]} exited with ${result.status ?? result.signal}`);
  }
  if (!existsSync(server)) fail(`apt-get installed redis-server but ${server} is missing`);
}
const bind = host === 'localhost' ? '127.0.0.1' : host.replace(/[[\]]/g, '');
const args = ['--bind', bind, '--port', String(port), '--daemonize', 'yes', '--save', '', '--appendonly', 'no'];
args.push('--dir', tmpdir(), '--logfile', join(tmpdir(), 'compaction-redis.log'));
process.stdout.write(`ensure-redis: ${server} ${args.join(' ')}\n`);
const started = spawnSync(server, args, { stdio: 'inherit' });
if (started.status !== 0) fail(`redis-server exited with ${started.status ?? started.signal}`);
for (let attempt = 0; attempt < 50; attempt++) {
  if (await answers()) {
    process.stdout.write(`ensure-redis: Redis answers at ${host}:${port}\n`);
    process.exit(0);
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}
fail(`redis-server started but nothing answers at ${host}:${port}; see ${join(tmpdir(), 'compaction-redis.log')}`);
