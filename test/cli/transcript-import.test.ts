import { describe, expect, it } from "vitest";
import { readTranscript, scenarioFromTranscript } from "../../cli/transcript-import.ts";

const lines = (...entries: unknown[]) => entries.map((e) => JSON.stringify(e)).join("\n");

describe("a Claude Code transcript as a scenario", () => {
  // The shape both 2.1.112 (cli.js) and 2.1.332 (native) write: user and assistant entries among others; an assistant
  // message streamed in pieces repeats its id.
  const transcript = lines(
    { type: "queue-operation", operation: "enqueue" },
    { type: "user", version: "2.1.332", message: { role: "user", content: "FIRST do it" } },
    { type: "attachment", attachment: {} },
    { type: "assistant", message: { id: "m1", role: "assistant", content: [{ type: "thinking", thinking: "hm", signature: "sig" }] } },
    { type: "assistant", message: { id: "m1", role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }] } },
    { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "x" }] } },
    { type: "assistant", message: { id: "m2", role: "assistant", content: [{ type: "text", text: "done" }] } },
    { type: "user", isMeta: true, message: { role: "user", content: "<local-command-caveat>" } },
    { type: "user", message: { role: "user", content: [{ type: "text", text: "SECOND more" }] } },
    { type: "assistant", message: { id: "m3", role: "assistant", content: [{ type: "text", text: "more" }] } },
  );

  it("takes the typed prompts as turns and each assistant message, pieces merged, as a reply", () => {
    expect(readTranscript("t.jsonl", transcript)).toEqual({
      era: "claude 2.1.332 (the native era, from 2.1.113)",
      prompts: ["FIRST do it", "SECOND more"],
      replies: [
        [{ type: "thinking", thinking: "hm", signature: "sig" }, { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }],
        [{ type: "text", text: "done" }],
        [{ type: "text", text: "more" }],
      ],
    });
  });

  it("writes -p turns that resume each other, and a check that needs every assistant turn asked for", () => {
    const text = scenarioFromTranscript(readTranscript("t.jsonl", transcript), { name: "my-bug", from: "t.jsonl" });
    expect(text).toContain(`print(s2, "SECOND more", { timeout: 90_000, resume: s1 }),`);
    expect(text).toContain(`const MARKER = "FIRST do it";`);
    expect(text).toMatch(/^import \{ [^}]+ \} from "ccrepro";$/m);
  });

  it("refuses a file that is not a transcript, or one of a format it does not read, naming the file and the line", () => {
    expect(() => readTranscript("t.jsonl", "{}\nnot json")).toThrow("t.jsonl:2: not a JSON line, so not a Claude Code transcript");
    expect(() => readTranscript("t.jsonl", lines({ type: "summary", summary: "x" }))).toThrow("t.jsonl: no user or assistant entries with a message");
    expect(() => readTranscript("t.jsonl", lines({ type: "user", message: { role: "user", content: "a" } }, { type: "assistant", message: { content: { text: "b" } } }))).toThrow(
      "t.jsonl:2: an assistant entry whose message.content is neither text nor a list of blocks: a transcript format this ccrepro does not read",
    );
    expect(() => readTranscript("t.jsonl", "[1]")).toThrow("t.jsonl:1: a line that is not a JSON object");
  });

  it("names the era it read, from the entries' version", () => {
    const one = (version?: string) => readTranscript("t.jsonl", lines({ type: "user", ...(version ? { version } : {}), message: { role: "user", content: "hi" } })).era;
    expect(one("2.1.112")).toBe("claude 2.1.112 (the cli.js era, to 2.1.112)");
    expect(one("1.0.128")).toBe("claude 1.0.128 (the cli.js era, to 2.1.112)");
    expect(one("2.1.113")).toBe("claude 2.1.113 (the native era, from 2.1.113)");
    expect(one()).toBe("a release that wrote no version in its entries");
  });
});
