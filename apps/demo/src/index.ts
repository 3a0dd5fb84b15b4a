export { type CliIo, processIo } from './cli/cli-io.js';
export { main } from './main.js';
export * from './replay/index.js';
