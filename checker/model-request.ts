// Which logged requests are model requests (POST /v1/messages) of a conversation stream: one rule for every checker.
import type { RequestEntry } from "../mock-api/log-entry.ts";

// The mock classifies only POST /v1/messages into a stream (mock-api/app.ts, answer.ts) and logs the URL path without
// its query; the query is cut here anyway so a hand-built entry that carries one still counts. count_tokens, probes
// and unrouted paths are never model requests, whatever their stream field says.
export function isModelRequest(entry: RequestEntry): entry is RequestEntry & { stream: string } {
  return entry.stream !== null && entry.method === "POST" && entry.path.split("?")[0] === "/v1/messages";
}

// The model requests of one stream, in log order.
export function streamRequests(requests: readonly RequestEntry[], stream: string): (RequestEntry & { stream: string })[] {
  return requests.filter((entry): entry is RequestEntry & { stream: string } => isModelRequest(entry) && entry.stream === stream);
}
