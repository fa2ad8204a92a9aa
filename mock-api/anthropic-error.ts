// Anthropic-shaped error bodies and headers, and the error type the real API gives each HTTP status.
// Statuses, types and the 32 MB limit: https://docs.anthropic.com/en/api/errors ("HTTP errors", "Request size limits").
const errorTypeByStatus: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  409: "conflict_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

// The message the API sends with each type when the script names none: its own wording where the documentation or
// its responses show one ("Overloaded" is what both a 529 body and a streamed `event: error` carry).
const defaultMessageByType: Record<string, string> = {
  invalid_request_error: "Invalid request",
  authentication_error: "invalid x-api-key",
  permission_error: "Your API key does not have permission to use the specified resource.",
  not_found_error: "Not found",
  request_too_large: "Request exceeds the maximum allowed number of bytes.",
  rate_limit_error: "This request would exceed the rate limit for your organization. Please try again later.",
  api_error: "Internal server error",
  overloaded_error: "Overloaded",
};

// "The maximum request size is 32 MB for standard API endpoints" (Messages and Token Counting): above it, 413
// request_too_large, answered before the request reaches the API servers.
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

export function defaultErrorType(status: number): string {
  return errorTypeByStatus[status] ?? (status < 500 ? "invalid_request_error" : "api_error");
}

export function defaultErrorMessage(errorType: string): string {
  return defaultMessageByType[errorType] ?? "mock fault";
}

// The status a non-streaming request gets for an error the script places mid-stream.
export function statusForErrorType(errorType: string): number {
  const match = Object.entries(errorTypeByStatus).find(([, type]) => type === errorType);
  return match ? Number(match[0]) : 500;
}

// "Errors are always returned as JSON, with a top-level error object that always includes a type and message value.
// The response also includes a request_id field" (docs/api/errors, "Error shapes"); the same id is the request-id header.
export interface AnthropicErrorBody {
  type: "error";
  error: { type: string; message: string };
  request_id?: string;
}

export function anthropicErrorBody(errorType: string, message: string, requestId?: string): AnthropicErrorBody {
  return { type: "error", error: { type: errorType, message }, ...(requestId === undefined ? {} : { request_id: requestId }) };
}

// The headers a 429 carries: `retry-after` in seconds, and the `anthropic-ratelimit-*` family with the limit that
// was hit at zero and resets as RFC 3339 timestamps (https://docs.anthropic.com/en/api/rate-limits, "Response
// headers": "anthropic-ratelimit-requests-reset: The time when the request rate limit will be fully replenished,
// provided in RFC 3339 format"). The mock's limits are nominal; the reset is now + retry-after.
export function rateLimitHeaders(retryAfterSeconds: number, now: number): Record<string, string> {
  const reset = new Date(Math.floor(now / 1000) * 1000 + retryAfterSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  const later = new Date(Math.floor(now / 1000) * 1000 + 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  return {
    "retry-after": String(retryAfterSeconds),
    "anthropic-ratelimit-requests-limit": "50",
    "anthropic-ratelimit-requests-remaining": "0",
    "anthropic-ratelimit-requests-reset": reset,
    "anthropic-ratelimit-tokens-limit": "100000",
    "anthropic-ratelimit-tokens-remaining": "100000",
    "anthropic-ratelimit-tokens-reset": later,
    "anthropic-ratelimit-input-tokens-limit": "80000",
    "anthropic-ratelimit-input-tokens-remaining": "80000",
    "anthropic-ratelimit-input-tokens-reset": later,
    "anthropic-ratelimit-output-tokens-limit": "20000",
    "anthropic-ratelimit-output-tokens-remaining": "20000",
    "anthropic-ratelimit-output-tokens-reset": later,
  };
}
