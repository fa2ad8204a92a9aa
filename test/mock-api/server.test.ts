import { describe, expect, it } from "vitest";
import { MockApiError } from "../../mock-api/errors.ts";
import { startMockServer } from "../../mock-api/server.ts";
import { mockScriptSchema } from "../../mock-api/script.ts";
import { startTestMock } from "./mock-fixture.ts";

describe("startMockServer", () => {
  it("listens on 127.0.0.1 and reports the real port of an ephemeral one", async () => {
    const { mock } = await startTestMock();
    expect(mock.port).toBeGreaterThan(0);
    expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
    const response = await fetch(`${mock.url}/api/hello`, { method: "HEAD" });
    expect(response.status).toBe(200);
  });

  it("rejects a busy port with PORT_IN_USE and what to do about it", async () => {
    const { mock } = await startTestMock();
    const error = await startMockServer({ script: mockScriptSchema.parse({}), port: mock.port, logDir: mock.logDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockApiError);
    expect((error as MockApiError).code).toBe("PORT_IN_USE");
    expect((error as Error).message).toBe(`port ${mock.port} on 127.0.0.1 is already in use: pick another port or omit --port`);
  });

  it("can be closed twice", async () => {
    const { mock } = await startTestMock();
    await mock.close();
    await expect(mock.close()).resolves.toBeUndefined();
    await expect(fetch(`${mock.url}/`)).rejects.toThrow();
  });
});
