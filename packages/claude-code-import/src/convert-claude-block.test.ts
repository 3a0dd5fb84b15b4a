import { describe, expect, it } from 'vitest';
import { convertAssistantBlock, convertFileBlock, toolResultOutput } from './convert-claude-block.js';

describe('convertFileBlock', () => {
  it('keeps base64 data, URLs and document titles', () => {
    expect(convertFileBlock({ type: 'image', source: { type: 'url', url: 'https://x.test/a.png' } })).toEqual({
      type: 'file',
      mediaType: 'image/*',
      url: 'https://x.test/a.png',
    });
    const pdf = {
      type: 'document',
      title: 'spec.pdf',
      source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' },
    };
    expect(convertFileBlock(pdf)).toEqual({
      type: 'file',
      mediaType: 'application/pdf',
      data: 'JVBE',
      filename: 'spec.pdf',
    });
  });
});

describe('convertAssistantBlock', () => {
  it('reports a block missing its fields', () => {
    expect(convertAssistantBlock({ type: 'tool_use', name: 'Bash' })).toEqual({
      problem: 'assistant "tool_use" block is missing its fields (skipped)',
    });
  });

  it('gives a tool call without input an empty input', () => {
    expect(convertAssistantBlock({ type: 'tool_use', id: 'c1', name: 'TaskOutput' })).toEqual({
      type: 'tool-call',
      toolCallId: 'c1',
      toolName: 'TaskOutput',
      input: {},
    });
  });
});

describe('toolResultOutput', () => {
  it('keeps strings, joins text blocks, notes images and other blocks', () => {
    expect(toolResultOutput('plain')).toBe('plain');
    expect(toolResultOutput(undefined)).toBe('');
    const blocks = [
      { type: 'text', text: 'a' },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '' } },
      { type: 'search_result' },
    ];
    expect(toolResultOutput(blocks)).toBe('a\n[image: image/jpeg]\n[search_result block]');
  });
});
