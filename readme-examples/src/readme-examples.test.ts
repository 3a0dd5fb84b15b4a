/**
 * Every TypeScript block of every README (see `findReadmes`) is a test: all are
 * type-checked in one `tsc` run under strict user settings
 * (`EXAMPLE_COMPILER_OPTIONS`: strict, exactOptionalPropertyTypes, NodeNext),
 * then each is run — twice, in the same empty folder, so an example that
 * stores something must also work on the second run. The examples import the
 * real packages; only the model providers are swapped for the frameworks' test
 * models: `@ai-sdk/openai` → `substitutes/ai-sdk-openai.ts` (MockLanguageModelV4),
 * `@langchain/openai` → `substitutes/langchain-openai.ts` (LangChain's FakeBuiltModel),
 * by the aliases of the vitest project `readme`. Install lines are checked too:
 * each README's install command names every package its examples import.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Example, extractExamples, importedPackages, installedPackages } from './extract-examples.js';
import { findReadmes, REPO_ROOT } from './find-readmes.js';
import {
  type ExampleDiagnostic,
  type ExampleFile,
  exampleFileName,
  typecheckExamples,
  writeExamples,
} from './typecheck-examples.js';

/** Packages an example may import that a user never installs for it. */
const PROVIDED = new Set(['vitest']);

const readmes = findReadmes().map((readme) => {
  const markdown = readFileSync(join(REPO_ROOT, readme), 'utf8');
  return { readme, markdown, examples: extractExamples(readme, markdown) };
});
const examples = readmes.flatMap((entry) => entry.examples);

let files = new Map<string, ExampleFile>();
let diagnostics = new Map<string, ExampleDiagnostic[]>();

beforeAll(() => {
  const written = writeExamples(examples);
  files = new Map(written.map((file) => [exampleFileName(file), file]));
  diagnostics = typecheckExamples(written);
}, 180_000);

const label = (example: Example) => `${example.readme}:${example.line}`;

it.each(examples.filter((example) => example.mode !== 'run').map((example) => [label(example), example] as const))(
  '%s says why it is not both type-checked and run',
  (_, example) => {
    expect(example.reason?.length ?? 0).toBeGreaterThan(10);
  },
);

describe.each(readmes.filter((entry) => entry.examples.length > 0))('$readme', ({ readme, markdown, examples }) => {
  const checked = examples.filter((example) => example.mode !== 'run-only');
  it.each(checked.map((example) => [label(example), example] as const))('%s type-checks', (_, example) => {
    const file = files.get(exampleFileName(example))!;
    const errors = diagnostics.get(file.file) ?? [];
    expect(errors.map((error) => `${error.readme}:${error.line}:${error.column} ${error.message}`)).toEqual([]);
  });

  const runnable = examples.filter((example) => example.mode !== 'typecheck-only');
  if (runnable.length > 0) {
    describe('runs', () => {
      let cwd: string;
      let folder: string;
      beforeAll(() => {
        cwd = process.cwd();
        folder = mkdtempSync(join(tmpdir(), 'readme-example-'));
        process.chdir(folder);
      });
      afterAll(() => {
        process.chdir(cwd);
        rmSync(folder, { recursive: true, force: true });
      });
      it.each(runnable.map((example) => [label(example), example] as const))(
        '%s runs, twice in the same folder',
        async (_, example) => {
          const url = pathToFileURL(files.get(exampleFileName(example))!.file).href;
          await import(/* @vite-ignore */ `${url}?run=1`);
          await import(/* @vite-ignore */ `${url}?run=2`);
        },
        120_000,
      );
    });
  }

  it('its install command names every package its examples import', () => {
    const imported = new Set(examples.flatMap((example) => importedPackages(example.code)));
    const installed = installedPackages(markdown);
    const missing = [...imported].filter((name) => !PROVIDED.has(name) && !installed.includes(name));
    expect(missing, `${readme}: add these to its install line`).toEqual([]);
  });
});

it('finds the READMEs and their examples', () => {
  expect(readmes.map((entry) => entry.readme)).toContain('packages/core/README.md');
  expect(examples.length).toBeGreaterThan(10);
});
