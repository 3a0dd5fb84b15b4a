import { parseClaudeCodeSession } from '@compaction/claude-code-import';
import { describe, expect, it } from 'vitest';
import { claudeCodeFixture } from '../../../test/fixtures.js';
import type { Message } from '../../messages/types.js';
import { tiktokenCounter } from '../../tokens/tiktoken-counter.js';
import { extractFileOperations } from '../file-operations/extract-file-operations.js';
import { genuineRequestText } from '../framing/harness-text.js';
import { COMPACT_STRUCTURED_BUDGET, DEFAULT_STRUCTURED_BUDGET } from './build-structured-summary.js';
import { structuredSummarizer } from './structured-summarizer.js';

/** The two long recorded sessions; each hit Claude Code's own compaction once. */
const LONG_SESSIONS = ['258c7280-ae70-4798-800f-63464d01a85d.jsonl', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'];
const counter = tiktokenCounter();

/** Paths of Claude Code's Read / Edit / Write calls, read straight from the call inputs. */
function fileToolPaths(messages: readonly Message[]): string[] {
  const paths = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call' || !['Read', 'Edit', 'Write'].includes(part.toolName)) continue;
      const path = (part.input as { file_path?: unknown }).file_path;
      if (typeof path === 'string') paths.add(path);
    }
  }
  return [...paths];
}

/**
 * Every genuine user request's text, whitespace collapsed: injected `synthetic` text and
 * harness-injected text (`<task-notification>`, "[Request interrupted by user…]") excluded.
 */
function userRequests(messages: readonly Message[]): string[] {
  return messages
    .map((message) => genuineRequestText(message)?.replace(/\s+/g, ' ').trim())
    .filter((text): text is string => text !== undefined && text.length > 0);
}

describe.each(LONG_SESSIONS)('structured summary of the span before compact_boundary in %s', (name) => {
  const session = parseClaudeCodeSession(claudeCodeFixture(name));
  const boundaries = session.compactions;
  const spans = boundaries.map((boundary) => session.messages.slice(0, boundary.messageIndex));

  it('has a compaction boundary with file tool calls and user requests before it', () => {
    expect(boundaries.length).toBeGreaterThan(0);
    for (const span of spans) {
      expect(fileToolPaths(span).length).toBeGreaterThan(10);
      expect(userRequests(span).length).toBeGreaterThan(0);
    }
  });

  it.each([DEFAULT_STRUCTURED_BUDGET, COMPACT_STRUCTURED_BUDGET])(
    'keeps every Read/Edit/Write path and every user request within %i tokens',
    async (maxTokens) => {
      for (const span of spans) {
        const summary = await structuredSummarizer({ maxTokens }).summarize({
          kind: 'history',
          messages: span,
          fileOps: extractFileOperations(span),
          replacedTokens: Number.POSITIVE_INFINITY,
          counter,
        });
        const missingPaths = fileToolPaths(span).filter((path) => !summary.includes(`\n${path}\n`));
        const missingRequests = userRequests(span).filter((text) => !summary.includes(text.slice(0, 60)));
        expect(missingPaths).toEqual([]);
        expect(missingRequests).toEqual([]);
        expect(counter.countText(summary)).toBeLessThanOrEqual(maxTokens);
      }
    },
  );
});

