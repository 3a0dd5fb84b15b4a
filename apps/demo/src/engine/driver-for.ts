import type { AdapterName } from './adapter-name.js';
import type { ReplayDriver } from './replay-driver.js';
import { hasAiSdkAdapter, replayThroughAiSdk } from './replay-through-ai-sdk.js';
import { replayThroughCore } from './replay-through-core.js';
import { hasLangChainAdapter, replayThroughLangChain } from './replay-through-langchain.js';
import { hasLangChainMemoryAdapter, replayThroughLangChainMemory } from './replay-through-langchain-memory.js';
import { hasMastraAdapter, replayThroughMastra } from './replay-through-mastra.js';

const drivers: Record<AdapterName, { driver: ReplayDriver; available: () => boolean }> = {
  core: { driver: replayThroughCore, available: () => true },
  'ai-sdk': { driver: replayThroughAiSdk, available: hasAiSdkAdapter },
  langchain: { driver: replayThroughLangChain, available: hasLangChainAdapter },
  'langchain-memory': { driver: replayThroughLangChainMemory, available: hasLangChainMemoryAdapter },
  mastra: { driver: replayThroughMastra, available: hasMastraAdapter },
};

/** The replay driver of an adapter. */
export function driverFor(adapter: AdapterName): ReplayDriver {
  return drivers[adapter].driver;
}

/** Whether the adapter's package exports what its driver needs. */
export function isAdapterAvailable(adapter: AdapterName): boolean {
  return drivers[adapter].available();
}
