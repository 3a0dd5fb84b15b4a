import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SUMMARIZATION_SYSTEM_PROMPT, SUMMARY_PREFIX } from '@compaction/core';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES_DIR } from '../src/cli/app-paths.js';
import { runCli } from './run-cli.js';

const script = (...lines: string[]) => `${lines.join('\n')}\n`;
const turns = Array.from(
  { length: 12 },
  (_, index) => `Question ${index + 1}: what does step ${index + 1} of the plan change?`,
);
/** Longer messages, so that a small window fills and a summary is shorter than what it replaces. */
const longTurns = turns.map((turn, index) =>
  `${turn} ${`Context for step ${index + 1}: the gateway re-sends the whole session history on every provider call, the store keeps one JSON file per session, and the trace shows the baseline growing from 20K to 90K tokens over nine turns while the tool loop repeats it on every iteration. `.repeat(3)}`.trim(),
);

describe('chat offline (replay model)', () => {
  it('says it is offline, answers from the recording, and runs /stats, /compact, /history, /context, /quit', async () => {
    const run = await runCli(
      ['chat', '--fixture', join(DEFAULT_FIXTURES_DIR, '258c7280-ae70-4798-800f-63464d01a85d.jsonl')],
      {
        input: script(
          ...longTurns,
          '/stats',
          '/compact focus on the migration',
          '/stats',
          '/history',
          '/context',
          '/nope',
          '/quit',
          'after quit',
        ),
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toMatch(/^No model endpoint configured \(set COMPACTION_DEMO_BASE_URL/);
    expect(out).toContain('Running offline: answers come from the replay model over 258c7280');
    expect(out).toContain('assistant: Let me start by understanding what "spotter-gqc" means');

    const [beforeCompact = '', afterCompact = ''] = out.split('> /compact focus on the migration\n');
    expect(beforeCompact).toMatch(
      /Context: [\d,]+ of 200,000 tokens \([\d.]+% full; compacts above 160,000\)\nCompactions: 0\nMessages: 24 in the history, 24 in the context\nTokens used: [\d,]+ input/,
    );
    expect(afterCompact).toMatch(
      /^Conversation compacted: \d+ messages → summary, [\d,]+ → [\d,]+ tokens \(structured, manual\)/,
    );
    expect(afterCompact).toMatch(/Compactions: 1\nMessages: 24 in the history, \d in the context/);

    const history = afterCompact.slice(afterCompact.indexOf('> /history'), afterCompact.indexOf('> /context'));
    expect(history).toContain('[user] Question 1: what does step 1 of the plan change?');
    expect(history).toMatch(/──── compaction v1 \(structured\): the messages above are summarized/);
    expect(history.indexOf('──── compaction v1')).toBeGreaterThan(history.indexOf('Question 1:'));

    const context = afterCompact.slice(afterCompact.indexOf('> /context'), afterCompact.indexOf('> /nope'));
    expect(context).toContain(SUMMARY_PREFIX);
    expect(context).not.toContain('[user] Question 1:');
    expect(context).toContain('[user] Question 12:');

    expect(out).toContain('Unknown command /nope. Commands: /compact [focus], /stats, /history, /context, /quit');
    expect(out.trimEnd().endsWith('Bye.')).toBe(true);
    expect(out).not.toContain('after quit');
  });

  it('compacts by itself when the window fills, and says so', async () => {
    // A small window: its reserve (a quarter of it, 1,500) is not above the trigger.
    const run = await runCli(['chat', '--window', '6k', '--trigger', '1500', '--keep', '500'], {
      input: script(...longTurns, '/stats', '/quit'),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /Conversation compacted: \d+ messages → summary, [\d,]+ → [\d,]+ tokens \(structured, auto\)/,
    );
    expect(run.stdout).toMatch(/Compactions: [1-9]/);
  });

  it.each([
    ['6k', '1500', '500'],
    ['4800', '1200', '300'],
    ['8k', '2000', '800'],
    ['32k', '0.05', '400'],
  ])(
    'says one consistent thing per compaction, in one number format (window %s, trigger %s, keep %s)',
    async (window, trigger, keep) => {
      const run = await runCli(['chat', '--window', window, '--trigger', trigger, '--keep', keep], {
        input: script(...longTurns, '/stats', '/quit'),
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const triggerTokens = Number(/compacts above ([\d,]+)\)/.exec(run.stdout)![1]!.replaceAll(',', ''));
      const lines = run.stdout.split('\n');
      const compactionLines = lines.filter((line) => /^(Conversation compacted|Compaction failed)/.test(line));
      expect(compactionLines.length).toBeGreaterThan(0);
      for (const line of compactionLines) {
        // Thousands separators everywhere, never a bare 1530 beside a 1,440.
        expect(line).not.toMatch(/\d{4}/);
        const match = /, ([\d,]+) → ([\d,]+) tokens \((\w+), (\w+)\)(.*)$/.exec(line);
        if (!match) continue;
        const [before, after] = [match[1]!, match[2]!].map((figure) => Number(figure.replaceAll(',', '')));
        expect(after, line).toBeLessThan(before!);
        // "still above the trigger" exactly when it is, and never a failure said beside a success.
        expect(match[5]!.includes('still above the trigger'), line).toBe(after! > triggerTokens);
      }
      // No step says both that it compacted and that compaction failed.
      for (let index = 1; index < lines.length; index += 1) {
        if (lines[index]!.startsWith('Conversation compacted'))
          expect(lines[index - 1]).not.toMatch(/^Compaction failed/);
      }
      expect(run.stdout).not.toMatch(/could not bring the context under the trigger/);
    },
  );
});

type Request = {
  body: { model: string; messages: { role: string; content: string }[]; max_tokens?: number };
  authorization?: string;
};

describe('chat with an OpenAI-compatible endpoint', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function endpoint(
    answer: (request: Request) => string,
    reject: (request: Request) => boolean = () => false,
  ): Promise<{ baseUrl: string; requests: Request[] }> {
    const requests: Request[] = [];
    server = createServer(async (incoming: IncomingMessage, response) => {
      let text = '';
      for await (const chunk of incoming) text += chunk;
      const request: Request = { body: JSON.parse(text), authorization: incoming.headers.authorization };
      requests.push(request);
      response.setHeader('content-type', 'application/json');
      if (reject(request)) {
        response.statusCode = 400;
        response.end(
          JSON.stringify({ error: { code: 'context_length_exceeded', message: 'maximum context length exceeded' } }),
        );
        return;
      }
      response.end(
        JSON.stringify({
          choices: [{ message: { role: 'assistant', content: answer(request) }, finish_reason: 'stop' }],
          usage: { prompt_tokens: Math.ceil(text.length / 4), completion_tokens: 7 },
        }),
      );
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { baseUrl: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`, requests };
  }

  it('talks to the endpoint with fetch, records its usage and summarizes with it', async () => {
    const { baseUrl, requests } = await endpoint((request) =>
      request.body.messages[0]?.content === SUMMARIZATION_SYSTEM_PROMPT
        ? 'Not a summary.'
        : `You said: ${request.body.messages.at(-1)?.content}`,
    );
    const run = await runCli(['chat'], {
      input: script(...longTurns, '/compact', '/stats', '/quit'),
      env: {
        COMPACTION_DEMO_BASE_URL: baseUrl,
        COMPACTION_DEMO_MODEL: 'test-model',
        COMPACTION_DEMO_API_KEY: 'secret',
      },
      fetch: globalThis.fetch,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Chatting with test-model at ${baseUrl.replaceAll('.', '\\.')}`));
    expect(run.stdout).toContain(`assistant: You said: ${longTurns[0]}`);
    expect(requests[0]).toEqual({
      body: { model: 'test-model', messages: [{ role: 'user', content: longTurns[0] }] },
      authorization: 'Bearer secret',
    });
    const summaryRequests = requests.filter(
      (request) => request.body.messages[0]?.content === SUMMARIZATION_SYSTEM_PROMPT,
    );
    expect(summaryRequests.length).toBeGreaterThan(0);
    expect(summaryRequests[0]!.body.max_tokens).toBe(4096);
    // The endpoint's answer is not a summary: core rejects it and falls back to the structured one.
    expect(run.stdout).toMatch(/Conversation compacted: \d+ messages → summary, .*\(structured, manual\)/);
    expect(run.stdout).toMatch(/Tokens used: [\d,]+ input, 84 output over 12 calls/);
  });

  it('compacts and retries once when the endpoint says the context is too long', async () => {
    const isSummary = (request: Request) => request.body.messages[0]?.content === SUMMARIZATION_SYSTEM_PROMPT;
    const { baseUrl, requests } = await endpoint(
      () => 'Noted.',
      (request) => !isSummary(request) && request.body.messages.length > 16,
    );
    const run = await runCli(['chat'], {
      input: script(...longTurns, '/stats', '/quit'),
      env: { COMPACTION_DEMO_BASE_URL: baseUrl, COMPACTION_DEMO_MODEL: 'test-model' },
      fetch: globalThis.fetch,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('The model said the context was too long: compacted, retrying once.');
    expect(run.stdout.match(/^assistant: Noted\.$/gm)).toHaveLength(12);
    expect(run.stdout).toMatch(/Compactions: [1-9]/);
    const answered = requests.filter((request) => !isSummary(request) && request.body.messages.length <= 16);
    expect(answered).toHaveLength(12);
  });

  it('prints one error line per message when the endpoint cannot be reached, and the chat goes on', async () => {
    const { baseUrl } = await endpoint(() => '');
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const run = await runCli(['chat'], {
      input: script('hello', 'are you there?', '/stats', '/history', '/quit'),
      env: { COMPACTION_DEMO_BASE_URL: baseUrl, COMPACTION_DEMO_MODEL: 'test-model' },
      fetch: globalThis.fetch,
    });
    expect(run.code).toBe(0);
    const errors = run.stderr.trimEnd().split('\n');
    expect(errors).toHaveLength(2);
    for (const line of errors) {
      expect(line).toMatch(
        new RegExp(
          `^error: cannot reach ${baseUrl.replaceAll('.', '\\.')}/chat/completions: .+; your message stays in the history: send another, or /quit$`,
        ),
      );
    }
    // The chat went on: the commands after the failures ran, and nothing the user typed was lost.
    expect(run.stdout).toContain('Messages: 2 in the history, 2 in the context');
    expect(run.stdout).toContain('[user] hello');
    expect(run.stdout).toContain('[user] are you there?');
    expect(run.stdout.trimEnd().endsWith('Bye.')).toBe(true);
  });

  it('an error status from the endpoint is one error line too, and the next message is answered', async () => {
    let calls = 0;
    const { baseUrl } = await endpoint(() => 'Back again.');
    server!.removeAllListeners('request');
    server!.on('request', (_request, response) => {
      calls += 1;
      response.setHeader('content-type', 'application/json');
      if (calls === 1) {
        response.statusCode = 503;
        response.end(JSON.stringify({ error: { message: 'overloaded, try later' } }));
        return;
      }
      response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Back again.' } }] }));
    });
    const run = await runCli(['chat'], {
      input: script('first', 'second', '/quit'),
      env: { COMPACTION_DEMO_BASE_URL: baseUrl, COMPACTION_DEMO_MODEL: 'test-model' },
      fetch: globalThis.fetch,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^error: .*answered 503: .*overloaded, try later.*; your message stays in the history/);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stdout).toContain('assistant: Back again.');
  });

  it('shows a working indicator with the seconds elapsed on a terminal while the model answers', async () => {
    const { baseUrl } = await endpoint(() => 'Slow answer.');
    server!.removeAllListeners('request');
    server!.on('request', async (incoming, response) => {
      for await (const _chunk of incoming) {
        // drain the body
      }
      await new Promise((resolve) => setTimeout(resolve, 350));
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Slow answer.' } }] }));
    });
    const run = await runCli(['chat'], {
      input: script('hello', '/quit'),
      env: { COMPACTION_DEMO_BASE_URL: baseUrl, COMPACTION_DEMO_MODEL: 'test-model' },
      fetch: globalThis.fetch,
      stderrIsTTY: true,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`waiting for test-model at ${baseUrl}… 0.0 s`);
    expect(run.stderr).toMatch(/waiting for test-model at .*… 0\.[1-9] s/);
    // Cleared before the answer is printed.
    expect(run.stderr.endsWith('\r\u001b[2K')).toBe(true);
    expect(run.stdout).toContain('assistant: Slow answer.');
  });

  it('asks for the model name when only the base URL is set', async () => {
    const run = await runCli(['chat'], { env: { COMPACTION_DEMO_BASE_URL: 'http://127.0.0.1:1/v1' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'error: COMPACTION_DEMO_BASE_URL is set but COMPACTION_DEMO_MODEL is not; set the model name\n',
    );
  });
});
