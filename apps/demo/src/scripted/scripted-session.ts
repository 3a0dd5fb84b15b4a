import type { CompactionSettings, Message, Part } from '@compaction/core';
import { syntheticSource } from './synthetic-source.js';

/** A tool call of the script: its tool, input and the output the tool returns. */
type ScriptedTool = { tool: string; input: Record<string, unknown>; output: string };
/** One model call of a turn: what the assistant says and the tools it calls. */
type ScriptedStep = { say: string; tools?: ScriptedTool[] };
type ScriptedTurn = { user: string; steps: ScriptedStep[] };

const read = (path: string, lines: number): ScriptedTool => ({
  tool: 'Read',
  input: { file_path: path },
  output: syntheticSource(path, lines),
});
const bash = (command: string, output: string): ScriptedTool => ({ tool: 'Bash', input: { command }, output });
const edit = (path: string, lines: number): ScriptedTool => ({
  tool: 'Edit',
  input: {
    file_path: path,
    old_string: syntheticSource(`${path}#old`, 4),
    new_string: syntheticSource(`${path}#new`, lines),
  },
  output: `The file ${path} has been updated.`,
});

/** Seed 000's session: files read early, then writing and testing; the history only grows. */
const TURNS: ScriptedTurn[] = [
  {
    user: 'Coop re-sends the entire conversation on every provider call. Find where the gateway builds the message list.',
    steps: [
      {
        say: 'Let me read the gateway and the session store.',
        tools: [read('crates/coop-gateway/src/gateway.rs', 320), read('crates/coop-gateway/src/session_store.rs', 160)],
      },
      {
        say: 'Searching for every caller of messages().',
        tools: [
          bash(
            'rg -n "self.messages" crates/',
            'gateway.rs:212: let messages = self.messages(session_key);\ngateway.rs:388: let all = self.messages(key);',
          ),
        ],
      },
      {
        say: '`run_turn_with_trust` calls `self.messages(session_key)`, which returns the complete history, on every iteration of the tool loop.',
      },
    ],
  },
  {
    user: 'How large do the sessions get? Check the trace in bug.jsonl.',
    steps: [
      { say: 'Reading the trace.', tools: [read('traces/bug.jsonl', 60)] },
      { say: 'Nine turns, 4.25M input tokens: the baseline grows from 20K to 90K tokens per call.' },
    ],
  },
  {
    user: 'Read the provider, prompt, types and message modules so we know how tokens are counted.',
    steps: [
      {
        say: 'Reading the four core modules.',
        tools: [read('crates/coop-core/src/provider.rs', 330), read('crates/coop-core/src/prompt.rs', 260)],
      },
      {
        say: 'And the types.',
        tools: [read('crates/coop-core/src/types.rs', 300), read('crates/coop-core/src/message.rs', 300)],
      },
      { say: '`count_tokens` estimates chars/4; `Usage.input_tokens` holds the exact figure from the provider.' },
    ],
  },
  {
    user: 'Write crates/coop-gateway/src/compaction.rs: cut point, serialization, summary prompt, compact().',
    steps: [
      { say: 'Writing the module.', tools: [edit('crates/coop-gateway/src/compaction.rs', 180)] },
      {
        say: 'Building.',
        tools: [
          bash(
            'cargo build -p coop-gateway',
            `error[E0425]: cannot find function \`count_tokens\` in this scope\n${syntheticSource('build-error', 30)}`,
          ),
        ],
      },
      { say: 'Importing count_tokens.', tools: [edit('crates/coop-gateway/src/compaction.rs', 6)] },
      {
        say: 'Building again.',
        tools: [bash('cargo build -p coop-gateway', 'Finished dev [unoptimized + debuginfo] target(s) in 41.2s')],
      },
      { say: 'compaction.rs compiles: find_cut_point, serialize_for_summary, the two prompts and compact().' },
    ],
  },
  {
    user: 'Add compaction_store.rs and wire it into the gateway.',
    steps: [
      { say: 'Writing the store.', tools: [edit('crates/coop-gateway/src/compaction_store.rs', 220)] },
      { say: 'Wiring it into run_turn_with_trust.', tools: [edit('crates/coop-gateway/src/gateway.rs', 200)] },
      { say: 'The gateway now checks should_compact before each turn and builds the context from the stored state.' },
    ],
  },
  {
    user: 'Run the tests.',
    steps: [
      {
        say: 'Running the gateway tests.',
        tools: [
          bash(
            'cargo test -p coop-gateway',
            `test compaction::cut_point_never_splits_tool_result ... FAILED\n${syntheticSource('test-output', 60)}`,
          ),
        ],
      },
      {
        say: 'The cut point walks past a ToolResult; fixing.',
        tools: [edit('crates/coop-gateway/src/compaction.rs', 12)],
      },
      { say: 'Running again.', tools: [bash('cargo test -p coop-gateway', 'test result: ok. 12 passed; 0 failed')] },
      { say: 'All 12 compaction tests pass.' },
    ],
  },
  {
    user: 'Add tracing spans for compaction.',
    steps: [
      {
        say: 'Adding the spans.',
        tools: [edit('crates/coop-gateway/src/compaction.rs', 120), edit('crates/coop-gateway/src/gateway.rs', 60)],
      },
      { say: 'Checking it builds.', tools: [bash('cargo build', 'Finished dev target(s) in 12.0s')] },
      { say: 'The compaction span records messages_to_summarize, cut_index and tokens_before.' },
    ],
  },
  {
    user: 'Run a long session with COOP_TRACE_FILE and check that input tokens stay bounded.',
    steps: [
      { say: 'Reading the new trace.', tools: [read('traces/traces.jsonl', 260)] },
      { say: 'input_tokens stays near 22K after the first compaction instead of growing.' },
    ],
  },
  {
    user: 'Summarize the change for the pull request.',
    steps: [
      { say: 'Added LLM-based compaction: compaction.rs, compaction_store.rs, gateway wiring, tests and tracing.' },
    ],
  },
];

