/**
 * What the store needs of a Redis client: `sendCommand` as node-redis has it
 * (`createClient()` from `redis`, connected). The store never connects or
 * closes it.
 */
export type RedisCommander = {
  sendCommand(args: string[]): Promise<unknown>;
};
