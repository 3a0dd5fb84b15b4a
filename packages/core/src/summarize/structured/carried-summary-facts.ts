import type { SummarizeRequest } from '../types.js';
import { type CarriedFacts, carriedCommand, carriedError } from './carried-facts.js';
import { focusLines } from './focus-lines.js';
import { BULLET, PLACEHOLDER_LINE } from './structured-summary-lines.js';
import type { SummaryFacts } from './summary-facts.js';
import type { SummaryItem, SummarySection } from './summary-items.js';
import { goalLine, listedRequests, type RequiredLevel, sectionLines } from './summary-layout.js';

/** The sections of a history summary in the order it shows them, with the heading each line is carried under. */
const HISTORY_SECTIONS: readonly [SummarySection, string][] = [
  ['constraints', 'Constraints & Preferences'],
  ['done', 'Done'],
  ['inProgress', 'In Progress'],
  ['blocked', 'Blocked'],
  ['decisions', 'Key Decisions'],
  ['next', 'Next Steps'],
  ['commands', 'Commands Run'],
  ['notices', 'Harness Notices'],
  ['earlier', ''],
];
/** The same for a turn-prefix summary. */
const TURN_PREFIX_SECTIONS: readonly [SummarySection, string][] = [
  ['done', 'Tried So Far'],
  ['blocked', 'Tried So Far'],
  ['commands', 'Tried So Far'],
  ['inProgress', 'Intermediate Results'],
  ['decisions', 'Intermediate Results'],
  ['next', 'Intermediate Results'],
];

/** What a rendering chose, besides the facts. */
export type CarriedRender = {
  kind: SummarizeRequest['kind'];
  instructions?: string | undefined;
  level: RequiredLevel;
  root: string | undefined;
  chosen: readonly SummaryItem[];
};

/**
 * The facts a structured summary shows, from what its rendering chose (never from its text):
 * the goal and requests as listed, the tool counts, errors and commands of the lines chosen
 * (tool text cut as quoted), every other chosen line labelled with its heading (lines of an
 * earlier summary's Earlier Context as they are), the focus lines, the message count and the
 * folder paths are relative to. The next update merges these with its span's facts.
 */
export function carriedSummaryFacts(facts: SummaryFacts, render: CarriedRender): CarriedFacts {
  const history = render.kind !== 'turn-prefix';
  const { unlisted, listed } = listedRequests(facts, render.level);
  const goal = history ? goalLine(facts, render.level) : undefined;
  const carried: CarriedFacts = {
    ...(goal !== undefined ? { goal } : {}),
    requests: listed,
    ...(unlisted > 0 ? { unlistedRequests: unlisted } : {}),
    toolCounts: [],
    errors: [],
    commands: [],
    carried: [],
    summarizedMessages: history ? facts.summarizedMessages : 0,
    ...(render.root ? { root: render.root } : {}),
  };
  const carry = (line: string) => {
    if (line && !carried.carried.includes(line)) carried.carried.push(line);
  };
  const sections = history ? HISTORY_SECTIONS : TURN_PREFIX_SECTIONS;
  for (const [key, heading] of sections) {
    if (history && key === 'commands' && render.instructions?.trim()) {
      // The focus section comes before the commands, in Critical Context.
      const [title, ...lines] = focusLines(facts, render.instructions);
      const focus = (title ?? '').replace(/^#+\s+/, '');
      for (const line of lines) if (!PLACEHOLDER_LINE.test(line)) carry(`(${focus}) ${line.replace(BULLET, '')}`);
    }
    for (const { text, item } of sectionLines(render.chosen, key)) {
      const fact = item?.fact;
      if (fact?.kind === 'tools') carried.toolCounts = [...facts.toolCounts];
      else if (fact?.kind === 'error') carried.errors.push(carriedError(fact.error));
      else if (fact?.kind === 'command') {
        const command = carriedCommand(fact.command);
        carried.commands = carried.commands.filter((known) => known.command !== command.command);
        carried.commands.push(command);
      } else {
        const line = text.trim().replace(BULLET, '');
        carry(heading ? `(${heading}) ${line}` : line);
      }
    }
  }
  return carried;
}
