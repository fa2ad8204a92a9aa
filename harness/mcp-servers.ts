// The MCP servers a run plan gives its sessions: one `--mcp-config` file naming ccrepro's fixture server once per
// planned server (what the servers log is read back by loadRecordings).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BinaryProbe } from "../releases/capabilities.ts";
import type { McpServerPlan } from "./plan.ts";
import type { RunLayout } from "./run-layout.ts";

const FIXTURE_SERVER = fileURLToPath(new URL("./mcp-fixture-server.mjs", import.meta.url));

// Names claude accepts in a config and uses in `mcp__<name>__<tool>`; the log file is named after the server too.
const NAME = /^[A-Za-z0-9_-]+$/;

// Why the plan's servers cannot be given to this release or driver, or null. Refused before any session starts.
export function mcpServersProblem(servers: readonly McpServerPlan[], probe: Pick<BinaryProbe, "flags">, driver: string): string | null {
  if (servers.length === 0) return null;
  const bad = servers.flatMap((s) => [s.name, ...s.tools]).filter((name) => !NAME.test(name));
  if (bad.length > 0) return `MCP server and tool names must be letters, digits, _ and - (got ${bad.map((b) => JSON.stringify(b)).join(", ")})`;
  if (new Set(servers.map((s) => s.name)).size !== servers.length) return "two MCP servers of the plan have the same name";
  if (driver !== "headless") return `MCP servers are passed as --mcp-config to headless, print and terminal sessions; the ${driver} driver does not pass them yet`;
  if (!probe.flags.includes("--mcp-config")) return "the plan gives its sessions MCP servers, but the release has no --mcp-config flag";
  return null;
}

// The `--mcp-config` file: each server is the fixture run by this Node, logging into the run directory.
export function writeMcpConfig(run: RunLayout, servers: readonly McpServerPlan[]): void {
  fs.mkdirSync(run.mcpLogDir, { recursive: true });
  const mcpServers = Object.fromEntries(
    servers.map((s) => [
      s.name,
      {
        type: "stdio",
        command: process.execPath,
        args: [FIXTURE_SERVER, "--name", s.name, "--delay", String(s.startupDelayMs), "--log", mcpLogFile(run, s.name), ...s.tools.flatMap((t) => ["--tool", t])],
      },
    ]),
  );
  fs.writeFileSync(run.mcpConfig, `${JSON.stringify({ mcpServers }, null, 2)}\n`);
}

// Where a server logs: `mcp/<name>.jsonl` (loadRecordings reads every file there).
const mcpLogFile = (run: RunLayout, name: string) => path.join(run.mcpLogDir, `${name}.jsonl`);
