#!/usr/bin/env node
import * as aiSdk from '@compaction/ai-sdk';
import * as core from '@compaction/core';
import * as langchain from '@compaction/langchain';
import * as mastra from '@compaction/mastra';

const loaded = {
  '@compaction/core': core,
  '@compaction/ai-sdk': aiSdk,
  '@compaction/langchain': langchain,
  '@compaction/mastra': mastra,
};
for (const [name, module] of Object.entries(loaded)) {
  process.stdout.write(`loaded ${name} (${Object.keys(module).length} exports)\n`);
}
