const KINDS = new Set(['history', 'turn-prefix']);
const LISTINGS = new Set(['full', 'grouped', 'counted', 'omitted']);

/**
 * What is wrong with the summary fields of a stored state (`summaryParts`, `lastRequest`), or
 * undefined when they are fine or absent (a schema-1 state has neither). Names the field at
 * fault, for the store's load error.
 *
 * @example
 * ```ts
 * summaryFieldsProblem({ summaryParts: [{ kind: 'history', strategy: 'llm' }] });
 * // 'state.summaryParts[0].text must be a string, got undefined'
 * ```
 */
export function summaryFieldsProblem(state: Record<string, unknown>): string | undefined {
  if (state.lastRequest !== undefined && typeof state.lastRequest !== 'string') {
    return `state.lastRequest must be a string, got ${typeof state.lastRequest}`;
  }
  const parts = state.summaryParts;
  if (parts === undefined) return undefined;
  if (!Array.isArray(parts)) return `state.summaryParts must be an array, got ${typeof parts}`;
  for (const [index, value] of parts.entries()) {
    const problem = partProblem(value, `state.summaryParts[${index}]`);
    if (problem) return problem;
  }
  return undefined;
}

function partProblem(value: unknown, path: string): string | undefined {
  if (!isRecord(value)) return `${path} must be an object, got ${describe(value)}`;
  if (typeof value.kind !== 'string' || !KINDS.has(value.kind)) {
    return `${path}.kind must be "history" or "turn-prefix", got ${describe(value.kind)}`;
  }
  if (typeof value.strategy !== 'string') return `${path}.strategy must be a string, got ${describe(value.strategy)}`;
  if (typeof value.text !== 'string') return `${path}.text must be a string, got ${describe(value.text)}`;
  if (value.verbatim !== undefined && typeof value.verbatim !== 'boolean') {
    return `${path}.verbatim must be a boolean, got ${describe(value.verbatim)}`;
  }
  if (value.fileListing !== undefined && (typeof value.fileListing !== 'string' || !LISTINGS.has(value.fileListing))) {
    return `${path}.fileListing must be one of ${[...LISTINGS].join(', ')}, got ${describe(value.fileListing)}`;
  }
  return value.facts === undefined ? undefined : factsProblem(value.facts, `${path}.facts`);
}

function factsProblem(value: unknown, path: string): string | undefined {
  if (!isRecord(value)) return `${path} must be an object, got ${describe(value)}`;
  for (const key of ['requests', 'carried']) {
    const list = value[key];
    if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) {
      return `${path}.${key} must be an array of strings, got ${describe(list)}`;
    }
  }
  const counts = value.toolCounts;
  if (
    !Array.isArray(counts) ||
    !counts.every((entry) => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number')
  ) {
    return `${path}.toolCounts must be an array of [tool, count] pairs, got ${describe(counts)}`;
  }
  for (const [key, field] of [
    ['errors', 'text'],
    ['commands', 'command'],
  ] as const) {
    const list = value[key];
    if (!Array.isArray(list) || !list.every((item) => isRecord(item) && typeof item[field] === 'string')) {
      return `${path}.${key} must be an array of objects with a string ${field}, got ${describe(list)}`;
    }
  }
  if (!isCountValue(value.summarizedMessages)) {
    return `${path}.summarizedMessages must be a non-negative integer, got ${describe(value.summarizedMessages)}`;
  }
  for (const key of ['goal', 'root'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'string') {
      return `${path}.${key} must be a string, got ${describe(value[key])}`;
    }
  }
  if (value.unlistedRequests !== undefined && !isCountValue(value.unlistedRequests)) {
    return `${path}.unlistedRequests must be a non-negative integer, got ${describe(value.unlistedRequests)}`;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCountValue(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
}
