// The one rule every checker uses to tell a model request from the rest of the mock's log.
import { describe, expect, it } from "vitest";
import { isModelRequest, streamRequests } from "../../checker/model-request.ts";
import type { RequestEntry } from "../../mock-api/log-entry.ts";
import { fakeRecordings } from "../fixtures/notifications/recordings.ts";

// A logged request like the mock writes, with the fields the rule reads set per case.
function entry(seq: number, method: string, path: string, stream: string | null): RequestEntry {
  const [base] = fakeRecordings([{ stream }]).requests;
  return { ...base!, seq, method, path };
}

describe("isModelRequest", () => {
  it("is a POST to /v1/messages with a stream, whether or not the logged path keeps its query", () => {
    expect(isModelRequest(entry(1, "POST", "/v1/messages", "main"))).toBe(true);
    expect(isModelRequest(entry(2, "POST", "/v1/messages?beta=true", "main"))).toBe(true);
  });

  it("is not a request the mock left without a stream, even a POST to /v1/messages", () => {
    expect(isModelRequest(entry(1, "POST", "/v1/messages", null))).toBe(false);
  });

  it("is not another method or path, whatever its stream field says", () => {
    expect(isModelRequest(entry(1, "GET", "/v1/messages", "main"))).toBe(false);
    expect(isModelRequest(entry(2, "POST", "/v1/messages/count_tokens", "main"))).toBe(false);
    expect(isModelRequest(entry(3, "HEAD", "/", "main"))).toBe(false);
  });
});

describe("streamRequests", () => {
  it("keeps one stream's model requests in log order and drops everything else", () => {
    const log = [
      entry(1, "POST", "/v1/messages", "main"),
      entry(2, "POST", "/v1/messages", "sub"),
      entry(3, "GET", "/v1/messages", "main"),
      entry(4, "POST", "/v1/messages", null),
      entry(5, "POST", "/v1/messages/count_tokens", "main"),
      entry(6, "POST", "/v1/messages?beta=true", "main"),
    ];
    expect(streamRequests(log, "main").map((r) => r.seq)).toEqual([1, 6]);
    expect(streamRequests(log, "sub").map((r) => r.seq)).toEqual([2]);
  });
});
