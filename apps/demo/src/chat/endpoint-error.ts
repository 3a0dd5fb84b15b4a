const marker = Symbol.for('compaction.demo.error.endpoint');

/**
 * An error status from the chat endpoint, with its status and body: core's
 * `isContextOverflowError` reads both, so a "context too long" answer triggers one
 * emergency compaction and a retry.
 */
export class EndpointError extends Error {
  readonly [marker] = true;
  readonly statusCode: number;
  readonly responseBody: string;

  constructor(statusCode: number, responseBody: string, url: string) {
    super(`${url} answered ${statusCode}: ${responseBody.replace(/\s+/g, ' ').slice(0, 300)}`);
    this.name = 'EndpointError';
    this.statusCode = statusCode;
    this.responseBody = responseBody;
  }

  static isInstance(error: unknown): error is EndpointError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
