import { describe, expect, it } from 'vitest';
import { conversation, words } from '../../test/builders.js';
import type { Message } from '../messages/types.js';
import { searchHistory, snippetAround } from './search-history.js';

describe('searchHistory', () => {
  const c = conversation();
  const messages: Message[] = [
    c.user('please check the deployment config'),
    ...c.toolStep([
      {
        name: 'read',
        input: { path: 'deploy/prod.yaml' },
        output: `${words(80)} replicas: 7 region: eu-west-3 ${words(80)}`,
      },
    ]),
    c.assistant('The production deployment runs 7 replicas.'),
    {
      id: 'summary',
      role: 'user',
      parts: [{ type: 'text', text: 'summary mentions eu-west-3' }],
      metadata: { compaction: 'summary' },
    },
  ];

  it('finds a value that only a tool output holds, with the message id, role and a snippet around it', () => {
    const [hit] = searchHistory(messages, 'eu-west-3 region');
    expect(hit).toMatchObject({ id: messages[2]!.id, role: 'tool', index: 2 });
    expect(hit!.snippet).toContain('region: eu-west-3');
    expect(hit!.snippet.length).toBeLessThanOrEqual(302);
  });

  it('searches tool-call arguments, and never the messages core inserted', () => {
    expect(searchHistory(messages, 'prod.yaml')[0]!.id).toBe(messages[1]!.id);
    expect(searchHistory(messages, 'summary mentions').map((hit) => hit.id)).not.toContain('summary');
  });

  it('caps the limit at 20 and at least 1', () => {
    const many = Array.from({ length: 30 }, (_, i) => c.user(`needle ${i}`));
    expect(searchHistory(many, 'needle', { limit: 100 })).toHaveLength(20);
    expect(searchHistory(many, 'needle', { limit: 0 })).toHaveLength(1);
  });

  it('cuts snippets around the earliest match', () => {
    const text = `${'x '.repeat(200)}needle here${' y'.repeat(200)}`;
    const snippet = snippetAround(text, ['needle'], 60);
    expect(snippet).toMatch(/^….*needle here.*…$/);
    expect(snippetAround('short text', ['zzz'], 60)).toBe('short text');
  });
});
