import { createInterface } from 'node:readline';
import type { CompactionSession } from '@compaction/core';
import type { CliIo } from '../cli/cli-io.js';
import type { ChatModel } from './chat-model.js';
import { formatCompactionResult } from './format-compaction-result.js';
import { formatContext, formatHistory } from './format-history.js';
import { formatStats } from './format-stats.js';

/** Options of {@link runChat}. */
export type RunChatOptions = { session: CompactionSession; model: ChatModel; io: CliIo; intro: string[] };

const COMMANDS = 'Commands: /compact [focus], /stats, /history, /context, /quit';

/**
 * The chat loop: reads stdin line by line (a terminal or a pipe), sends each message
 * through the compaction session to the model and prints the answer; `/compact [focus]`,
 * `/stats`, `/history`, `/context` and `/quit` act on the session. Ends at `/quit` or
 * the end of input.
 */
export async function runChat({ session, model, io, intro }: RunChatOptions): Promise<void> {
  const say = (lines: string[]): void => {
    io.stdout.write(`${lines.join('\n')}\n`);
  };
  const interactive = io.stdin.isTTY === true;
  const prompt = (): void => {
    if (interactive) io.stdout.write('> ');
  };
  const used = { inputTokens: 0, outputTokens: 0, calls: 0 };
  let turn = 0;
  session.on((event) => {
    if (event.type === 'compaction:error') say([`Compaction: ${event.message}`]);
  });

  async function exchange(text: string): Promise<void> {
    turn += 1;
    await session.append({ id: `user-${turn}`, role: 'user', parts: [{ type: 'text', text }] });
    let prepared = await session.prepare();
    if (prepared.compaction) say([formatCompactionResult(prepared.compaction)]);
    let answer: Awaited<ReturnType<ChatModel['reply']>>;
    try {
      answer = await model.reply(prepared.messages);
    } catch (error) {
      if (!(await session.recoverFromOverflow(error))) throw error;
      say(['The model said the context was too long: compacted, retrying once.']);
      prepared = await session.prepare();
      answer = await model.reply(prepared.messages);
    }
    await session.append({ id: `assistant-${turn}`, role: 'assistant', parts: [{ type: 'text', text: answer.text }] });
    if (answer.usage) await session.recordUsage(answer.usage);
    used.calls += 1;
    used.inputTokens += answer.usage?.inputTokens ?? 0;
    used.outputTokens += answer.usage?.outputTokens ?? 0;
    say([`assistant: ${answer.text}`]);
  }

  /** Runs a slash command; true when the chat should end. */
  async function command(line: string): Promise<boolean> {
    const [name, ...rest] = line.split(/\s+/);
    switch (name) {
      case '/quit':
      case '/exit':
        say(['Bye.']);
        return true;
      case '/compact': {
        const focus = rest.join(' ').trim();
        const result = await session.compact(focus ? { instructions: focus } : {});
        say([result ? formatCompactionResult(result) : 'Nothing was compacted.']);
        return false;
      }
      case '/stats':
        say(formatStats(await session.stats(), used));
        return false;
      case '/history':
        say(formatHistory(await session.history(), await session.state()));
        return false;
      case '/context':
        say(formatContext(await session.context()));
        return false;
      default:
        say([`Unknown command ${name}. ${COMMANDS}`]);
        return false;
    }
  }

  say([...intro, COMMANDS]);
  prompt();
  const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const raw of lines) {
      const line = raw.trim();
      if (line !== '') {
        if (!interactive) say([`> ${line}`]);
        if (line.startsWith('/')) {
          if (await command(line)) break;
        } else {
          await exchange(line);
        }
      }
      prompt();
    }
  } finally {
    lines.close();
  }
}
