// The MCP servers a plan gives its sessions: the --mcp-config file the harness writes, the fixture server it names
// (started here with the MCP SDK's own client, as claude starts it), what the server logs, and the plans refused.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";
import { mcpServersProblem, writeMcpConfig } from "../../harness/mcp-servers.ts";
import { loadMcpEvents } from "../../harness/recordings.ts";
import { runLayout } from "../../harness/run-layout.ts";
import { interactiveArgs } from "../../harness/isolation.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-mcp-servers-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const probe = { flags: ["--mcp-config", "--model"] };

describe("the --mcp-config file and the fixture server it starts", () => {
  it("starts a real MCP server that reads nothing for its delay, then lists and answers its tools, logging each message", async () => {
    const run = runLayout(path.join(root, "run1"));
    writeMcpConfig(run, [{ name: "slowfix", tools: ["lookup", "other"], startupDelayMs: 600 }]);
    const config = JSON.parse(fs.readFileSync(run.mcpConfig, "utf8")) as { mcpServers: Record<string, { type: string; command: string; args: string[] }> };
    const entry = config.mcpServers.slowfix!;
    expect(entry.type).toBe("stdio");
    const client = new Client({ name: "test", version: "1.0.0" });
    const began = performance.timeOrigin + performance.now();
    await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args }));
    const connectedAt = performance.timeOrigin + performance.now();
    const { tools } = await client.listTools();
    const answer = await client.callTool({ name: "lookup", arguments: {} });
    await client.close();
    expect(connectedAt - began).toBeGreaterThanOrEqual(600);
    expect(tools.map((t) => t.name)).toEqual(["lookup", "other"]);
    expect(answer.content).toEqual([{ type: "text", text: "slowfix/lookup answered" }]);
    const events = loadMcpEvents(run.root);
    expect(events.map((e) => e.method ?? e.event).filter((e) => e !== "stdin-closed" && e !== "signal")).toEqual(["started", "ready", "initialize", "notifications/initialized", "tools/list", "tools/call", "tool-call"]);
    expect(events.every((e) => e.server === "slowfix" && e.pid === events[0]!.pid)).toBe(true);
    expect(events[1]!.t - events[0]!.t).toBeGreaterThanOrEqual(600);
  });

  it("passes the file to every session as --mcp-config, before the options that end a list option", () => {
    const args = interactiveArgs("/d.log", { flags: ["--mcp-config", "--debug-file"] }, { mode: "skip-permissions", args: [], why: "" }, { sources: ["user"], flagFile: null, mcpConfig: "/run/mcp-config.json" });
    expect(args.slice(-4)).toEqual(["--mcp-config", "/run/mcp-config.json", "--debug-file", "/d.log"]);
    expect(interactiveArgs("/d.log", { flags: ["--mcp-config"] }, { mode: "skip-permissions", args: [], why: "" })).not.toContain("--mcp-config");
  });

  it("loads no events for a run without MCP servers", () => {
    expect(loadMcpEvents(path.join(root, "none"))).toEqual([]);
  });
});

describe("mcpServersProblem", () => {
  const server = { name: "slowfix", tools: ["lookup"], startupDelayMs: 0 };
  it("accepts no servers anywhere, and servers on a headless run of a release with --mcp-config", () => {
    expect(mcpServersProblem([], { flags: [] }, "sdk")).toBeNull();
    expect(mcpServersProblem([server], probe, "headless")).toBeNull();
  });
  it("refuses a release without --mcp-config, the sdk driver, names claude could not use, and duplicates", () => {
    expect(mcpServersProblem([server], { flags: [] }, "headless")).toMatch(/no --mcp-config flag/);
    expect(mcpServersProblem([server], probe, "sdk")).toMatch(/sdk driver does not pass them/);
    expect(mcpServersProblem([{ ...server, tools: ["a b"] }], probe, "headless")).toMatch(/"a b"/);
    expect(mcpServersProblem([server, server], probe, "headless")).toMatch(/same name/);
  });
});
