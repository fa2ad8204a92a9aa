// `ccrepro mock --strict` over real HTTP: the API's 400 for an orphaned tool_use, 200 for a conforming request.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa, type ResultPromise } from "execa";
import { afterEach, describe, expect, it } from "vitest";

const CLI = new URL("../../bin/ccrepro.mjs", import.meta.url).pathname;
const started: { child: ResultPromise; logDir: string }[] = [];
afterEach(async () => {
  for (const { child, logDir } of started.splice(0)) {
    child.kill("SIGINT");
    await child.catch(() => undefined);
    fs.rmSync(logDir, { recursive: true, force: true });
  }
});

// Starts the mock and resolves with its URL once it printed it.
async function serveMock(...flags: string[]): Promise<string> {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-mock-strict-"));
  const child = execa("node", [CLI, "mock", "--log-dir", logDir, ...flags], { reject: false });
  started.push({ child, logDir });
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = /mock Messages API at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    void child.then((result) => reject(new Error(`mock exited before serving: ${result.stderr}`)));
  });
}

const post = (url: string, messages: unknown[]) =>
  fetch(`${url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "test", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ model: "claude-test", max_tokens: 10, messages }),
  });

const orphaned = [
  { role: "user", content: "run ls" },
  { role: "assistant", content: [{ type: "tool_use", id: "toolu_orphan", name: "Bash", input: { command: "ls" } }] },
  { role: "user", content: "are you there?" },
];
const answered = [
  orphaned[0],
  orphaned[1],
  { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_orphan", content: "a.txt" }, { type: "text", text: "are you there?" }] },
];

describe("ccrepro mock --strict", { timeout: 60_000 }, () => {
  it("answers an orphaned tool_use with the API's 400 invalid_request_error and a conforming request with 200", async () => {
    const url = await serveMock("--strict");
    const rejected = await post(url, orphaned);
    expect(rejected.status).toBe(400);
    expect(await rejected.json()).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: expect.stringMatching(/^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_orphan\./) },
    });
    const accepted = await post(url, answered);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ type: "message", role: "assistant" });
  });

  it("without --strict answers the orphaned tool_use as scripted", async () => {
    const url = await serveMock();
    expect((await post(url, orphaned)).status).toBe(200);
  });
});
