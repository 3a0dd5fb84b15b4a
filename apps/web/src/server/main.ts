#!/usr/bin/env node
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWebServer } from './start-web-server.js';
import { webModelFromEnv } from './web-model.js';

/** `npm run web`: serves the chat app, offline on the replay model unless an endpoint is configured. */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 5178);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`PORT must be a port number, got "${process.env.PORT}"`);
  const dataDir = resolve(process.env.COMPACTION_WEB_DATA ?? fileURLToPath(new URL('../../.data', import.meta.url)));
  const model = webModelFromEnv(process.env);
  const clientDir = fileURLToPath(new URL('../client', import.meta.url));
  const server = await startWebServer({ port, dataDir, model, clientDir });
  process.stdout.write(
    `@compaction web app: ${server.url}\n  model: ${model.description}\n  data:  ${dataDir} (chats and compaction state)\n  Ctrl-C to stop\n`,
  );
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`web: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
