import { describe, expect, it } from 'vitest';
import { conversation } from '../../../test/builders.js';
import { InvalidSettingsError } from '../../errors/invalid-settings-error.js';
import type { Message } from '../../messages/types.js';
import { heuristicCounter } from '../../tokens/heuristic-counter.js';
import { extractFileOperations } from '../file-operations/extract-file-operations.js';
import { mergeFileOperations } from '../file-operations/merge-file-operations.js';
import { checkSummaryQuality } from '../quality/check-summary-quality.js';
import type { FileOperations, SummarizeRequest } from '../types.js';
import { COMPACT_STRUCTURED_BUDGET } from './build-structured-summary.js';
import { structuredSummarizer } from './structured-summarizer.js';

const counter = heuristicCounter();

function request(messages: Message[], overrides: Partial<SummarizeRequest> = {}): SummarizeRequest {
  return {
    kind: 'history',
    messages,
    fileOps: extractFileOperations(messages),
    replacedTokens: 1_000_000,
    counter,
    ...overrides,
  };
}

/** "Kept": the first 60 characters of the request, whitespace collapsed, appear in the summary. */
function expectRequestKept(summary: string, text: string): void {
  expect(summary).toContain(text.replace(/\s+/g, ' ').trim().slice(0, 60));
}

function expectPathsKept(summary: string, fileOps: FileOperations): void {
  for (const path of [...fileOps.read, ...fileOps.modified]) expect(summary).toContain(`\n${path}\n`);
}

function session() {
  const c = conversation();
  return [
    c.user('Add a --dry-run flag to scripts/deploy.ts so we can test without uploading'),
    ...c.toolStep([
      { name: 'Read', input: { file_path: 'scripts/deploy.ts' }, output: 'export async function deploy() {}' },
    ]),
    ...c.toolStep(
      [
        {
          name: 'Bash',
          input: { command: 'npm test' },
          output: "TypeError: Cannot read properties of undefined (reading 'bucket')",
          isError: true,
        },
      ],
      'I will run the tests first.',
    ),
    ...c.toolStep([{ name: 'Edit', input: { file_path: 'scripts/deploy.ts' }, output: 'ok' }]),
    ...c.toolStep([{ name: 'Bash', input: { command: 'npm test' }, output: '12 passed' }]),
    ...c.toolStep([{ name: 'Grep', input: { pattern: 'S3' }, output: 'ENOENT', isError: true }]),
    c.assistant('The flag works; uploads are skipped when --dry-run is set.'),
    c.user('Now also print the files that would be uploaded.\nKeep the output short.'),
  ];
}

