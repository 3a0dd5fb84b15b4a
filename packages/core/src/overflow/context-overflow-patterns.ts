/** One recognizable context-overflow error text, labelled with who sends it. */
export type ContextOverflowPattern = {
  /** Who sends this text (`openai`, `anthropic`, `google`, …; `generic` for several). */
  readonly provider: string;
  /** Tested against every message, body and code found on the error. Case-insensitive, never global. */
  readonly pattern: RegExp;
};

/**
 * Error texts that mean "the prompt does not fit the model's context window", one or
 * more per provider. Used by `isContextOverflowError`, in this order (specific
 * before generic). Every entry is a message a real API returns; rate-limit texts
 * (tokens per minute, quotas) are excluded there, not here.
 */
export const CONTEXT_OVERFLOW_PATTERNS: readonly ContextOverflowPattern[] = Object.freeze([
  // "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (…)"
  { provider: 'vllm', pattern: /maximum context length is \d+ tokens\.? however, you requested \d+ tokens/i },
  // "This endpoint's maximum context length is 163840 tokens. However, you requested about 170000 tokens"
  { provider: 'openrouter', pattern: /endpoint'?s maximum context length is/i },
  // "This model's maximum context length is 128000 tokens. However, your messages resulted in 130552 tokens."
  { provider: 'openai', pattern: /maximum context length is \d+ tokens/i },
  // Responses API: "Your input exceeds the context window of this model. Please adjust your input and try again."
  { provider: 'openai', pattern: /input exceeds the context window/i },
  // "prompt is too long: 208310 tokens > 200000 maximum"
  { provider: 'anthropic', pattern: /prompt is too long: \d+ tokens > \d+ maximum/i },
  // "input length and `max_tokens` exceed context limit: 197865 + 8192 > 200000, decrease input length or `max_tokens` and try again"
  { provider: 'anthropic', pattern: /input length and `?max_tokens`? exceed context limit/i },
  // "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)."
  { provider: 'google', pattern: /input token count \(?\d+\)? exceeds the maximum number of tokens allowed/i },
  { provider: 'google', pattern: /exceeds the maximum number of tokens/i },
  // Vertex AI: "Unable to submit request because the input token count is 35000 but model only supports up to 32768. …"
  { provider: 'google', pattern: /input token count is \d+ but (?:the )?model only supports up to \d+/i },
  // "Input is too long for requested model."
  { provider: 'bedrock', pattern: /input is too long for requested model/i },
  // "Too many input tokens. Max input tokens: 8192, request input token count: 9000"
  { provider: 'bedrock', pattern: /too many input tokens/i },
  // "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length"
  { provider: 'mistral', pattern: /too large for model with \d+ maximum context length/i },
  // "Please reduce the length of the messages or completion."
  { provider: 'groq', pattern: /reduce the length of the messages or completion/i },
  // "the input length exceeds the context length"
  { provider: 'ollama', pattern: /input length exceeds the context length/i },
  { provider: 'ollama', pattern: /context length exceeded/i },
  // "the request exceeds the available context size, try increasing it" (type exceed_context_size_error)
  { provider: 'llama.cpp', pattern: /exceeds? the available context size/i },
  { provider: 'llama.cpp', pattern: /exceed_context_size_error/i },
  // "Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, …"
  { provider: 'lmstudio', pattern: /tokens when context the overflows/i },
  // "The number of tokens to keep from the initial prompt is greater than the context length."
  { provider: 'lmstudio', pattern: /tokens to keep from the initial prompt is greater than the context length/i },
  // "This model's maximum prompt length is 131072 but the request contains 150000 tokens."
  { provider: 'xai', pattern: /maximum prompt length is \d+/i },
  // "too many tokens: size limit exceeded by 11692 tokens. Try using shorter or fewer inputs, …"
  { provider: 'cohere', pattern: /too many tokens: (?:size limit exceeded|total number of tokens)/i },
  // "prompt token count of 128523 exceeds the limit of 128000" (code model_max_prompt_tokens_exceeded)
  { provider: 'github-copilot', pattern: /prompt token count of \d+ exceeds the limit of \d+/i },
  { provider: 'github-copilot', pattern: /model_max_prompt_tokens_exceeded/i },
  // Hugging Face TGI (Together and others): "`inputs` tokens + `max_new_tokens` must be <= 8193. Given: 9000 `inputs` tokens …"
  { provider: 'huggingface-tgi', pattern: /`?inputs`? tokens \+ `?max_new_tokens`? must be <=/i },
  // MiniMax: "invalid params, context window exceeds limit (2013)"
  { provider: 'minimax', pattern: /context window exceeds limit/i },
  // Moonshot Kimi: "Your request exceeded model token limit: 262144 (requested: 300000)"
  { provider: 'kimi', pattern: /exceeded model token limit/i },
  // z.ai (GLM): error code / stop reason "model_context_window_exceeded"
  { provider: 'zai', pattern: /model_context_window_exceeded/i },
  // vLLM ≥ 0.10: "… However, the model's context length is only 131072 tokens, resulting in a maximum input length of …"
  { provider: 'vllm', pattern: /context length is only \d+ tokens/i },
  // Bedrock Converse: "The model returned the following errors: too many total text bytes: 9865532 > 9000000"
  { provider: 'bedrock', pattern: /too many total text bytes/i },
  // Alibaba DashScope (Qwen): "Range of input length should be [1, 258048]"
  { provider: 'dashscope', pattern: /range of input length should be/i },
  // error code of OpenAI, Azure OpenAI, Groq, Cerebras and other OpenAI-compatible servers
  { provider: 'openai', pattern: /context_length_exceeded/i },
  // Fireworks and others: "The prompt is too long: 207620, model maximum context length: 163839"
  { provider: 'generic', pattern: /prompt is too long/i },
  {
    provider: 'generic',
    pattern:
      /(?:exceeds?|exceeded|exceeding) (?:the )?(?:model'?s )?(?:maximum )?context (?:window|length|size|limit)/i,
  },
  // the same idea in other words or as a snake_case code: "context window exceeds limit", "context_length_exceeded",
  // "prompt tokens exceeded", "input size has been exceeded", "context overflow"
  {
    provider: 'generic',
    pattern:
      /\b(?:context|prompt|input)[ _-](?:window[ _-]|length[ _-]|size[ _-]|limit[ _-]|tokens?[ _-])?(?:(?:is|has|have)[ _-])?(?:been[ _-])?(?:exceed(?:s|ed)?|overflow(?:s|ed)?)\b/i,
  },
  // "exceeded (the) model('s) (maximum) token limit", "exceeds the maximum input token limit" (never an output limit)
  {
    provider: 'generic',
    pattern:
      /\bexceed(?:s|ed|ing)? (?:the |your )?(?:model'?s? )?(?:max(?:imum)? )?(?:input|prompt|context|model) token limit/i,
  },
  // "Requested input length 150000 exceeds maximum input length 131072", "prompt length of 9000 is greater than 8192"
  {
    provider: 'generic',
    pattern: /\b(?:input|prompt|context) length (?:of )?\d+ (?:tokens )?(?:exceeds?|is (?:greater|larger|more) than)/i,
  },
  // "the model's context length is only 8192 tokens", "maximum input length of 4096 tokens"
  { provider: 'generic', pattern: /\b(?:context|input|prompt) length (?:is only|of only) \d+/i },
  // "too many total text bytes", "too many input characters" (a size limit of the whole request)
  { provider: 'generic', pattern: /\btoo many (?:total )?(?:input |text |prompt )*(?:bytes|characters|chars)\b/i },
  // "Input is too long", "the prompt is too large"
  { provider: 'generic', pattern: /\b(?:input|prompt)s? (?:is |are |was )?too (?:long|large)\b/i },
  // a proxy or gateway refusing the body size (HTTP 413); a 413 status matches this entry too
  { provider: 'http-413', pattern: /request entity too large/i },
]);
