// The prompt-cache model against each documented rule, then replayed over request bodies recorded from real releases.
//
// The recorded bodies are fixtures already in the repository: test/fixtures/runs/*/mock/requests/*.body, written byte
// for byte by the mock while `ccrepro bisect subagent-resume-notification-header --old 2.1.281 --new 2.1.332` and
// `ccrepro run … --claude 2.1.251` drove real releases (see test/fixtures/runs/README.md), then pruned to the two
// requests around the subagent's resume (6 before, 8 after) with machine paths replaced.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  BYTES_PER_TOKEN,
  LOOKBACK_BLOCKS,
  applyRequest,
  cacheUsage,
  emptyCacheState,
  minCacheableTokens,
  promptBlocks,
  simulateConversation,
  type CacheBody,
  type CacheRequest,
} from "../../mock-api/prompt-cache.ts";

// A text block of about n tokens (by the model's estimate), optionally a breakpoint.
const text = (label: string, tokens: number, cache?: "5m" | "1h") => ({
  type: "text",
  text: label.padEnd(tokens * BYTES_PER_TOKEN, "."),
  ...(cache ? { cache_control: cache === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" } } : {}),
});
const tool = (name: string) => ({ name, description: `the ${name} tool`, input_schema: { type: "object" } });
const MIN = 60_000;

function body(messages: CacheBody["messages"], extra: Partial<CacheBody> = {}): CacheBody {
  return { model: "claude-sonnet-4-5", tools: [tool("Bash"), tool("Read")], system: [text("system", 1500, "5m")], messages, ...extra };
}
const at = (receivedAt: number, b: CacheBody): CacheRequest => ({ body: b, receivedAt });
const user = (...content: object[]) => ({ role: "user", content });
const assistant = (...content: object[]) => ({ role: "assistant", content });

describe("prompt-cache: breakpoints write their prefix, later requests read it", () => {
  it("a breakpoint writes the prefix up to and including its block; the next request reads it", () => {
    const first = body([user(text("hello", 10, "5m"))]);
    const second = body([user(text("hello", 10)), assistant(text("hi", 5)), user(text("again", 10, "5m"))]);
    const [a, b] = simulateConversation([at(0, first), at(1000, second)]);
    expect(a!.read.blocks).toBe(0);
    expect(a!.written.end?.path).toBe("messages[0].content[0]");
    expect(a!.usage).toEqual({ input_tokens: 0, cache_creation_input_tokens: a!.total.tokens, cache_read_input_tokens: 0 });
    expect(b!.read.end?.path).toBe("messages[0].content[0]");
    expect(b!.read.tokens).toBe(a!.written.tokens);
    expect(b!.stop).toBe("none");
    expect(b!.usage.cache_read_input_tokens + b!.usage.cache_creation_input_tokens + b!.usage.input_tokens).toBe(b!.total.tokens);
  });

  it("reads up to the last entry before the first difference, and names the stop", () => {
    // The previous request wrote at system[0] and at its last message; the change sits in between.
    const first = body([user(text("one", 10)), assistant(text("two", 10)), user(text("three", 10, "5m"))]);
    const changed = body([user(text("ONE", 10)), assistant(text("two", 10)), user(text("three", 10)), assistant(text("four", 5)), user(text("five", 5, "5m"))]);
    const [, b] = simulateConversation([at(0, first), at(1000, changed)]);
    expect(b!.firstDifference?.path).toBe("messages[0].content[0]");
    expect(b!.read.end?.path).toBe("system[0]");
    expect(b!.stop).toBe("changed-block");

    const later = body([user(text("one", 10)), assistant(text("TWO", 10)), user(text("three", 10)), assistant(text("four", 5)), user(text("five", 5, "5m"))]);
    const [, c] = simulateConversation([at(0, first), at(1000, later)]);
    expect(c!.firstDifference?.path).toBe("messages[1].content[0]");
    // messages[0] is identical but nothing was written there: it is paid again.
    expect(c!.read.end?.path).toBe("system[0]");
    expect(c!.stop).toBe("no-breakpoint-before-change");
  });

  it("moving a breakpoint does not change the prompt: cache_control is not part of a block's key", () => {
    const a = promptBlocks(body([user(text("x", 10, "5m"))]));
    const b = promptBlocks(body([user(text("x", 10))]));
    expect(a.map((x) => x.prefixKey)).toEqual(b.map((x) => x.prefixKey));
    expect(promptBlocks(body([user({ text: "x", type: "text" })]))[3]!.prefixKey).toBe(promptBlocks(body([{ role: "user", content: "x" }]))[3]!.prefixKey);
  });

  it("one message of two blocks is not two messages of one block", () => {
    const one = promptBlocks(body([user(text("a", 10), text("b", 10))]));
    const two = promptBlocks(body([user(text("a", 10)), user(text("b", 10))]));
    expect(one[4]!.prefixKey).not.toBe(two[4]!.prefixKey);
  });
});

describe("prompt-cache: the lookback from a breakpoint", () => {
  const history = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? user(text(`u${i}`, 5)) : assistant(text(`a${i}`, 5))));

  it(`finds an entry up to ${LOOKBACK_BLOCKS} blocks before the breakpoint, not one further`, () => {
    const base = history(3);
    const first = body([...base.slice(0, 2), user(text("u2", 5, "5m"))]);
    // The previous entry ends at messages[2]; the new breakpoint sits exactly LOOKBACK_BLOCKS blocks later.
    const reach = body([...base, ...history(LOOKBACK_BLOCKS + 1).slice(1, LOOKBACK_BLOCKS), user(text("last", 5, "5m"))]);
    const [, inReach] = simulateConversation([at(0, first), at(1000, reach)]);
    expect(inReach!.read.end?.path).toBe("messages[2].content[0]");

    const beyond = body([...base, ...history(LOOKBACK_BLOCKS + 2).slice(1, LOOKBACK_BLOCKS + 1), user(text("last", 5, "5m"))]);
    const [, tooFar] = simulateConversation([at(0, first), at(1000, beyond)]);
    expect(tooFar!.read.end?.path).toBe("system[0]");
    expect(tooFar!.stop).toBe("out-of-lookback");
  });
});