describe('structuredSummarizer', () => {
  it('fills the headings from the messages: requests, last request verbatim, tools, errors, files, statements', async () => {
    const messages = session();
    const summary = await structuredSummarizer().summarize(
      request(messages, {
        lastUserRequest: 'Now also print the files that would be uploaded.\nKeep the output short.',
      }),
    );
    expect(summary).toMatchInlineSnapshot(`
      "## Goal
      Add a --dry-run flag to scripts/deploy.ts so we can test without uploading

      ## Constraints & Preferences
      - User: Add a --dry-run flag to scripts/deploy.ts so we can test without uploading
      - User: Keep the output short.

      ## Progress
      ### Done
      - Messages summarized so far: 13 (13 in this update)
      - Tools used: Bash ×2, Edit ×1, Grep ×1, Read ×1
      - Edited \`scripts/deploy.ts\`
      - Last build/test: \`npm test\` (×2) → ok (after 1 failed run; last failure, Bash output (quoted data): "TypeError: Cannot read properties of undefined (reading 'bucket')")

      ### In Progress
      - Last assistant message: The flag works; uploads are skipped when --dry-run is set.

      ### Blocked
      - Error in \`Grep\` (unresolved): Grep output (quoted data): "ENOENT"

      ## Key Decisions
      - Assistant: I will run the tests first.

      ## Next Steps
      1. (continue with the last user request, quoted at the end)

      ## Critical Context
      ### User Requests
      1. Add a --dry-run flag to scripts/deploy.ts so we can test without uploading
      2. Now also print the files that would be uploaded. Keep the output short.

      <read-files>
      </read-files>
      <modified-files>
      scripts/deploy.ts
      </modified-files>

      Last request from user was: Now also print the files that would be uploaded.
      Keep the output short."
    `);
  });

  it('passes the quality gate of an LLM summary (same headings)', async () => {
    const summary = await structuredSummarizer().summarize(request(session()));
    expect(checkSummaryQuality(summary, { kind: 'history', replacedTokens: 100_000, counter })).toEqual({ ok: true });
  });

  it('takes the last request from the messages when the request carries none', async () => {
    const summary = await structuredSummarizer().summarize(request(session()));
    expect(
      summary.endsWith(
        'Last request from user was: Now also print the files that would be uploaded.\nKeep the output short.',
      ),
    ).toBe(true);
  });

  describe('budget', () => {
    const c = conversation();
    const requests = Array.from(
      { length: 40 },
      (_, index) => `Request ${index}: ${'please refactor the module carefully '.repeat(12)}`,
    );
    const messages: Message[] = [];
    for (const [index, text] of requests.entries()) {
      messages.push(c.user(text));
      messages.push(
        ...c.toolStep(
          [
            { name: 'Read', input: { file_path: `src/module-${index}/index.ts` }, output: 'x'.repeat(500) },
            {
              name: 'Bash',
              input: { command: 'npm test' },
              output: `FAIL ${'stack frame '.repeat(60)}`,
              isError: index % 2 === 0,
            },
          ],
          `Statement ${index}: ${'the refactor is going well and here is a long explanation '.repeat(8)}`,
        ),
      );
      messages.push(
        ...c.toolStep([{ name: 'Write', input: { file_path: `src/module-${index}/new.ts` }, output: 'ok' }]),
      );
    }
    const fileOps = extractFileOperations(messages);

    it.each([4000, COMPACT_STRUCTURED_BUDGET])(
      'stays within %i tokens and keeps every path and request',
      async (maxTokens) => {
        const summary = await structuredSummarizer({ maxTokens }).summarize(request(messages));
        expect(counter.countText(summary)).toBeLessThanOrEqual(maxTokens);
        for (const text of requests) expectRequestKept(summary, text);
        expectPathsKept(summary, fileOps);
        expect(fileOps.read).toHaveLength(40);
        expect(fileOps.modified).toHaveLength(40);
      },
    );

    it('shortens the rest before paths and requests, and condenses them rather than exceed the budget', async () => {
      const generous = await structuredSummarizer({ maxTokens: 100_000 }).summarize(request(messages));
      const roomy = await structuredSummarizer({ maxTokens: 2000 }).summarize(request(messages));
      const tight = await structuredSummarizer({ maxTokens: 500 }).summarize(request(messages));
      expect(generous).toContain('- Last build/test: `npm test` (×40) → ok (after 20 failed runs;');
      expect(tight).not.toContain('- Last build/test:');
      expect(counter.countText(roomy)).toBeLessThanOrEqual(2000);
      for (const text of requests) expectRequestKept(roomy, text);
      expectPathsKept(roomy, fileOps);
      // Even the paths and requests cannot fit in 500 tokens: they are condensed (folders
      // counted, the oldest requests counted), the newest request kept, and the budget holds.
      expect(counter.countText(tight)).toBeLessThanOrEqual(500);
      expect(counter.countText(tight)).toBeLessThan(counter.countText(generous));
      expect(tight).toMatch(/- \(\d+ earlier requests not listed\)/);
      expect(tight).toContain('40. Request 39');
    });
  });

  it('cuts a last request over a quarter of the budget, with a marker', async () => {
    const c = conversation();
    const huge = `Please review this log:\n${'line of log output\n'.repeat(2000)}`;
    const summary = await structuredSummarizer({ maxTokens: 2000 }).summarize(request([c.user(huge)]));
    expect(summary).toMatch(
      /Last request from user was: Please review this log:\n[\s\S]*… \[[\d,]+ more characters cut\]$/,
    );
    expect(counter.countText(summary)).toBeLessThanOrEqual(2000);
  });

  it('stacked: three update cycles keep every file path and request from cycle one', async () => {
    const summarizer = structuredSummarizer({ maxTokens: COMPACT_STRUCTURED_BUDGET });
    const c = conversation();
    const cycleOne = [
      c.user('Cycle one: migrate the billing service from callbacks to async/await everywhere'),
      ...c.toolStep([
        { name: 'Read', input: { file_path: 'services/billing/index.js' }, output: 'module.exports = {}' },
      ]),
      ...c.toolStep([{ name: 'Bash', input: { command: 'npm run lint' }, output: 'lint: 3 errors', isError: true }]),
      ...c.toolStep([{ name: 'Edit', input: { file_path: 'services/billing/charge.js' }, output: 'ok' }]),
      c.user('Cycle one, second request: keep the public API of charge() unchanged'),
    ];
    let fileOps = extractFileOperations(cycleOne);
    const cycleOneFiles = fileOps;
    let summary = await summarizer.summarize(request(cycleOne, { fileOps }));
    const cycleOneRequests = [
      'Cycle one: migrate the billing service from callbacks to async/await everywhere',
      'Cycle one, second request: keep the public API of charge() unchanged',
    ];
    for (let cycle = 2; cycle <= 4; cycle++) {
      const span = [
        c.user(`Cycle ${cycle}: ${'continue with the next module of the migration '.repeat(3)}`),
        ...c.toolStep([{ name: 'Read', input: { file_path: `services/module-${cycle}.js` }, output: 'x' }]),
        ...c.toolStep([{ name: 'Bash', input: { command: 'npm run lint' }, output: 'clean' }]),
        ...c.toolStep([{ name: 'Write', input: { file_path: `services/module-${cycle}.test.js` }, output: 'ok' }]),
      ];
      fileOps = mergeFileOperations(fileOps, extractFileOperations(span));
      summary = await summarizer.summarize(request(span, { previousSummary: summary, fileOps }));
    }
    for (const text of cycleOneRequests) expectRequestKept(summary, text);
    expectPathsKept(summary, cycleOneFiles);
    expectPathsKept(summary, fileOps);
    expect(summary).toContain('## Goal\nCycle one: migrate the billing service');
    expect(summary).toContain('- Tools used: Bash ×4, Read ×4, Write ×3, Edit ×1');
    // The failure of cycle one, resolved in a later cycle: its tool text quoted as data.
    expect(summary).toContain(
      '`npm run lint` (×4) → ok (after 1 failed run; last failure, Bash output (quoted data): "lint: 3 errors")',
    );
    expect(summary).toContain(
      `Last request from user was: Cycle 4: ${'continue with the next module of the migration '.repeat(3)}`.trimEnd(),
    );
  });

  it('update from an LLM summary: carries its goal, its lines, its files and its last request', async () => {
    const previousSummary = `## Goal
Ship the CSV export.

## Constraints & Preferences
- Must stream: files can be 2 GB

## Progress
### Done
- [x] Added exportCsv() in src/export.ts

### In Progress
- (none)

### Blocked
- (none)

## Key Decisions
- **Use node:stream**: no new dependency

## Next Steps
1. Add a test

## Critical Context
- Error: ERR_STREAM_PREMATURE_CLOSE when the client disconnects

<read-files>
docs/export.md
</read-files>
<modified-files>
src/export.ts
</modified-files>

Last request from user was: Handle client disconnects gracefully`;
    const c = conversation();
    const summary = await structuredSummarizer().summarize(
      request([c.user('Now add the test'), c.assistant('Added test/export.test.ts.')], {
        previousSummary,
        fileOps: { read: [], modified: ['test/export.test.ts'] },
      }),
    );
    expect(summary).toContain('## Goal\nShip the CSV export.');
    for (const line of [
      '- (Constraints & Preferences) Must stream: files can be 2 GB',
      '- (Done) Added exportCsv() in src/export.ts',
      '- (Key Decisions) **Use node:stream**: no new dependency',
      '- (Next Steps) Add a test',
      '- (Critical Context) Error: ERR_STREAM_PREMATURE_CLOSE when the client disconnects',
    ]) {
      expect(summary).toContain(line);
    }
    expect(summary).toContain('1. Handle client disconnects gracefully\n2. Now add the test');
    expect(summary).toContain(
      '<read-files>\ndocs/export.md\n</read-files>\n<modified-files>\nsrc/export.ts\ntest/export.test.ts\n</modified-files>',
    );
    expect(summary.endsWith('Last request from user was: Now add the test')).toBe(true);
  });

  it('turn prefix: the turn-prefix headings, no file lists, no last request', async () => {
    const c = conversation();
    const prefix = [
      c.user('Find why the queue test is flaky'),
      ...c.toolStep(
        [{ name: 'Bash', input: { command: 'npm test -- queue' }, output: 'timeout', isError: true }],
        'Running it.',
      ),
    ];
    const summary = await structuredSummarizer().summarize(
      request(prefix, { kind: 'turn-prefix', lastUserRequest: 'x' }),
    );
    expect(summary).toMatchInlineSnapshot(`
      "## Turn Request
      ### User Requests
      1. Find why the queue test is flaky

      ## Tried So Far
      - Tools used: Bash ×1
      - Last build/test: \`npm test -- queue\` → failed; Bash output (quoted data): "timeout"

      ## Intermediate Results
      - Last assistant message: Running it.
      - (nothing recorded)"
    `);
    expect(checkSummaryQuality(summary, { kind: 'turn-prefix', replacedTokens: 10_000, counter }).ok).toBe(true);
  });

  it('lists a repeated failure once, with the outcome of its latest occurrence', async () => {
    const c = conversation();
    const failing = {
      name: 'Bash',
      input: { command: 'mix test' },
      output: 'Pre-commit validation failed: [DIALYZER]',
      isError: true,
    };
    const messages = [
      c.user('Commit the change'),
      ...c.toolStep([failing]),
      ...c.toolStep([{ name: 'Bash', input: { command: 'mix format' }, output: 'ok' }]),
      ...c.toolStep([failing]),
    ];
    const summary = await structuredSummarizer().summarize(request(messages));
    expect(summary.match(/Pre-commit validation failed/g)).toHaveLength(1);
    expect(summary).toContain(
      '### Blocked\n- Last build/test: `mix test` (×2) → failed; Bash output (quoted data): "Pre-commit validation failed: [DIALYZER]"',
    );
  });

  it('refuses a budget that is not a positive integer', () => {
    expect(() => structuredSummarizer({ maxTokens: 0 })).toThrow(InvalidSettingsError);
    expect(() => structuredSummarizer({ maxTokens: 1.5 })).toThrow(/maxTokens/);
  });

  it('refuses unknown options and options that are not an object, naming what is known', () => {
    expect(() => structuredSummarizer({ maxToken: 2000 } as never)).toThrow(
      'setting "maxToken": unknown option; known: maxTokens',
    );
    expect(() => structuredSummarizer(2000 as never)).toThrow(InvalidSettingsError);
    expect(() => structuredSummarizer(null as never)).toThrow(/must be an object/);
  });
});

