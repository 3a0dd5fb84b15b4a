/**
 * The few AI SDK shapes this adapter needs, derived from the types `ai` exports
 * so that `ai` (a peer dependency) is the only framework package users install.
 */
import type { LanguageModelMiddleware, ModelMessage } from 'ai';

type TransformParamsOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0];

/** `LanguageModelV4` from `@ai-sdk/provider`: what `wrapLanguageModel` wraps and returns. */
export type LanguageModelV4 = TransformParamsOptions['model'];

/** `LanguageModelV4CallOptions`: the params a middleware sees. */
export type CallOptions = TransformParamsOptions['params'];

/** `LanguageModelV4Prompt`: the provider prompt (system / user / assistant / tool). */
export type ProviderPrompt = CallOptions['prompt'];

/** One message of the provider prompt. */
export type PromptMessage = ProviderPrompt[number];

/** `SharedV4ProviderOptions`: `{ [provider]: JSONObject }` on prompt messages and parts. */
export type PromptProviderOptions = NonNullable<PromptMessage['providerOptions']>;

/** One content part of a provider prompt message. */
export type PromptPart = Exclude<PromptMessage['content'], string>[number];

/** `LanguageModelV4ToolResultOutput`: the output of a tool result in the prompt. */
export type PromptToolResultOutput = Extract<PromptPart, { type: 'tool-result' }>['output'];

/** One content part of a `ModelMessage` (the `prepareStep` / `generateText` message shape). */
export type ModelMessagePart = Exclude<ModelMessage['content'], string>[number];

/** `LanguageModelV4GenerateResult`. */
export type GenerateResult = Awaited<ReturnType<LanguageModelV4['doGenerate']>>;

/** `LanguageModelV4StreamResult`. */
export type StreamResult = Awaited<ReturnType<LanguageModelV4['doStream']>>;

/** `LanguageModelV4StreamPart`. */
export type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;

/** `SharedV4ProviderMetadata`: `{ [provider]: JSONObject }` on results. */
export type ProviderMetadata = NonNullable<GenerateResult['providerMetadata']>;
