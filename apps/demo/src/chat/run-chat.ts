import { createInterface } from 'node:readline';
import type { CompactionEvent, CompactionSession } from '@compaction/core';
import type { CliIo } from '../cli/cli-io.js';
import { createActivityIndicator } from './activity-indicator.js';
import type { ChatModel } from './chat-model.js';
import { describeCompaction } from './describe-compaction.js';
import { formatContext, formatHistory } from './format-history.js';
import { formatStats } from './format-stats.js';

/** Options of {@link runChat}. */
export type RunChatOptions = { session: CompactionSession; model: ChatModel; io: CliIo; intro: string[] };

const COMMANDS = 'Commands: /compact [focus], /stats, /history, /context, /quit';

/** The first line of an error's message. */
function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/**
 * The chat loop: reads stdin line by line (a terminal or a pipe), sends each message
 * through the compaction session to the model and prints the answer; `/compact [focus]`,
 * `/stats`, `/history`, `/context` and `/quit` act on the session. Ends at `/quit` or
 * the end of input. While the model or the summarizer works, a spinner with the seconds
 * elapsed runs on stderr (a terminal only). A model call that fails (an unreachable
 * endpoint, an error status) prints one `error: …` line on stderr and the chat goes on;
 * the message stays in the history. Each compaction is one line, from the events'
 * figures (see `describeCompaction`).
 */
export async function runChat({ session, model, io, intro }: RunChatOptions): Promise<void> {
  const indicator = createActivityIndicator(io.stderr);
  const say = (lines: string[]): void => {
    indicator.stop();
    if (lines.length > 0) io.stdout.write(`${lines.join('\n')}\n`);
  };
  const fail = (error: unknown): void => {
    indicator.stop();
    io.stderr.write(`error: ${oneLine(error)}; your message stays in the history: send another, or /quit\n`);
  };
  const interactive = io.stdin.isTTY === true;
  const prompt = (): void => {
    if (interactive) io.stdout.write('> ');
  };
  const used = { inputTokens: 0, outputTokens: 0, calls: 0 };
  let turn = 0;
  let compactionEvents: CompactionEvent[] = [];
  session.on((event) => {
    if (event.type === 'compaction:start') indicator.start('compacting the conversation');
    else if (event.type === 'compaction:end' || event.type === 'compaction:error') compactionEvents.push(event);
  });
  /** Says what the compaction events since the last call said, in one line; true when there were any. */
  async function reportCompaction(): Promise<boolean> {
    if (compactionEvents.length === 0) return false;
    const events = compactionEvents;
    compactionEvents = [];
    say(describeCompaction(events, (await session.stats()).triggerTokens));
    return true;
  }
  async function ask(context: Parameters<ChatModel['reply']>[0]): ReturnType<ChatModel['reply']> {
    indicator.start(`waiting for ${model.description}`);
    try {
      return await model.reply(context);
    } finally {
      indicator.stop();
    }
  }

  async function exchange(text: string): Promise<void> {
    turn += 1;
    await session.append({ id: `user-${turn}`, role: 'user', parts: [{ type: 'text', text }] });
    let prepared = await session.prepare();
    await reportCompaction();
    let answer: Awaited<ReturnType<ChatModel['reply']>>;
    try {
      answer = await ask(prepared.messages);
    } catch (error) {
      if (!(await session.recoverFromOverflow(error))) return fail(error);
      say(['The model said the context was too long: compacted, retrying once.']);
      await reportCompaction();
      try {
        prepared = await session.prepare();
        await reportCompaction();
        answer = await ask(prepared.messages);
      } catch (retryError) {
        return fail(retryError);
      }
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
        if (!(await reportCompaction()) && !result) say(['Nothing was compacted.']);
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