const SYSTEM_PROMPT = `You are Coop, a coding agent. Work in small steps, read before you edit, run the tests after every change.\n${syntheticSource('system-prompt', 40)}`;

/** Settings that make the scripted session compact: a 40K trigger, 20K kept (seed 000's figures). */
export const SCRIPTED_SETTINGS: Partial<CompactionSettings> = Object.freeze({
  contextWindow: 128_000,
  trigger: 40_000,
  keepRecentTokens: 20_000,
});

/**
 * The scripted long coding session of the demo, shaped like seed 000's trace: a pinned
 * system prompt, nine turns, files read early, the context growing turn by turn (to
 * ~130K tokens uncompacted), big edits late (tool-call inputs no pruning clears). Every assistant message is one model call.
 */
export function scriptedCodingSession(): Message[] {
  const messages: Message[] = [{ id: 'system', role: 'system', parts: [{ type: 'text', text: SYSTEM_PROMPT }] }];
  let callId = 0;
  for (const [turnIndex, turn] of TURNS.entries()) {
    const turnNumber = turnIndex + 1;
    messages.push({ id: `t${turnNumber}-user`, role: 'user', parts: [{ type: 'text', text: turn.user }] });
    for (const [stepIndex, step] of turn.steps.entries()) {
      const calls = (step.tools ?? []).map((tool) => ({ ...tool, toolCallId: `call-${++callId}` }));
      const parts: Part[] = [{ type: 'text', text: step.say }];
      for (const call of calls)
        parts.push({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.tool, input: call.input });
      messages.push({ id: `t${turnNumber}-a${stepIndex + 1}`, role: 'assistant', parts });
      if (calls.length === 0) continue;
      messages.push({
        id: `t${turnNumber}-r${stepIndex + 1}`,
        role: 'tool',
        parts: calls.map((call) => ({
          type: 'tool-result',
          toolCallId: call.toolCallId,
          toolName: call.tool,
          output: call.output,
        })),
      });
    }
  }
  return messages;
}
