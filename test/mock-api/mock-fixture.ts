// Starts a mock server on an ephemeral port with a fresh log directory, and an SDK client pointed at it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { afterEach } from "vitest";
import { loadRequestLog } from "../../harness/recordings.ts";
import { mockScriptSchema, type MockScriptInput } from "../../mock-api/script.ts";
import { startMockServer, type MockServer } from "../../mock-api/server.ts";

const started: MockServer[] = [];

afterEach(async () => {
  const mocks = started.splice(0);
  await Promise.all(mocks.map((mock) => mock.close()));
  for (const mock of mocks) fs.rmSync(mock.logDir, { recursive: true, force: true });
});

export async function startTestMock(script: MockScriptInput = {}) {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-mock-test-"));
  const mock = await startMockServer({ script: mockScriptSchema.parse(script), logDir });
  started.push(mock);
  // Retries off: each scripted fault must reach the test as it was sent.
  const client = new Anthropic({ baseURL: mock.url, apiKey: "test", maxRetries: 0 });
  return { mock, client, readLog: () => loadRequestLog(logDir) };
}

export const userMessage = (text: string) => [{ role: "user" as const, content: text }];
