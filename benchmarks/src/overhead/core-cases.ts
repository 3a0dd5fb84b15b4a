import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { measure } from '@compaction/bench-kit/measure';
import { appendedMessage } from '@compaction/bench-kit/synthetic-history';
import {
  type CompactionEvent,
  type CompactionSession,
  createCompactionSession,
  type SessionStore,
  type TokenCounter,
  tiktokenCounter,
} from '@compaction/core';
import { type BenchCase, type CaseInput, compactAfter, expectCompaction, NO_COMPACTION } from './bench-case.ts';
import {
  closeRestartStore,
  firstCallAfterRestart,
  leaveConversation,
  openRestartStore,
  restartSession,
} from './restart-work.ts';

async function warmSession(input: CaseInput, counter?: TokenCounter): Promise<CompactionSession> {
  const session = createCompactionSession({
    sessionId: 'bench',
    settings: NO_COMPACTION,
    ...(counter ? { counter } : {}),
  });
  await session.append(input.history);
  await session.prepare();
  return session;
}

/** A session that compacted once and is warm: its per-call cost with a compaction state. */
async function compactedSession(input: CaseInput): Promise<{ session: CompactionSession; strategy: string }> {
  let strategy = '';
  const session = createCompactionSession({
    sessionId: 'bench',
    settings: compactAfter(input.tokens),
    onEvent: (event) => {
      if (event.type === 'compaction:end') strategy = event.strategy;
    },
  });
  await session.append(input.history);
  await session.prepare();
  await session.append(appendedMessage(input.history.length));
  expectCompaction((await session.prepare()).compaction !== undefined, true, 'core setup');
  return { session, strategy };
}

function appendAndPrepare(session: CompactionSession, start: number, expectCompacted = false) {
  let next = start;
  return {
    next: () => next,
    call: async () => {
      await session.append(appendedMessage(next++));
      expectCompaction((await session.prepare()).compaction !== undefined, expectCompacted, 'core prepare');
    },
  };
}

/**
 * The first call of a new process over a stored conversation: a new store (no
 * memory of the session) and a new session (an empty token cache) over the
 * files a previous process left, with the usage record its last call saved.
 */
