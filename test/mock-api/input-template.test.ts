import { describe, expect, it } from "vitest";
import { fillInputTemplates } from "../../mock-api/input-template.ts";
import type { MessagesRequest } from "../../mock-api/messages-request.ts";

const requestWithResults = (...results: unknown[]): MessagesRequest => ({
  model: "m",
  messages: results.map((content, i) => ({
    role: "user",
    content: [{ type: "tool_result", tool_use_id: `t${i}`, content }],
  })),
});

describe("tool input templates", () => {
  it("quotes the first group from the newest tool result that matches, at any depth", () => {
    const request = requestWithResults(
      "agentId: aOLD (internal ID)",
      [{ type: "text", text: "Async agent launched.\nagentId: a3a4ada757a4ceb84 (internal ID)" }],
    );
    const input = { to: "{{toolResult:agentId: ([a-z0-9]+)}}", nested: ["x {{toolResult:agentId: ([a-z0-9]+)}} y"], n: 3 };
    expect(fillInputTemplates(input, request)).toEqual({ to: "a3a4ada757a4ceb84", nested: ["x a3a4ada757a4ceb84 y"], n: 3 });
  });

  it("leaves a placeholder nothing matches as written, and inputs without one untouched", () => {
    const request = requestWithResults("no id here");
    expect(fillInputTemplates({ to: "{{toolResult:agentId: (\\w+)}}" }, request)).toEqual({ to: "{{toolResult:agentId: (\\w+)}}" });
    const plain = { command: "echo {{not a template}}" };
    expect(fillInputTemplates(plain, request)).toBe(plain);
  });
});
