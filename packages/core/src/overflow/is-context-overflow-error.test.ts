import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTEXT_OVERFLOW_PATTERNS } from './context-overflow-patterns.js';
import { isContextOverflowError } from './is-context-overflow-error.js';
import { matchContextOverflowError } from './match-context-overflow-error.js';

/**
 * An error shaped like the AI SDK's `APICallError` (`@ai-sdk/provider`): providers put
 * the extracted error message in `message`, the raw body in `responseBody` and the
 * parsed body in `data`. The request body holds the prompt and must be ignored.
 */
function apiCallError({ statusCode, body, message }: { statusCode: number; body: unknown; message?: string }): Error {
  const responseBody = typeof body === 'string' ? body : JSON.stringify(body);
  const error = new Error(message ?? 'Bad Request');
  return Object.assign(error, {
    name: 'AI_APICallError',
    url: 'https://api.example.com/v1/chat/completions',
    requestBodyValues: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
    statusCode,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody,
    isRetryable: statusCode === 429 || statusCode >= 500,
    data: typeof body === 'string' ? undefined : body,
  });
}

const positives: Array<[label: string, provider: string, error: unknown]> = [
  [
    'OpenAI chat completions',
    'openai',
    apiCallError({
      statusCode: 400,
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130552 tokens. Please reduce the length of the messages.",
      body: {
        error: {
          message:
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 130552 tokens. Please reduce the length of the messages.",
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    }),
  ],
  [
    'OpenAI responses API',
    'openai',
    apiCallError({
      statusCode: 400,
      message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
      body: {
        error: {
          message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
          type: 'invalid_request_error',
          param: 'input',
          code: 'context_length_exceeded',
        },
      },
    }),
  ],
  [
    'OpenAI SDK APIError (as LangChain throws it)',
    'openai',
    Object.assign(
      new Error(
        "400 This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
      ),
      {
        status: 400,
        code: 'context_length_exceeded',
        error: { message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded' },
      },
    ),
  ],
  [
    'Azure OpenAI, recognized by data.error.code alone',
    'openai',
    apiCallError({
      statusCode: 400,
      message: 'Bad Request',
      body: { error: { code: 'context_length_exceeded', message: 'Request failed', param: 'messages', type: null } },
    }),
  ],
  [
    'Anthropic prompt too long',
    'anthropic',
    apiCallError({
      statusCode: 400,
      message: 'prompt is too long: 208310 tokens > 200000 maximum',
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' },
        request_id: 'req_011CTx',
      },
    }),
  ],
  [
    'Anthropic input + max_tokens',
    'anthropic',
    apiCallError({
      statusCode: 400,
      message:
        'input length and `max_tokens` exceed context limit: 197865 + 8192 > 200000, decrease input length or `max_tokens` and try again',
      body: {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message:
            'input length and `max_tokens` exceed context limit: 197865 + 8192 > 200000, decrease input length or `max_tokens` and try again',
        },
      },
    }),
  ],
  [
    'Anthropic SDK error (status + nested error)',
    'anthropic',
    Object.assign(
      new Error(
        '400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}',
      ),
      {
        status: 400,
        error: {
          type: 'error',
          error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
        },
      },
    ),
  ],
  [
    'Google Gemini',
    'google',
    apiCallError({
      statusCode: 400,
      message: 'The input token count (1196265) exceeds the maximum number of tokens allowed (1048576).',
      body: {
        error: {
          code: 400,
          message: 'The input token count (1196265) exceeds the maximum number of tokens allowed (1048576).',
          status: 'INVALID_ARGUMENT',
        },
      },
    }),
  ],
  [
    'Google Vertex AI',
    'google',
    apiCallError({
      statusCode: 400,
      body: {
        error: {
          code: 400,
          message:
            'Unable to submit request because the input token count is 35000 but model only supports up to 32768. Reduce the input token count and try again.',
          status: 'INVALID_ARGUMENT',
        },
      },
    }),
  ],
  [
    'AWS Bedrock SDK ValidationException',
    'bedrock',
    Object.assign(new Error('Input is too long for requested model.'), {
      name: 'ValidationException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400, requestId: 'a1b2', attempts: 1 },
    }),
  ],
  [
    'AWS Bedrock through the AI SDK',
    'bedrock',
    apiCallError({
      statusCode: 400,
      body: { message: 'Too many input tokens. Max input tokens: 8192, request input token count: 9102' },
    }),
  ],
  [
    'Mistral',
    'mistral',
    apiCallError({
      statusCode: 400,
      body: {
        object: 'error',
        message:
          'Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length',
        type: 'invalid_request_message_error',
        param: null,
        code: '3051',
      },
    }),
  ],
  [
    'Groq',
    'groq',
    apiCallError({
      statusCode: 400,
      message: 'Please reduce the length of the messages or completion.',
      body: {
        error: {
          message: 'Please reduce the length of the messages or completion.',
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    }),
  ],
  [
    'OpenRouter',
    'openrouter',
    apiCallError({
      statusCode: 400,
      body: {
        error: {
          message:
            'This endpoint\'s maximum context length is 163840 tokens. However, you requested about 211394 tokens (203202 of text input, 8192 in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.',
          code: 400,
        },
      },
    }),
  ],
  [
    'Ollama',
    'ollama',
    apiCallError({ statusCode: 400, body: '{"error":"the input length exceeds the context length"}' }),
  ],
  ['Ollama, short form', 'ollama', new Error('context length exceeded')],
  [
    'llama.cpp server',
    'llama.cpp',
    apiCallError({
      statusCode: 400,
      body: {
        error: {
          code: 400,
          message: 'the request exceeds the available context size, try increasing it',
          type: 'exceed_context_size_error',
          n_prompt_tokens: 5120,
          n_ctx: 4096,
        },
      },
    }),
  ],
  [
    'vLLM',
    'vllm',
    apiCallError({
      statusCode: 400,
      body: {
        object: 'error',
        message:
          "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
        type: 'BadRequestError',
        param: null,
        code: 400,
      },
    }),
  ],
  [
    'LM Studio',
    'lmstudio',
    apiCallError({
      statusCode: 400,
      body: {
        error:
          'Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input',
      },
    }),
  ],
  [
    'xAI',
    'xai',
    apiCallError({
      statusCode: 400,
      body: {
        code: 'Client specified an invalid argument',
        error: "This model's maximum prompt length is 131072 but the request contains 150000 tokens.",
      },
    }),
  ],
  [
    'Cohere',
    'cohere',
    apiCallError({
      statusCode: 400,
      body: {
        message:
          "too many tokens: size limit exceeded by 11692 tokens. Try using shorter or fewer inputs, or setting prompt_truncation='AUTO'.",
      },
    }),
  ],
  [
    'GitHub Copilot',
    'github-copilot',
    apiCallError({
      statusCode: 400,
      body: {
        error: {
          message: 'prompt token count of 128523 exceeds the limit of 128000',
          code: 'model_max_prompt_tokens_exceeded',
        },
      },
    }),
  ],
  [
    'Hugging Face TGI',
    'huggingface-tgi',
    apiCallError({
      statusCode: 422,
      body: {
        error:
          'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 8193. Given: 9000 `inputs` tokens and 512 `max_new_tokens`',
        error_type: 'validation',
      },
    }),
  ],
  [
    'Fireworks',
    'generic',
    apiCallError({
      statusCode: 400,
      body: {
        error: {
          object: 'error',
          type: 'invalid_request_error',
          message: 'The prompt is too long: 207620, model maximum context length: 163839',
        },
      },
    }),
  ],
  [
    'HTTP 413 from a proxy',
    'http-413',
    apiCallError({
      statusCode: 413,
      body: '<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>nginx</center></body></html>',
    }),
  ],
  ['HTTP 413 status only', 'http-413', { status: 413, statusText: 'Payload Too Large' }],
  ['a plain string', 'anthropic', 'prompt is too long: 208310 tokens > 200000 maximum'],
];

describe('isContextOverflowError', () => {
  it.each(positives)('recognizes %s', (_label, provider, error) => {
    expect(isContextOverflowError(error)).toBe(true);
    expect(matchContextOverflowError(error)?.provider).toBe(provider);
  });

  it('has at least 17 patterns, each labelled and not global', () => {
    expect(CONTEXT_OVERFLOW_PATTERNS.length).toBeGreaterThanOrEqual(17);
    for (const { provider, pattern } of CONTEXT_OVERFLOW_PATTERNS) {
      expect(provider).not.toBe('');
      expect(pattern.flags).toBe('i');
    }
  });

  it('finds the overflow behind wrappers: cause chains, retry errors, error.message', () => {
    const overflow = positives[0]![2];
    expect(isContextOverflowError(new Error('Failed to generate', { cause: overflow }))).toBe(true);
    expect(isContextOverflowError(new Error('outer', { cause: new Error('middle', { cause: overflow }) }))).toBe(true);
    expect(
      isContextOverflowError({
        name: 'AI_RetryError',
        message: 'Failed after 1 attempt',
        lastError: overflow,
        errors: [overflow],
      }),
    ).toBe(true);
    expect(isContextOverflowError({ error: { message: 'prompt is too long: 300000 tokens > 200000 maximum' } })).toBe(
      true,
    );
    expect(isContextOverflowError({ data: { error: { code: 'context_length_exceeded' } } })).toBe(true);
  });

  const rateLimits: Array<[label: string, error: unknown]> = [
    [
      'OpenAI tokens-per-minute limit',
      apiCallError({
        statusCode: 429,
        body: {
          error: {
            message:
              'Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 27000, Requested 8000. Please try again in 10s.',
            type: 'tokens',
            param: null,
            code: 'rate_limit_exceeded',
          },
        },
      }),
    ],
    [
      'OpenAI request too large for the TPM limit',
      apiCallError({
        statusCode: 429,
        body: {
          error: {
            message:
              'Request too large for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Requested 50000. The input or output tokens must be reduced in order to run successfully.',
            type: 'tokens',
            code: 'rate_limit_exceeded',
          },
        },
      }),
    ],
    [
      'Anthropic input-tokens-per-minute limit',
      apiCallError({
        statusCode: 429,
        body: {
          type: 'error',
          error: {
            type: 'rate_limit_error',
            message:
              'This request would exceed the rate limit for your organization of 40,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.',
          },
        },
      }),
    ],
    [
      'Gemini quota',
      apiCallError({
        statusCode: 429,
        body: {
          error: {
            code: 429,
            message: 'You exceeded your current quota, please check your plan and billing details.',
            status: 'RESOURCE_EXHAUSTED',
          },
        },
      }),
    ],
    [
      'Bedrock throttling',
      Object.assign(new Error('Too many tokens, please wait before trying again.'), {
        name: 'ThrottlingException',
        $metadata: { httpStatusCode: 429 },
      }),
    ],
    [
      'Groq tokens-per-minute limit without a status',
      new Error(
        'Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_1` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Used 5000, Requested 2000.',
      ),
    ],
    [
      'a throughput limit worded like an overflow, without a status',
      new Error('Too many input tokens per minute, please wait before trying again.'),
    ],
    [
      'a 429 whatever its text says',
      { statusCode: 429, message: "This model's maximum context length is 8192 tokens" },
    ],
  ];

  it.each(rateLimits)('does not match a rate limit: %s', (_label, error) => {
    expect(isContextOverflowError(error)).toBe(false);
  });

  it('does not match other errors', () => {
    expect(
      isContextOverflowError(
        apiCallError({
          statusCode: 401,
          body: { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } },
        }),
      ),
    ).toBe(false);
    expect(
      isContextOverflowError(
        apiCallError({ statusCode: 500, body: { error: { message: 'The server had an error' } } }),
      ),
    ).toBe(false);
    expect(
      isContextOverflowError(
        apiCallError({
          statusCode: 400,
          body: {
            type: 'error',
            error: { type: 'invalid_request_error', message: 'messages: text content blocks must be non-empty' },
          },
        }),
      ),
    ).toBe(false);
    expect(isContextOverflowError(new Error('fetch failed'))).toBe(false);
  });

  it('ignores the request body, which holds the user prompt', () => {
    const error = apiCallError({ statusCode: 400, body: { error: { message: 'Invalid value for temperature' } } });
    Object.assign(error, {
      requestBodyValues: { messages: [{ role: 'user', content: 'prompt is too long: 5 tokens > 1 maximum' }] },
    });
    expect(isContextOverflowError(error)).toBe(false);
  });

  it('never throws on odd inputs', () => {
    const circular: Record<string, unknown> = { message: 'loop' };
    circular.cause = circular;
    circular.error = { parent: circular, cause: circular };
    const throwingGetter = Object.defineProperty({}, 'message', {
      get() {
        throw new Error('boom');
      },
    });
    const hostileProxy = new Proxy(
      {},
      {
        get() {
          throw new Error('no access');
        },
        has() {
          throw new Error('no access');
        },
      },
    );
    let deep: Record<string, unknown> = { message: 'prompt is too long: 5 tokens > 1 maximum' };
    for (let level = 0; level < 1_000; level += 1) deep = { cause: deep };

    for (const value of [
      null,
      undefined,
      0,
      413n,
      '',
      true,
      Symbol('x'),
      () => 1,
      [],
      {},
      circular,
      throwingGetter,
      hostileProxy,
      deep,
    ]) {
      expect(() => isContextOverflowError(value)).not.toThrow();
    }
    expect(isContextOverflowError(circular)).toBe(false);
    expect(isContextOverflowError(deep)).toBe(false);
    expect(isContextOverflowError({ message: 42, responseBody: { not: 'a string' } })).toBe(false);
  });
});

describe('isContextOverflowError: more providers and the wording class (r19)', () => {
  const recorded: Array<[label: string, error: unknown]> = [
    [
      'MiniMax',
      apiCallError({
        statusCode: 400,
        body: { base_resp: { status_code: 2013, status_msg: 'invalid params, context window exceeds limit' } },
        message: 'invalid params, context window exceeds limit',
      }),
    ],
    [
      'Kimi',
      apiCallError({
        statusCode: 400,
        body: {
          error: {
            message: 'Your request exceeded model token limit: 262144 (requested: 300000)',
            type: 'invalid_request_error',
          },
        },
      }),
    ],
    [
      'z.ai',
      apiCallError({
        statusCode: 400,
        body: { error: { code: 'model_context_window_exceeded', message: 'Bad request' } },
      }),
    ],
    [
      'vLLM',
      apiCallError({
        statusCode: 400,
        body: {
          object: 'error',
          message:
            "This model's maximum context length is 131072 tokens. However, you requested 140000 tokens. However, the model's context length is only 131072 tokens, resulting in a maximum input length of 126976 tokens.",
          type: 'BadRequestError',
        },
      }),
    ],
    [
      'DashScope (Qwen)',
      new Error('<400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 258048]'),
    ],
    ['TGI, a length with its figure', new Error('Requested input length 150000 exceeds maximum input length 131072')],
    [
      'vLLM, the newer wording alone',
      new Error(
        "the model's context length is only 131072 tokens, resulting in a maximum input length of 126976 tokens. Please reduce the length of the input prompt.",
      ),
    ],
    [
      'Bedrock text bytes (r19)',
      Object.assign(
        new Error('The model returned the following errors: too many total text bytes: 9865532 > 9000000'),
        { name: 'ValidationException', $metadata: { httpStatusCode: 400 } },
      ),
    ],
  ];

  it.each(recorded)('recognizes %s', (_label, error) => {
    expect(isContextOverflowError(error)).toBe(true);
  });

  const subjects = [
    'context window',
    'context length',
    'context size',
    'context_window',
    'context_length',
    'prompt tokens',
    'input size',
    'Context Window',
  ];
  const verbs = ['exceeds limit', 'exceeded', 'exceeds', '_exceeded', 'has been exceeded', 'overflow'];
  const wrappers: Array<[string, (text: string) => unknown]> = [
    ['an Error message', (text) => new Error(text)],
    ['an APICallError body', (text) => apiCallError({ statusCode: 400, body: { error: { message: text } } })],
    ['a cause chain', (text) => new Error('request failed', { cause: { error: { message: text } } })],
    ['a retry error', (text) => Object.assign(new Error('Failed after 3 attempts'), { lastError: new Error(text) })],
  ];

  it('recognizes every phrasing of "context … exceeded" wherever it sits on the error', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...subjects),
        fc.constantFrom(...verbs),
        fc.constantFrom('', 'Error: ', 'invalid params, ', '400 '),
        fc.constantFrom('', ' (2013)', ': 262144 > 131072', '.'),
        fc.constantFrom(...wrappers),
        (subject, verb, before, after, [, wrap]) => {
          const text = `${before}${subject}${verb.startsWith('_') ? verb : ` ${verb}`}${after}`;
          expect(isContextOverflowError(wrap(text))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never reports a rate limit, however the limit is worded', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...subjects, 'model token limit', 'input token limit'),
        fc.constantFrom(
          'tokens per minute',
          'per minute',
          'TPM',
          'rate limit',
          'quota',
          'requests per day',
          '/min',
          'per second',
        ),
        fc.constantFrom(...wrappers),
        (subject, limit, [, wrap]) => {
          expect(isContextOverflowError(wrap(`You exceeded the ${subject} ${limit} limit: ${subject} exceeded`))).toBe(
            false,
          );
          expect(isContextOverflowError(Object.assign(new Error(`${subject} exceeded`), { statusCode: 429 }))).toBe(
            false,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('does not mistake output limits or unrelated limits for an overflow', () => {
    for (const text of [
      'max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet',
      'the response exceeded the maximum output token limit',
      'file size exceeds the upload limit',
      'Invalid value for temperature',
    ]) {
      expect(isContextOverflowError(new Error(text))).toBe(false);
    }
  });
});