describe('structured summary of a small recorded session', () => {
  it('tool_heavy.jsonl: the summary a continuing agent gets, at the compact budget', async () => {
    const session = parseClaudeCodeSession(claudeCodeFixture('tool_heavy.jsonl'));
    const summary = await structuredSummarizer({ maxTokens: COMPACT_STRUCTURED_BUDGET }).summarize({
      kind: 'history',
      messages: session.messages,
      fileOps: extractFileOperations(session.messages),
      replacedTokens: Number.POSITIVE_INFINITY,
      counter,
    });
    expect(counter.countText(summary)).toBeLessThanOrEqual(COMPACT_STRUCTURED_BUDGET);
    expect(summary).toMatchInlineSnapshot(`
      "## Goal
      start phoenix in background

      ## Constraints & Preferences
      - (none stated; the user's requests, in their words, are under Critical Context)

      ## Progress
      ### Done
      - Messages summarized so far: 17 (17 in this update)
      - Tools used: Bash ×2, Glob ×1, Read ×1, WebFetch ×1, WebSearch ×1

      ### In Progress
      - Last assistant message: Phoenix server is starting in the background. Let me check the MCP servers status.

      ### Blocked
      - (nothing recorded)

      ## Key Decisions
      - (none recorded)

      ## Next Steps
      1. Last stated intent: Let me check the MCP servers status.

      ## Critical Context
      ### User Requests
      1. start phoenix in background
      2. scrolling back in xterm.js still does not work (maybe because outer web catches it)? websearch xterm.js tmux interactions

      ### Commands Run
      - \`mix phx.server\` — Start Phoenix server in background → ok
      - \`tail -5 /tmp/claude-1000/-home-marco-projects-spotter/tasks/bae407b.output\` — Check Phoenix startup output → ok

      ### Harness Notices
      - harness notice (quoted data): "[Request interrupted by user]"
      - harness notice (quoted data): "<command-name>/mcp</command-name> <command-message>mcp</command-message> <command-args></command-args>"
      - harness notice (quoted data): "<local-command-stdout>Reconnected to tidewave.</local-command-stdout>"
      - harness notice (quoted data): "[Request interrupted by user]"

      <read-files>
      /home/marco/projects/spotter/assets/js/app.js
      </read-files>
      <modified-files>
      </modified-files>

      Last request from user was: scrolling back in xterm.js still does not work (maybe because outer web catches it)? websearch xterm.js tmux interactions"
    `);
  });

  it('subagent.jsonl: a session with a plan and a sub-agent, at the compact budget', async () => {
    const session = parseClaudeCodeSession(claudeCodeFixture('subagent.jsonl'));
    const summary = await structuredSummarizer({ maxTokens: COMPACT_STRUCTURED_BUDGET }).summarize({
      kind: 'history',
      messages: session.messages,
      fileOps: extractFileOperations(session.messages),
      replacedTokens: Number.POSITIVE_INFINITY,
      counter,
    });
    expect(counter.countText(summary)).toBeLessThanOrEqual(COMPACT_STRUCTURED_BUDGET);
    expect(summary).toMatchInlineSnapshot(`
      "## Goal
      create the beads

      ## Constraints & Preferences
      - (none stated; the user's requests, in their words, are under Critical Context)

      ## Progress
      ### Done
      - Messages summarized so far: 32 (32 in this update)
      - Tools used: WebSearch ×5, Bash ×4, AskUserQuestion ×1, ExitPlanMode ×1, Glob ×1, Read ×1, Task ×1, WebFetch ×1, Write ×1
      - Wrote \`plan.md\`: adds mix_audit, igniter.install, deps.audit, credo.exs, CI/CD, mix.exs, mix.lock, gen.config
        - also ash.setup, --quiet
        - \`defp aliases() do\`
        - \`test: ["ash.setup --quiet", "test"],\`

      ### In Progress
      - Last assistant message: ## Beads Created Epic \`spotter-0p7\`: Setup Code Quality Tools (Credo, Dialyxir, mix_audit) | Bead ID | Task | Depends On | |---------|------|-----------| | spotter-0p7.1 | Install quality tools and configure Credo | — | | spotter-0p7.2 | Add mix quality alias | spotter-0p7.1 | Run \`bd ready\` to see…

      ### Blocked
      - (nothing recorded)

      ## Key Decisions
      - Assistant: I'll research the setup options and then draft beads for you.
      - Assistant: Let me check the current project state and whether any of these are already configured.
      - Assistant: Let me check if any of these packages have Igniter installers.
      - Assistant: Before drafting beads, I need to clarify:
      - Assistant: Now let me draft the beads.
      - Assistant: Let me write the plan for your approval.

      ## Next Steps
      1. (continue with the last user request, quoted at the end)

      ## Critical Context
      ### User Requests
      1. create the beads
      - Paths are relative to \`/home/marco/projects/spotter/\`

      ### Commands Run
      - \`bd create --title="Setup Code Quality Tools (Credo, Dialyxir, mix_audit)" --type=epic --priority=2 --description="## Problem Spotter has no automated code quali…\` → ok
      - \`bd create --title="Install quality tools and configure Credo" --type=task --priority=2 --parent=spotter-0p7 --description="Install Credo, Dialyxir, and mix_audi…\` → ok
      - \`bd create --title="Add mix quality alias" --type=task --priority=2 --parent=spotter-0p7 --description="Add a mix quality alias to mix.exs that runs all three qu…\` → ok
      - \`bd dep add spotter-0p7.2 spotter-0p7.1\` → ok

      ### Harness Notices
      - harness notice (quoted data): "<command-message>handgemacht:create-beads</command-message> <command-name>/handgemacht:create-beads</command-name> <command-args>websearch to learn how to fastest setup credo, dialyzer, mix_audit (bas…"
      - harness notice (quoted data): "[Request interrupted by user]"

      <read-files>
      /home/marco/projects/spotter/mix.exs
      </read-files>
      <modified-files>
      /home/marco/projects/spotter/plan.md
      </modified-files>

      Last request from user was: create the beads"
    `);
  });
});