describe('structuredSummarizer: a handoff of the work', () => {
  it('per-file changes, commands with outcomes, the failing test, the todo list and the next step', async () => {
    const c = conversation();
    const messages = [
      c.user('Add a `--dry-run` flag to the deploy script and make the tests pass'),
      ...c.toolStep(
        [
          {
            name: 'TodoWrite',
            input: {
              todos: [
                { content: 'Add the --dry-run flag', status: 'completed' },
                { content: 'Fix the upload test', status: 'in_progress' },
                { content: 'Document the flag in README.md', status: 'pending' },
              ],
            },
            output: 'ok',
          },
        ],
        "I'll track the work in a todo list.",
      ),
      ...c.toolStep([
        {
          name: 'Read',
          input: { file_path: '/repo/scripts/deploy.ts' },
          output: '1→export async function deploy(bucket: string) {\n2→  await uploadAll(bucket);\n3→}',
        },
      ]),
      ...c.toolStep(
        [
          {
            name: 'Edit',
            input: {
              file_path: '/repo/scripts/deploy.ts',
              old_string: 'export async function deploy(bucket: string) {',
              new_string:
                'export async function deploy(bucket: string, { dryRun = false }: DeployOptions = {}) {\n  if (dryRun) return listPlannedUploads(bucket);',
            },
            output: 'ok',
          },
        ],
        'I will skip the upload when dryRun is set, because the tests must not touch S3.',
      ),
      ...c.toolStep([
        {
          name: 'Write',
          input: {
            file_path: '/repo/scripts/deploy-options.ts',
            content: 'export type DeployOptions = { dryRun?: boolean };\nexport const DEFAULT_BUCKET = "assets";',
          },
          output: 'ok',
        },
      ]),
      ...c.toolStep([
        {
          name: 'Bash',
          input: { command: 'npx vitest run 2>&1 | tail -20', description: 'Run the tests' },
          output:
            'Exit code 1\n FAIL  scripts/deploy.test.ts > skips uploads in dry-run\nAssertionError: expected 1 to be 0\nTests 1 failed | 11 passed',
          isError: true,
        },
      ]),
      c.assistant('The dry-run test still uploads once. Next I will stub uploadAll in scripts/deploy.test.ts.'),
    ];
    const summary = await structuredSummarizer().summarize(request(messages));
    expect(summary).toMatchInlineSnapshot(`
      "## Goal
      Add a \`--dry-run\` flag to the deploy script and make the tests pass

      ## Constraints & Preferences
      - (none stated; the user's requests, in their words, are under Critical Context)

      ## Progress
      ### Done
      - Messages summarized so far: 12 (12 in this update)
      - Tools used: Bash ×1, Edit ×1, Read ×1, TodoWrite ×1, Write ×1
      - Edited \`deploy.ts\`: adds dryRun, DeployOptions, listPlannedUploads
        - \`export async function deploy(bucket: string, { dryRun = false }: DeployOptions = {}) {\`
      - Wrote \`deploy-options.ts\`: adds DeployOptions, dryRun, DEFAULT_BUCKET
        - \`export type DeployOptions = { dryRun?: boolean };\`
        - \`export const DEFAULT_BUCKET = "assets";\`
      - [x] Add the --dry-run flag

      ### In Progress
      - Last assistant message: The dry-run test still uploads once. Next I will stub uploadAll in scripts/deploy.test.ts.
      - [ ] Fix the upload test

      ### Blocked
      - Last build/test: \`npx vitest run\` — Run the tests → failed (exit 1); failing (quoted data): ["scripts/deploy.test.ts > skips uploads in dry-run"]; Bash output (quoted data): "FAIL scripts/deploy.test.ts > skips uploads in dry-run"

      ## Key Decisions
      - Assistant: I'll track the work in a todo list.
      - Assistant: I will skip the upload when dryRun is set, because the tests must not touch S3.

      ## Next Steps
      1. Last stated intent: Next I will stub uploadAll in scripts/deploy.test.ts.
      - [ ] Document the flag in README.md

      ## Critical Context
      ### User Requests
      1. Add a \`--dry-run\` flag to the deploy script and make the tests pass
      - Paths are relative to \`/repo/scripts/\`

      <read-files>
      </read-files>
      <modified-files>
      /repo/scripts/deploy-options.ts
      /repo/scripts/deploy.ts
      </modified-files>

      Last request from user was: Add a \`--dry-run\` flag to the deploy script and make the tests pass"
    `);
    expect(counter.countText(summary)).toBeLessThanOrEqual(4000);
  });
});

