import { isTurnStart, messageText } from '../../messages/message-helpers.js';
import type { Message, ToolCallPart } from '../../messages/types.js';
import { DEFAULT_FILE_TOOL_MAP, type FileToolPaths, inputFilePaths } from '../file-operations/default-file-tool-map.js';
import { genuineRequestText } from '../framing/harness-text.js';
import { isErrorOutput, toolOutputText } from '../framing/tool-output-text.js';
import { codeIdentifiers } from './code-identifiers.js';
import { commandHead, commandOf, commandOutcome, isCheckCommand } from './command-facts.js';
import { constraintSentences } from './constraint-sentences.js';
import { fileChangesOf } from './file-change-facts.js';
import { intentSentences } from './intent-sentences.js';
import {
  type CommandFact,
  dedupeErrors,
  emptySummaryFacts,
  type FileChangeFact,
  oneLine,
  type SummaryFacts,
} from './summary-facts.js';
import { todosOf } from './todo-facts.js';

type Call = { part: ToolCallPart; at: number; paths: FileToolPaths; applied: boolean };

/**
 * The facts of a span of messages, in one pass: the genuine user requests (see
 * `genuineRequestText`: core's own messages, `synthetic` text and harness-injected text are
 * not requests), the last one verbatim; per modified file what changed (names and definition
 * lines its new text brought in, from the inputs of `Edit`/`Write`/patch calls that
 * succeeded); each command with the outcome of its latest run and, for a failed build or
 * test, the failing names; failed tool calls and whether a later call of the same tool on the
 * same subject succeeded; the assistant's statements of intent and decision; the latest todo
 * list. File operations are left empty: the summarizer takes them from the request.
 */
