import { describe, expect, it } from 'vitest';
import { extractExamples, fencedBlocks, importedPackages, installedPackages } from './extract-examples.js';
import { exampleFileName } from './typecheck-examples.js';

const markdown = [
  '# Title', // 1
  '', // 2
  '```sh', // 3
  'npm install @compaction/core ai # and a provider', // 4
  '```', // 5
  '', // 6
  '```ts', // 7
  "import { createCompactionSession } from '@compaction/core';", // 8
  "import type { LanguageModel } from 'ai';", // 9
  "import { readFile } from 'node:fs/promises';", // 10
  '```', // 11
  '', // 12
  '<!-- readme-example: typecheck-only — it listens on a port -->', // 13
  '', // 14
  '```typescript', // 15
  "import { serve } from '@hono/node-server';", // 16
  '```', // 17
  '', // 18
  '- a list item', // 19
  '  ```ts', // 20
  "  import { openai } from '@ai-sdk/openai/internal';", // 21
  '  ```', // 22
  '', // 23
  '```json', // 24
  '{ "not": "typescript" }', // 25
  '```', // 26
].join('\n');

describe('extractExamples', () => {
  it('takes ts and typescript blocks (indented ones too), with the line of their first code line', () => {
    const examples = extractExamples('README.md', markdown);
    expect(examples.map((example) => [example.line, example.mode])).toEqual([
      [8, 'run'],
      [16, 'typecheck-only'],
      [21, 'run'],
    ]);
    expect(examples[1]!.reason).toBe('it listens on a port');
    expect(examples[2]!.code).toBe("import { openai } from '@ai-sdk/openai/internal';");
  });

  it('sees every fenced block, whatever its language', () => {
    expect(fencedBlocks(markdown).map((block) => block.info)).toEqual(['sh', 'ts', 'typescript', 'ts', 'json']);
  });

  it('takes tsx blocks as JSX examples, and only those', () => {
    const tsx = [
      '<!-- readme-example: typecheck-only — a React component -->',
      '```tsx',
      "import { useState } from 'react';",
      '```',
      '```ts',
      'const x = 1;',
      '```',
      '```tsv',
      'a\tb',
      '```',
    ].join('\n');
    const examples = extractExamples('README.md', tsx);
    expect(examples.map((example) => [example.line, example.mode, example.jsx])).toEqual([
      [3, 'typecheck-only', true],
      [6, 'run', undefined],
    ]);
    expect(exampleFileName(examples[0]!)).toBe('README.md-L3.tsx');
    expect(exampleFileName(examples[1]!)).toBe('README.md-L6.ts');
  });
});

describe('install lines and imports', () => {
  it('lists the packages an example imports, not built-ins or subpaths', () => {
    const [first, , third] = extractExamples('README.md', markdown);
    expect(importedPackages(first!.code)).toEqual(['@compaction/core', 'ai']);
    expect(importedPackages(third!.code)).toEqual(['@ai-sdk/openai']);
  });

  it('lists what the install commands name, versions and comments aside', () => {
    expect(installedPackages(markdown)).toEqual(['@compaction/core', 'ai']);
    expect(installedPackages('```sh\npnpm add zod@4 @langchain/openai@^1.6.0 -D\n```')).toEqual([
      '@langchain/openai',
      'zod',
    ]);
  });
});
