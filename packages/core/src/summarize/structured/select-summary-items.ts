import { codeIdentifiers } from './code-identifiers.js';
import type { SummaryItem } from './summary-items.js';

type Candidate = { item: SummaryItem; tokens: number; names: string[]; score: number; taken: boolean };

/**
 * The items that fit in `budget` tokens, chosen by information value per token: an item is
 * worth its kind's weight plus `nameWeight(name)` for every code-like name it holds that no
 * item chosen before holds (so a rare name counts where a repeated one has already been
 * carried), scaled by how recent it is. Greedy with lazy re-scoring: the best item is re-scored against what
 * is already chosen before it is taken. An item that continues another (`head`) brings its
 * head along and pays for it. Items are counted one line each (`countText` + 1 for the line
 * break). Returns the chosen items, best first.
 */
export function selectSummaryItems(
  items: readonly SummaryItem[],
  budget: number,
  countText: (text: string) => number,
  nameWeight: (name: string) => number = () => 1,
): SummaryItem[] {
  const covered = new Set<string>();
  const byText = new Map<string, Candidate>();
  const candidates: Candidate[] = items.map((item) => {
    const candidate = {
      item,
      tokens: countText(item.text) + 1,
      names: codeIdentifiers(item.text),
      score: 0,
      taken: false,
    };
    if (!byText.has(item.text)) byText.set(item.text, candidate);
    return candidate;
  });
  const headOf = (candidate: Candidate) => {
    const head = candidate.item.head === undefined ? undefined : byText.get(candidate.item.head);
    return head && !head.taken ? head : undefined;
  };
  const cost = (candidate: Candidate) => candidate.tokens + (headOf(candidate)?.tokens ?? 0);
  const score = (candidate: Candidate) => {
    let fresh = 0;
    const head = headOf(candidate);
    for (const name of [...candidate.names, ...(head?.names ?? [])]) if (!covered.has(name)) fresh += nameWeight(name);
    const recency = 0.5 + 0.5 * Math.min(1, Math.max(0, candidate.item.at));
    return ((candidate.item.weight + (head?.item.weight ?? 0) + fresh) * recency) / cost(candidate);
  };
  for (const candidate of candidates) candidate.score = score(candidate);
  const queue = [...candidates].sort((a, b) => b.score - a.score);
  const chosen: SummaryItem[] = [];
  let left = budget;
  const take = (candidate: Candidate) => {
    candidate.taken = true;
    chosen.push(candidate.item);
    left -= candidate.tokens;
    for (const name of candidate.names) covered.add(name);
  };
  while (queue.length > 0 && left > 0) {
    const best = queue.shift()!;
    if (best.taken || cost(best) > left) continue;
    const current = score(best);
    const next = queue[0];
    if (next && current < next.score) {
      best.score = current;
      queue.splice(insertionPoint(queue, current), 0, best);
      continue;
    }
    const head = headOf(best);
    if (head) take(head);
    take(best);
  }
  return chosen;
}

/** Where a candidate of `score` goes in `queue` (sorted by score, highest first). */
function insertionPoint(queue: readonly Candidate[], score: number): number {
  let low = 0;
  let high = queue.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (queue[middle]!.score >= score) low = middle + 1;
    else high = middle;
  }
  return low;
}
