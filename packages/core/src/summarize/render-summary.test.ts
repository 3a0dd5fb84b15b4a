import { describe, expect, it } from 'vitest';
import { renderDraft, renderSummary } from './render-summary.js';
import type { SummaryPart } from './types.js';

const fileOps = { read: ['README.md'], modified: ['src/a/x.ts', 'src/a/y.ts'] };
const FILES = '<read-files>\nREADME.md\n</read-files>\n<modified-files>\nsrc/a/x.ts\nsrc/a/y.ts\n</modified-files>';

describe('renderSummary', () => {
  it('a history part, its file blocks from fileOps, then the last request', () => {
    const parts: SummaryPart[] = [{ kind: 'history', strategy: 'llm', text: '## Goal\nShip it\n' }];
    expect(renderSummary({ parts, fileOps, lastRequest: 'ship it' })).toBe(
      `## Goal\nShip it\n\n${FILES}\n\nLast request from user was: ship it`,
    );
  });

  it('lists the files as the part asks, the state keeping every path', () => {
    const parts: SummaryPart[] = [
      { kind: 'history', strategy: 'structured', text: '## Goal\nx', fileListing: 'grouped' },
    ];
    expect(renderSummary({ parts, fileOps })).toBe(
      '## Goal\nx\n\n<read-files>\nREADME.md\n</read-files>\n<modified-files>\nsrc/a/{x.ts,y.ts}\n</modified-files>',
    );
  });

  it('a split turn: the prefix under its heading after the history and its files, the last request still last', () => {
    const parts: SummaryPart[] = [
      { kind: 'history', strategy: 'structured', text: '## Goal\nx' },
      { kind: 'turn-prefix', strategy: 'structured', text: '\n## Turn Request\nfind it\n' },
    ];
    expect(renderSummary({ parts, fileOps, lastRequest: 'go' })).toBe(
      `## Goal\nx\n\n${FILES}\n\n## Current turn so far\n\n## Turn Request\nfind it\n\nLast request from user was: go`,
    );
  });

  it('a prefix alone (nothing summarized before it) has no file blocks; a blank prefix is left out', () => {
    expect(
      renderSummary({ parts: [{ kind: 'turn-prefix', strategy: 'llm', text: '## Turn Request\nx' }], fileOps }),
    ).toBe('## Current turn so far\n\n## Turn Request\nx');
    const parts: SummaryPart[] = [
      { kind: 'history', strategy: 'llm', text: 'H' },
      { kind: 'turn-prefix', strategy: 'llm', text: '  ' },
    ];
    expect(renderSummary({ parts, fileOps })).toBe(`H\n\n${FILES}`);
  });

  it('a verbatim part is written as it is: no file blocks added, text from outside is not re-split', () => {
    const text = 'custom\n\n<read-files>\nz.ts\n</read-files>\n\nLast request from user was: z';
    expect(renderSummary({ parts: [{ kind: 'history', strategy: 'mine', text, verbatim: true }], fileOps })).toBe(text);
  });

  it('a blank last request is not carried', () => {
    const parts: SummaryPart[] = [{ kind: 'history', strategy: 'llm', text: 'H' }];
    expect(renderSummary({ parts, fileOps, lastRequest: '  \n' })).toBe(`H\n\n${FILES}`);
  });
});

describe('renderDraft', () => {
  it('a history draft as the state renders it alone; a turn-prefix or blank draft as written', () => {
    expect(renderDraft('history', { text: 'H', lastRequest: 'go' }, fileOps)).toBe(
      `H\n\n${FILES}\n\nLast request from user was: go`,
    );
    expect(renderDraft('turn-prefix', { text: '## Turn Request\nx' }, fileOps)).toBe('## Turn Request\nx');
    expect(renderDraft('history', { text: '  ' }, fileOps)).toBe('  ');
  });
});