describe("prompt-cache: limits", () => {
  it("more than 4 breakpoints: the API refuses the request, nothing is read or written", () => {
    const five = body([user(text("a", 10, "5m"), text("b", 10, "5m"), text("c", 10, "5m"), text("d", 10, "5m"))]);
    const { result } = applyRequest(emptyCacheState(), at(0, five));
    expect(result.breakpoints).toHaveLength(5);
    expect(result.rejected).toBe("too-many-breakpoints");
    expect(result.usage.cache_creation_input_tokens).toBe(0);
    const four = body([user(text("a", 10, "5m"), text("b", 10, "5m"), text("c", 10, "5m"))]);
    expect(applyRequest(emptyCacheState(), at(0, four)).result.rejected).toBeNull();
  });

  it("a prefix below the model's minimum is not written, and the next request says so", () => {
    const short = (extra: CacheBody["messages"]): CacheBody => ({ model: "claude-sonnet-4-5", system: [text("short system", 100, "5m")], messages: [user(text("hi", 10)), ...extra] });
    const [a, b] = simulateConversation([at(0, short([])), at(1000, short([assistant(text("x", 5)), user(text("y", 5, "5m"))]))]);
    expect(a!.written.blocks).toBe(0);
    expect(a!.usage.input_tokens).toBe(a!.total.tokens);
    expect(b!.read.blocks).toBe(0);
    expect(b!.stop).toBe("too-short");
  });

  it("takes the documented minimum per model and a stated default for unknown names", () => {
    expect(minCacheableTokens("claude-sonnet-4-5-20250929")).toBe(1024);
    expect(minCacheableTokens("claude-opus-4-5")).toBe(4096);
    expect(minCacheableTokens("claude-opus-4-1-20250805")).toBe(1024);
    expect(minCacheableTokens("claude-3-5-haiku-20241022")).toBe(2048);
    expect(minCacheableTokens("claude-haiku-4-5")).toBe(4096);
    expect(minCacheableTokens("mock-model")).toBe(1024);
    // 1500 tokens of system prompt: cacheable on Sonnet 4.5, too short on Haiku 4.5.
    const haiku = { ...body([user(text("q", 5))]), model: "claude-haiku-4-5" };
    expect(applyRequest(emptyCacheState(), at(0, haiku)).result.written.blocks).toBe(0);
  });
});

describe("prompt-cache: TTL", () => {
  const first = body([user(text("q", 5, "5m"))]);
  const next = body([user(text("q", 5)), assistant(text("a", 5)), user(text("q2", 5, "5m"))]);

  it("a 5m entry is read 4:59 later and has expired at 5:00", () => {
    expect(simulateConversation([at(0, first), at(5 * MIN - 1, next)])[1]!.read.end?.path).toBe("messages[0].content[0]");
    const late = simulateConversation([at(0, first), at(5 * MIN, next)])[1]!;
    expect(late.read.blocks).toBe(0);
    expect(late.stop).toBe("expired");
  });

  it("a read refreshes the lifetime", () => {
    const third = body([user(text("q", 5)), assistant(text("a", 5)), user(text("q2", 5)), assistant(text("b", 5)), user(text("q3", 5, "5m"))]);
    // At 4 min the second request reads messages[0] and writes messages[2]; at 8 min the system entry and both are alive.
    const runs = simulateConversation([at(0, first), at(4 * MIN, next), at(8 * MIN, third)]);
    expect(runs[2]!.read.end?.path).toBe("messages[2].content[0]");
  });

  it("a 1h entry outlives five minutes", () => {
    const hour = body([user(text("q", 5, "1h"))], { system: [text("system", 1500, "1h")] });
    const after = body([user(text("q", 5)), assistant(text("a", 5)), user(text("q2", 5, "1h"))], { system: [text("system", 1500, "1h")] });
    expect(simulateConversation([at(0, hour), at(30 * MIN, after)])[1]!.read.end?.path).toBe("messages[0].content[0]");
  });
});