export function collectSummaryFacts(messages: readonly Message[]): SummaryFacts {
  const facts = emptySummaryFacts();
  const calls = new Map<string, Call>();
  const files = new Map<string, FileChangeFact>();
  const commands = new Map<string, CommandFact>();
  const lastSuccess = new Map<string, number>();
  const errors: { tool: string; subject?: string; text: string; at: number }[] = [];
  const last = Math.max(1, messages.length - 1);
  const answered = new Set<string>();
  /** Names each file held when last read or written, so a rewrite lists only what is new. */
  const known = new Map<string, Set<string>>();
  let resultIndex = 0;
  for (const [index, message] of messages.entries()) {
    if (message.metadata?.compaction) continue;
    facts.spanMessages += 1;
    facts.summarizedMessages += 1;
    const at = index / last;
    for (const part of message.parts) {
      if (part.type === 'tool-call') {
        calls.set(part.toolCallId, { part, at, paths: filePaths(part), applied: false });
        facts.toolCounts.set(part.toolName, (facts.toolCounts.get(part.toolName) ?? 0) + 1);
        const todos = todosOf(part.input);
        if (todos) facts.todos = todos;
      }
      if (part.type !== 'tool-result') continue;
      resultIndex += 1;
      answered.add(part.toolCallId);
      const call = calls.get(part.toolCallId);
      const tool = part.toolName || call?.part.toolName || 'unknown tool';
      const text = toolOutputText(part.output);
      let failed = isErrorOutput(part);
      // A file tool's `command` (`str_replace`, `view`, `create` of an editor tool) is not a shell command.
      const fileTool = (call?.paths.read?.length ?? 0) + (call?.paths.modified?.length ?? 0) > 0;
      const command = call && !fileTool ? commandOf(call.part.input) : undefined;
      let errorText = oneLine(text);
      if (command) {
        const outcome = commandOutcome(text, failed);
        failed = !outcome.ok;
        if (outcome.output) errorText = outcome.output;
        const previous = commands.get(command.command);
        commands.delete(command.command);
        const lastFailure = outcome.ok ? previous?.lastFailure : (outcome.output ?? previous?.lastFailure);
        commands.set(command.command, {
          tool,
          command: command.command,
          ...(command.description ? { description: command.description } : {}),
          runs: (previous?.runs ?? 0) + 1,
          ok: outcome.ok,
          ...(outcome.exitCode !== undefined ? { exitCode: outcome.exitCode } : {}),
          isCheck: isCheckCommand(command.command),
          failing: outcome.failing,
          ...(outcome.output && !outcome.ok ? { output: outcome.output } : {}),
          failures: (previous?.failures ?? 0) + (outcome.ok ? 0 : 1),
          ...(lastFailure ? { lastFailure } : {}),
          at,
        });
      }
      const subject = command ? commandHead(command.command) : (call?.paths.modified?.[0] ?? call?.paths.read?.[0]);
      const key = `${tool}\u0000${subject ?? ''}`;
      if (failed) {
        errors.push({ tool, ...(subject ? { subject } : {}), text: errorText, at: resultIndex });
        continue;
      }
      lastSuccess.set(key, resultIndex);
      facts.succeededTools.add(tool);
      if (!call) continue;
      const readPath = call.paths.read?.length === 1 ? call.paths.read[0] : undefined;
      if (readPath !== undefined && !command) known.set(readPath, new Set(codeIdentifiers(text)));
      applyFileChange(call, at, files, known);
    }
    if (message.role === 'user') {
      const request = genuineRequestText(message);
      if (request !== undefined) {
        facts.requests.push(oneLine(request));
        facts.lastRequest = request;
        for (const sentence of constraintSentences(request)) facts.constraints.push({ text: sentence, at });
      } else if (isTurnStart(message) && message.metadata?.synthetic !== true) {
        // Harness-injected text (a background task's notice, a reminder): context, not a request.
        const notice = oneLine(messageText(message));
        if (notice) facts.notices.push({ text: notice, at });
      }
    } else if (message.role === 'assistant') {
      const text = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
      const intents = intentSentences(text);
      for (const sentence of intents) facts.intents.push({ text: sentence, at });
      if (text.trim()) {
        facts.statements.push(oneLine(text));
        facts.lastStatement = { text: oneLine(text), at, hasIntent: intents.length > 0 };
      }
    }
    if (message.role === 'user' || message.role === 'assistant') {
      for (const part of message.parts) {
        if (part.type === 'text') for (const name of codeIdentifiers(part.text)) facts.mentioned.add(name);
      }
    }
  }
  for (const call of calls.values()) {
    // A call whose result is outside the span (cut off, or still running) counts as made.
    if (!call.applied && !answered.has(call.part.toolCallId)) applyFileChange(call, call.at, files, known);
  }
  facts.goal = facts.requests[0];
  facts.succeededSubjects = new Set(lastSuccess.keys());
  facts.files = [...files.values()];
  facts.commands = [...commands.values()];
  facts.errors = dedupeErrors(
    errors.map(({ tool, subject, text, at }) => ({
      tool,
      ...(subject ? { subject } : {}),
      text,
      resolved: (lastSuccess.get(`${tool}\u0000${subject ?? ''}`) ?? 0) > at,
    })),
  );
  return facts;
}

function applyFileChange(
  call: Call,
  at: number,
  files: Map<string, FileChangeFact>,
  known: Map<string, Set<string>>,
): void {
  call.applied = true;
  const modified = call.paths.modified ?? [];
  if (modified.length === 0) return;
  for (const change of fileChangesOf(call.part.input, modified, (path) => known.get(path))) {
    const names = known.get(change.path) ?? new Set<string>();
    for (const name of change.added) names.add(name);
    known.set(change.path, names);
    const previous = files.get(change.path);
    files.delete(change.path);
    files.set(change.path, {
      path: change.path,
      created: change.created || (previous?.created ?? false),
      changes: (previous?.changes ?? 0) + 1,
      added: [...new Set([...change.added, ...(previous?.added ?? [])])],
      definitions: [...new Set([...change.definitions, ...(previous?.definitions ?? [])])],
      at,
    });
  }
}

/** The files a call reads and modifies, by {@link DEFAULT_FILE_TOOL_MAP}. */
function filePaths(part: ToolCallPart): FileToolPaths {
  const rule = DEFAULT_FILE_TOOL_MAP[part.toolName.toLowerCase()];
  if (!rule) return {};
  if (rule === 'read') return { read: inputFilePaths(part.input) };
  if (rule === 'modified') return { modified: inputFilePaths(part.input) };
  return rule(part.input);
}
