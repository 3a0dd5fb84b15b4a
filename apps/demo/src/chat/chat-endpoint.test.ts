import { describe, expect, it } from 'vitest';
import { chatEndpointFromEnv } from './chat-endpoint.js';

describe('chatEndpointFromEnv', () => {
  it('is undefined without a base URL', () => {
    expect(chatEndpointFromEnv({})).toBeUndefined();
  });

  it('reads the base URL (without trailing slash), model and key', () => {
    expect(
      chatEndpointFromEnv({
        COMPACTION_DEMO_BASE_URL: 'http://127.0.0.1:8080/v1/',
        COMPACTION_DEMO_MODEL: 'gpt-4o-mini',
        COMPACTION_DEMO_API_KEY: 'k',
      }),
    ).toEqual({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'gpt-4o-mini', apiKey: 'k' });
  });

  it('asks for the model and rejects a base URL that is not a URL', () => {
    expect(() => chatEndpointFromEnv({ COMPACTION_DEMO_BASE_URL: 'http://127.0.0.1/v1' })).toThrow(
      /COMPACTION_DEMO_MODEL/,
    );
    expect(() => chatEndpointFromEnv({ COMPACTION_DEMO_BASE_URL: 'not a url', COMPACTION_DEMO_MODEL: 'm' })).toThrow(
      /not a URL/,
    );
  });
});
