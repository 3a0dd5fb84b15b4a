import { useState } from 'react';

/** What a tool part holds, for either kind of tool part. */
type ToolPart = {
  type: string;
  toolName?: string;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
};

/** The most telling argument of a call: a path, a command, a pattern, else the first string. */
function headline(input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const record = input as Record<string, unknown>;
  for (const key of ['file_path', 'path', 'command', 'pattern', 'url', 'query', 'description']) {
    if (typeof record[key] === 'string') return record[key] as string;
  }
  const first = Object.values(record).find((value) => typeof value === 'string');
  return typeof first === 'string' ? first : '';
}

function short(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A tool call on one line (name, main argument, state); input and output on click. */
export function ToolCall({ part }: { part: ToolPart }) {
  const [open, setOpen] = useState(false);
  const name = part.toolName ?? part.type.replace(/^tool-/, '');
  const state = part.state === 'output-available' ? 'done' : part.state === 'output-error' ? 'error' : 'running';
  const output =
    part.state === 'output-error'
      ? (part.errorText ?? '')
      : typeof part.output === 'string'
        ? part.output
        : JSON.stringify(part.output ?? '');
  return (
    <div className="tool-call" data-state={state} data-tool={name}>
      <button type="button" className="tool-line" onClick={() => setOpen(!open)} aria-expanded={open}>
        <span className="tool-name">{name}</span>
        <span className="tool-arg">{short(headline(part.input), 90)}</span>
        <span className="tool-state">{state === 'done' ? '✓' : state === 'error' ? '✗' : '…'}</span>
      </button>
      {open ? (
        <pre className="tool-detail">
          {JSON.stringify(part.input, null, 2)}
          {'\n—\n'}
          {short(output, 4000)}
        </pre>
      ) : null}
    </div>
  );
}