describe("prompt-cache: invalidation order tools → system → messages", () => {
  const first = body([user(text("q", 5, "5m"))]);
  it("a changed tool invalidates everything", () => {
    const b = simulateConversation([at(0, first), at(1000, body([user(text("q", 5, "5m"))], { tools: [tool("Bash"), tool("Write")] }))])[1]!;
    expect(b.firstDifference?.path).toBe("tools[1]");
    expect(b.read.blocks).toBe(0);
  });
  it("a changed system block keeps nothing of the messages", () => {
    const withTools = (system: object[], m: CacheBody["messages"]) => body(m, { tools: [{ ...tool("Bash"), description: "d".repeat(6000), cache_control: { type: "ephemeral" } }], system });
    const a = withTools([text("system", 1500, "5m")], [user(text("q", 5, "5m"))]);
    const b = withTools([text("SYSTEM", 1500, "5m")], [user(text("q", 5, "5m"))]);
    const [, r] = simulateConversation([at(0, a), at(1000, b)]);
    expect(r!.firstDifference?.path).toBe("system[0]");
    expect(r!.read.end?.path).toBe("tools[0]");
  });
  it("a changed tool_choice or model keeps the system but not the messages / nothing", () => {
    const [, r] = simulateConversation([at(0, first), at(1000, body([user(text("q", 5, "5m"))], { tool_choice: { type: "any" } }))]);
    expect(r!.read.end?.path).toBe("system[0]");
    const [, m] = simulateConversation([at(0, first), at(1000, body([user(text("q", 5, "5m"))], { model: "claude-opus-4-1" }))]);
    expect(m!.read.blocks).toBe(0);
  });
});

describe("prompt-cache: cacheUsage is what the mock would bill for one request", () => {
  it("bills read, creation and the rest from the given state", () => {
    const first = body([user(text("q", 5, "5m"))]);
    const { state, result } = applyRequest(emptyCacheState(), at(0, first));
    const next = at(1000, body([user(text("q", 5)), assistant(text("a", 5)), user(text("q2", 5, "5m"))]));
    const usage = cacheUsage(state, next);
    expect(usage.cache_read_input_tokens).toBe(result.written.tokens);
    expect(usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(cacheUsage(emptyCacheState(), next).cache_read_input_tokens).toBe(0);
  });
});

const fixtures = path.join(import.meta.dirname, "..", "fixtures", "runs");
const recorded = (run: string, seq: number): CacheRequest => {
  const dir = path.join(fixtures, run, "mock");
  const entry = fs.readFileSync(path.join(dir, "index.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { kind: string; seq: number; receivedAt: number }).find((e) => e.kind === "request" && e.seq === seq)!;
  return { body: JSON.parse(fs.readFileSync(path.join(dir, "requests", `${String(seq).padStart(6, "0")}.body`), "utf8")) as CacheBody, receivedAt: entry.receivedAt };
};

describe("prompt-cache: recorded requests of real releases around a subagent's resume", () => {
  it("2.1.281: the header flip in messages[4] makes the resumed request read only tools and system", () => {
    const [before, after] = simulateConversation([recorded("notification-changed-2.1.281", 6), recorded("notification-changed-2.1.281", 8)]);
    expect(before!.breakpoints.map((b) => b.path)).toEqual(["system[1]", "system[2]", "messages[6].content[0]"]);
    expect(before!.written.end?.path).toBe("messages[6].content[0]");
    expect(after!.firstDifference?.path).toBe("messages[4].content[0]");
    expect(after!.read.end?.path).toBe("system[2]");
    expect(after!.read.tokens).toBeLessThan(before!.written.tokens);
    expect(after!.stop).toBe("no-breakpoint-before-change");
  });

  it("2.1.332: the resumed request reads everything the previous one wrote", () => {
    const [before, after] = simulateConversation([recorded("notification-green-2.1.332", 6), recorded("notification-green-2.1.332", 8)]);
    expect(after!.firstDifference).toBeNull();
    expect(after!.read.tokens).toBe(before!.written.tokens);
    expect(after!.stop).toBe("none");
  });
});

describe("prompt-cache: Claude Code's billing header is not prompt", () => {
  const header = (hash: string) => ({ type: "text", text: `x-anthropic-billing-header: cc_version=2.1.69.${hash}; cc_entrypoint=sdk-cli; cch=00000;` });
  it("a changed billing header in system[0] does not stop the read; a changed system[1] does", () => {
    const first = body([user(text("q", 5, "5m"))], { system: [header("109"), text("system", 1500, "5m")] });
    const next = body([user(text("q", 5, "5m"))], { system: [header("8ca"), text("system", 1500, "5m")] });
    const [, r] = simulateConversation([at(0, first), at(1000, next)]);
    expect(r!.read.blocks).toBe(r!.blocks.length);
    expect(r!.blocks.map((b) => b.path)).not.toContain("system[0]");
    const changed = body([user(text("q", 5, "5m"))], { system: [header("8ca"), text("SYSTEM", 1500, "5m")] });
    expect(simulateConversation([at(0, first), at(1000, changed)])[1]!.firstDifference?.path).toBe("system[1]");
  });
});