function restartCase(kind: 'file' | 'sqlite'): BenchCase {
  const label = kind === 'file' ? '`fileStore`' : '`sqliteStore`';
  return {
    id: kind === 'file' ? 'core-restart' : 'core-restart-sqlite',
    label: `core: first \`prepare()\` + \`recordUsage()\` after a restart, ${label}`,
    framework: 'core',
    kind: kind === 'file' ? 'ours' : 'variant',
    ...(kind === 'file' ? {} : { baseline: 'core-restart' }),
    scenario: 'per-call',
    cost: 'slow',
    note:
      `a new ${label} and a new session with an empty token cache, in the bench's own process (as after a restart), over a conversation the store holds, ` +
      'with the usage record its last call left: loads the history, decides without recounting it, records the next usage',
    async run(input) {
      const dir = mkdtempSync(join(tmpdir(), 'compaction-bench-restart-'));
      let current: SessionStore | undefined;
      const open = (): SessionStore => {
        // The process before exited: its database connection is closed.
        closeRestartStore(current);
        current = openRestartStore(kind, dir);
        return current;
      };
      try {
        await leaveConversation(open(), input.history);
        let session: CompactionSession | undefined;
        const stats = await measure(this.id, () => firstCallAfterRestart(session!, input.history.length), {
          ...input,
          beforeEach: () => {
            // A new process: its own store and session, and an empty token cache.
            session = restartSession(open());
          },
        });
        return { stats, messagesAtEnd: input.history.length };
      } finally {
        closeRestartStore(current);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

const CHILD = fileURLToPath(new URL('./restart-in-new-process.ts', import.meta.url));
const run = promisify(execFile);

/**
 * The restart of {@link restartCase} in a real new Node process per sample: the same work
 * timed (first `prepare()` + `recordUsage()`, store and session made untimed before it), with
 * no code compiled yet and a fresh heap — what a deploy or a crash gives. The process's start
 * and its module loading are not timed.
 */
function restartInNewProcessCase(kind: 'file' | 'sqlite'): BenchCase {
  const label = kind === 'file' ? '`fileStore`' : '`sqliteStore`';
  return {
    id: kind === 'file' ? 'core-restart-process' : 'core-restart-process-sqlite',
    label: `core: first \`prepare()\` + \`recordUsage()\` in a new Node process, ${label}`,
    framework: 'core',
    kind: 'variant',
    baseline: kind === 'file' ? 'core-restart' : 'core-restart-sqlite',
    scenario: 'per-call',
    cost: 'slow',
    note:
      `as the restart row above, each sample a new Node process over the ${label} a previous one left ` +
      '(nothing compiled, a fresh heap); the process start and module loading are not timed',
    async run(input) {
      const dir = mkdtempSync(join(tmpdir(), 'compaction-bench-restart-process-'));
      try {
        const store = openRestartStore(kind, dir);
        await leaveConversation(store, input.history);
        closeRestartStore(store);
        const stats = await measure(
          this.id,
          async () => {
            const { stdout } = await run(process.execPath, [CHILD, kind, dir, String(input.history.length)]);
            return { overriddenDuration: (JSON.parse(stdout) as { ms: number }).ms };
          },
          input,
        );
        return { stats, messagesAtEnd: input.history.length };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Where a near-trigger case keeps its history: 85 % of the trigger, above the 80 % under which a call counts nothing. */
const NEAR_TRIGGER_SHARE = 0.85;
/** Tokens a new message of `appendedMessage` takes at most, for the room a near-trigger session has left. */
const APPENDED_TOKENS_AT_MOST = 400;

/**
 * `append` + `prepare()` near the trigger, where every call counts its new message exactly
 * (the far-below calls of the `core` row leave counting to the decision that needs it): the
 * history sits at 85 % of the trigger. A session that would reach the trigger within the next
 * call is replaced (untimed) by a new warm one over the same history, so no sample compacts.
 */
function nearTriggerCase(counterName?: 'tiktoken'): BenchCase {
  return {
    id: counterName ? 'core-tiktoken' : 'core-near-trigger',
    label: counterName
      ? 'core `append` + `prepare()` near the trigger, tiktoken counter'
      : 'core `append` + `prepare()` near the trigger',
    framework: 'core',
    kind: counterName ? 'variant' : 'ours',
    ...(counterName ? { baseline: 'core-near-trigger' } : {}),
    scenario: 'per-call',
    cost: 'fast',
    note: counterName
      ? 'as the near-trigger row, with `tiktokenCounter()` (same counts, WASM) instead of the default gpt-tokenizer counter'
      : 'the history at 85 % of the trigger: each call counts its new ~250-token message exactly (gpt-tokenizer), as every call does from 80 % of the trigger on; a session about to reach the trigger is replaced untimed',
    async run(input) {
      const trigger = Math.ceil(input.tokens / NEAR_TRIGGER_SHARE);
      const settings = { ...compactAfter(trigger - 100), trigger };
      const counter = counterName ? tiktokenCounter() : undefined;
      const fresh = async () => {
        const session = createCompactionSession({ sessionId: 'bench', settings, ...(counter ? { counter } : {}) });
        await session.append(input.history);
        expectCompaction((await session.prepare()).compaction !== undefined, false, 'core near trigger setup');
        return session;
      };
      let session = await fresh();
      let calls = appendAndPrepare(session, input.history.length);
      let room = trigger - input.tokens;
      const stats = await measure(this.id, () => calls.call(), {
        ...input,
        beforeEach: async () => {
          room -= APPENDED_TOKENS_AT_MOST;
          if (room >= APPENDED_TOKENS_AT_MOST) return;
          session = await fresh();
          calls = appendAndPrepare(session, input.history.length);
          room = trigger - input.tokens - APPENDED_TOKENS_AT_MOST;
        },
      });
      return { stats, messagesAtEnd: calls.next() };
    },
  };
}

/** Calls far below the trigger, each with a usage report, before each timed branch switch of `core-branch-switch`. */
const LAGGING_CALLS = 20;

/**
 * A rewind after calls far below the trigger (issue 16, session 9): those calls left their
 * messages uncounted, and the switch counts that stretch from the old branch to learn its
 * ratio before the branch goes. A rewind drops the stretch, so no later call would count it:
 * the row shows that count at its full cost, beside the switch's own work (the new branch
 * parsed and made the history, its first call's count from the token cache). Untimed before
 * each call: the report of the call before, then the stretch, each call with a report.
 */
function branchSwitchCase(): BenchCase {
  return {
    id: 'core-branch-switch',
    label: 'core: a rewind after calls far below the trigger',
    framework: 'core',
    kind: 'ours',
    scenario: 'per-call',
    cost: 'medium',
    note: `\`prepare({ messages })\` of a rewind (the last ${LAGGING_CALLS} messages dropped, one new one) after ${LAGGING_CALLS} calls far below the trigger, each appending a ~250-token message and reporting its usage: the switch counts that stretch (gpt-tokenizer) to learn its ratio before the old branch goes (since issue 16, session 9), then the new branch's first call counts its context from the token cache`,
    async run(input) {
      const session = createCompactionSession({ sessionId: 'bench', settings: NO_COMPACTION });
      const base = input.history.slice();
      let next = base.length;
      let last = await session.prepare({ messages: base });
      let reported = 0;
      const stats = await measure(
        this.id,
        async () => {
          last = await session.prepare({ messages: [...base, appendedMessage(next++)] });
          expectCompaction(last.compaction !== undefined, false, 'core branch switch');
        },
        {
          ...input,
          beforeEach: async () => {
            // The switch's call is exact: its report makes the record exact, and the stretch lags from there.
            reported = Math.round(last.tokens * 1.1);
            await session.recordUsage({ inputTokens: reported });
            let list = await session.history();
            for (let call = 0; call < LAGGING_CALLS; call += 1) {
              list = [...list, appendedMessage(next++)];
              await session.prepare({ messages: list });
              reported += 330;
              await session.recordUsage({ inputTokens: reported });
            }
          },
        },
      );
      return { stats, messagesAtEnd: base.length + 1 };
    },
  };
}

/** `@compaction/core` sessions: the engine every adapter runs on. */
export const coreCases: BenchCase[] = [
  {
    id: 'core',
    label: 'core `append` + `prepare()`',
    framework: 'core',
    kind: 'ours',
    scenario: 'per-call',
    cost: 'fast',
    note: 'appends one new ~250-token message and prepares (incremental); far below the trigger the new message is bounded by its size, not counted (since issue 16, session 8; before, it was counted here with gpt-tokenizer)',
    async run(input) {
      const session = await warmSession(input);
      const calls = appendAndPrepare(session, input.history.length);
      const stats = await measure(this.id, calls.call, input);
      return { stats, messagesAtEnd: calls.next() };
    },
  },
  {
    id: 'core-no-new',
    label: 'core `prepare()`, nothing new',
    framework: 'core',
    kind: 'ours',
    scenario: 'per-call',
    cost: 'fast',
    note: 'prepares again with no new message: the cost of the engine without any counting',
    async run(input) {
      const session = await warmSession(input);
      const stats = await measure(this.id, () => session.prepare(), input);
      return { stats, messagesAtEnd: input.history.length };
    },
  },
  nearTriggerCase(),
  nearTriggerCase('tiktoken'),
  {
    id: 'core-compaction',
    label: 'core: the call that compacts',
    framework: 'core',
    kind: 'ours',
    scenario: 'compaction',
    cost: 'one-off',
    note: 'a warm session just under the trigger gets one more message: `prepare()` compacts with the structured summarizer (no LLM)',
    async run(input) {
      let session: CompactionSession | undefined;
      let strategy = '';
      const onEvent = (event: CompactionEvent) => {
        if (event.type === 'compaction:end') strategy = event.strategy;
      };
      const stats = await measure(
        this.id,
        async () => {
          await session!.append(appendedMessage(input.history.length));
          expectCompaction((await session!.prepare()).compaction !== undefined, true, 'core compaction');
        },
        {
          ...input,
          beforeEach: async () => {
            session = createCompactionSession({ sessionId: 'bench', settings: compactAfter(input.tokens), onEvent });
            await session.append(input.history);
            await session.prepare();
          },
        },
      );
      return { stats, messagesAtEnd: input.history.length + 1, strategy };
    },
  },
  restartCase('file'),
  restartCase('sqlite'),
  restartInNewProcessCase('file'),
  restartInNewProcessCase('sqlite'),
  {
    id: 'core-after-compaction',
    label: 'core `append` + `prepare()` once compacted',
    framework: 'core',
    kind: 'ours',
    scenario: 'after-compaction',
    cost: 'fast',
    note: 'per call after a compaction: summary + kept messages, one new message each call',
    async run(input) {
      const { session, strategy } = await compactedSession(input);
      const calls = appendAndPrepare(session, input.history.length + 1);
      const stats = await measure(this.id, calls.call, input);
      return { stats, messagesAtEnd: calls.next(), strategy };
    },
  },
  branchSwitchCase(),
];