describe('structuredSummarizer: other agents', () => {
  it("Anthropic's text editor tool and Codex's shell and apply_patch", async () => {
    const c = conversation();
    const messages = [
      c.user('Rename parseArgs to parseOptions'),
      ...c.toolStep([
        {
          name: 'str_replace_based_edit_tool',
          input: {
            command: 'str_replace',
            path: 'src/cli.ts',
            old_str: 'function parseArgs(',
            new_str: 'function parseOptions(',
          },
          output: 'ok',
        },
      ]),
      ...c.toolStep([
        {
          name: 'apply_patch',
          input: {
            input:
              '*** Begin Patch\n*** Add File: src/options.ts\n+export type CliOptions = { verbose: boolean };\n*** End Patch',
          },
          output: 'Done!',
        },
      ]),
      ...c.toolStep([
        {
          name: 'shell',
          input: { command: ['bash', '-lc', 'npm test'] },
          output: 'Exit code 1\nFAIL src/cli.test.ts > parses --verbose',
          isError: true,
        },
      ]),
    ];
    const summary = await structuredSummarizer().summarize(request(messages));
    expect(summary).toContain('- Edited `src/cli.ts`: adds parseOptions');
    expect(summary).toContain('- Wrote `src/options.ts`: adds CliOptions');
    expect(summary).toContain(
      '- Last build/test: `npm test` → failed (exit 1); failing (quoted data): ["src/cli.test.ts > parses --verbose"]',
    );
    expect(summary).not.toContain('`str_replace`');
  });
});

