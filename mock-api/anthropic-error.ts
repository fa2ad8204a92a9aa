// Anthropic-shaped error bodies, and the error type the real API gives each HTTP status.
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

export function defaultErrorType(status: number): string {
  return errorTypeByStatus[status] ?? (status < 500 ? "invalid_request_error" : "api_error");
}

// The status a non-streaming request gets for an error the script places mid-stream.
export function statusForErrorType(errorType: string): number {
  const match = Object.entries(errorTypeByStatus).find(([, type]) => type === errorType);
  return match ? Number(match[0]) : 500;
}

export interface AnthropicErrorBody {
  type: "error";
  error: { type: string; message: string };
}

export function anthropicErrorBody(errorType: string, message: string): AnthropicErrorBody {
  return { type: "error", error: { type: errorType, message } };
}
