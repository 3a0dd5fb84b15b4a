/** The help text. */
export const USAGE = `compaction-demo — runs @compaction on scripted and recorded agent sessions

Usage:
  compaction-demo demo [--fixtures <dir>] [--session <file>] [--out <file>] [--detail]
      A scripted long coding session through each adapter (one row each: compactions,
      largest context, input tokens, errors, calls above the trigger), a real Claude Code
      session replayed beside our compaction (a summary; --detail adds the per-turn and
      per-call tables), and an HTML report with the rest. Offline, under a minute.
  compaction-demo replay <file> [--adapter core|ai-sdk|langchain|langchain-memory|mastra] [--trigger N]
      [--keep N] [--window N] [--json] [--out <file>] [--no-report]
      Replays a recording (Claude Code JSONL or compaction-session JSON) and compares the
      context and cost per call. --json prints the figures as one JSON object.
  compaction-demo chat [--fixture <file>] [--trigger N] [--keep N] [--window N]
      An interactive session: /compact [focus], /stats, /history, /context, /quit.
      Talks to COMPACTION_DEMO_BASE_URL (with COMPACTION_DEMO_API_KEY, COMPACTION_DEMO_MODEL)
      when set; otherwise replays a recorded session offline.
  compaction-demo help

Token figures accept 20000, 20k or 1.5M; --trigger also takes a fraction of the window (0.8).
`;