describe('structuredSummarizer: a split turn', () => {
  it('the history and the turn-prefix summaries share the budget, so the stored pair stays within it', async () => {
    const c = conversation();
    const long = (index: number) =>
      `Request ${index}: ${'refactor the parser module and keep the public API stable '.repeat(6)}`;
    const history = Array.from({ length: 30 }, (_, index) => [
      c.user(long(index)),
      ...c.toolStep(
        [
          {
            name: 'Edit',
            input: { file_path: `src/module_${index}.ts`, new_string: `export const value_${index} = 1;` },
            output: 'ok',
          },
        ],
        `I'll update src/module_${index}.ts because the parser needs value_${index}.`,
      ),
    ]).flat();
    const prefix = Array.from({ length: 20 }, (_, index) =>
      c.toolStep(
        [
          {
            name: 'Bash',
            input: { command: `npm test -- part_${index}` },
            output: `Exit code 1\nFAIL part_${index}`,
            isError: true,
          },
        ],
        `Let me check part_${index} because it fails with a new_error_${index}.`,
      ),
    ).flat();
    const maxTokens = 1000;
    const summarizer = structuredSummarizer({ maxTokens });
    const historySummary = await summarizer.summarize(request(history, { splitTurn: true }));
    const prefixSummary = await summarizer.summarize(request(prefix, { kind: 'turn-prefix' }));
    const stored = `${historySummary}\n\n## Current turn so far\n\n${prefixSummary}`;
    expect(counter.countText(historySummary)).toBeLessThanOrEqual(750);
    expect(counter.countText(prefixSummary)).toBeLessThanOrEqual(250);
    expect(counter.countText(stored)).toBeLessThanOrEqual(maxTokens);
  });
});
