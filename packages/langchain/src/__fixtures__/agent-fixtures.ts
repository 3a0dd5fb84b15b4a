import {
  countMessageTokens,
  HISTORY_SUMMARY_HEADINGS,
  SUMMARIZATION_SYSTEM_PROMPT,
  SUMMARY_PREFIX,
  tiktokenCounter,
} from '@compaction/core';
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from 'langchain';
import { z } from 'zod';
import { toCoreMessages } from '../to-core-messages.js';

/**
 * The error a provider returns for a tool result without its call (OpenAI:
 * "No tool call found for function call output with call_id …"), or for a tool
 * call without its result; null when every call and result pair up.
 */
export function pairingError(messages: readonly BaseMessage[]): Error | null {
  const open = new Set<string>();
  const answered = new Set<string>();
  for (const message of messages) {
    if (AIMessage.isInstance(message)) for (const call of message.tool_calls ?? []) open.add(call.id ?? '');
    if (ToolMessage.isInstance(message)) {
      if (!open.has(message.tool_call_id)) {
        return new Error(`400 No tool call found for function call output with call_id ${message.tool_call_id}.`);
      }
      answered.add(message.tool_call_id);
    }
  }
  const unanswered = [...open].filter((id) => !answered.has(id));
  return unanswered.length > 0 ? new Error(`400 No tool output found for function call ${unanswered[0]}.`) : null;
}

/** Sentences for large, varied tool outputs and messages. */
export function prose(seed: number, sentences: number): string {
  const words = ['parser', 'token', 'buffer', 'schema', 'cache', 'router', 'config', 'stream', 'index', 'worker'];
  const lines: string[] = [];
  for (let index = 0; index < sentences; index += 1) {
    const a = words[(seed + index) % words.length];
    const b = words[(seed * 7 + index * 3) % words.length];
    lines.push(`Line ${index} of ${seed}: the ${a} updates the ${b} when request ${seed * 100 + index} arrives.`);
  }
  return lines.join('\n');
}

/** A tool that returns a large file body (~ 25 sentences, about 450 tokens). */
export const readFile = tool(async ({ path }: { path: string }) => `// ${path}\n${prose(path.length * 13, 25)}`, {
  name: 'read_file',
  description: 'Read a file',
  schema: z.object({ path: z.string() }),
});

/** A scripted tool-call turn that fails like a provider when the context it gets is not paired. */
export function toolStep(calls: { name: string; args: Record<string, unknown>; id: string }[], content = '') {
  return (messages: BaseMessage[]) =>
    pairingError(messages) ??
    new AIMessage({ content, tool_calls: calls.map((call) => ({ ...call, type: 'tool_call' as const })) });
}

/** A scripted final answer that fails like a provider when the context it gets is not paired. */
export function answer(text: string) {
  return (messages: BaseMessage[]) => pairingError(messages) ?? new AIMessage(text);
}

/** A summary in the format core's quality gate accepts. */
export function validSummary(note: string): string {
  return HISTORY_SUMMARY_HEADINGS.map((heading) => `## ${heading}\n- ${note}`).join('\n\n');
}

/** Whether a model call is a summary request of core's LLM summarizer. */
export function isSummaryCall(messages: readonly BaseMessage[]): boolean {
  const first = messages[0];
  return first !== undefined && SystemMessage.isInstance(first) && first.text === SUMMARIZATION_SYSTEM_PROMPT;
}

/** Whether a LangChain message is core's summary. */
export function isSummaryMessage(message: BaseMessage): boolean {
  return message.type === 'human' && message.text.startsWith(SUMMARY_PREFIX);
}

const counter = tiktokenCounter();

/** Core's token count of what a model call was sent (system prompt excluded). */
export function sentTokens(messages: readonly BaseMessage[]): number {
  const conversation = messages.filter((message) => message.type !== 'system');
  return toCoreMessages(conversation).reduce((sum, message) => sum + countMessageTokens(message, counter), 0);
}

/** The messages of a model call without the system prompt. */
export function withoutSystem(messages: readonly BaseMessage[]): BaseMessage[] {
  return messages.filter((message) => message.type !== 'system');
}

/** A finished conversation: `turns` user turns, each with one file read and an answer (~600 tokens a turn). */
export function pastConversation(turns: number, prefix = 'past'): BaseMessage[] {
  const messages: BaseMessage[] = [];
  for (let turn = 0; turn < turns; turn += 1) {
    const callId = `${prefix}_call_${turn}`;
    messages.push(
      new HumanMessage({ id: `${prefix}_user_${turn}`, content: `Please look at module ${turn}.` }),
      new AIMessage({
        id: `${prefix}_ai_${turn}`,
        content: prose(turn, 4),
        tool_calls: [{ id: callId, name: 'read_file', args: { path: `src/m${turn}.ts` }, type: 'tool_call' }],
      }),
      new ToolMessage({ id: `${prefix}_tool_${turn}`, tool_call_id: callId, name: 'read_file', content: prose(turn + 50, 20) }),
      new AIMessage({ id: `${prefix}_answer_${turn}`, content: prose(turn + 90, 3) }),
    );
  }
  return messages;
}

/** The error OpenAI returns when the prompt does not fit. */
export function overflowError(): Error {
  return Object.assign(
    new Error("This model's maximum context length is 8000 tokens. However, your messages resulted in 9120 tokens."),
    { status: 400, code: 'context_length_exceeded' },
  );
}
