// A real stdio MCP server (the official @modelcontextprotocol/sdk) that a run's claude starts from the run's
// --mcp-config: it takes --delay ms before it reads stdin at all (a server that is slow to initialise, as a real
// one loading its index or logging in is), then offers the tools it was given, each answering with a marker text.
// Everything it sees is appended to --log as one JSON line each: {t, event, ...}, t on the recording clock.
// Usage: node mcp-fixture-server.mjs --name NAME --delay MS --log FILE --tool TOOL [--tool TOOL ...]
import fs from "node:fs";
import { parseArgs } from "node:util";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const { values } = parseArgs({
  options: { name: { type: "string" }, delay: { type: "string", default: "0" }, log: { type: "string" }, tool: { type: "string", multiple: true, default: [] } },
});
const name = values.name ?? "fixture";
const delayMs = Number(values.delay);
const now = () => performance.timeOrigin + performance.now();
// Never fail the server over its own log: a recorder error must not change what claude sees.
const log = (event, extra = {}) => {
  if (!values.log) return;
  try {
    fs.appendFileSync(values.log, `${JSON.stringify({ t: now(), event, pid: process.pid, ...extra })}\n`);
  } catch {
    // The run directory is gone: nothing to record into.
  }
};

log("started", { name, delayMs, tools: values.tool });
const server = new McpServer({ name, version: "1.0.0" });
for (const tool of values.tool) {
  server.registerTool(tool, { description: `The ${name} fixture's ${tool} tool: answers with a fixed marker text.` }, async () => {
    log("tool-call", { tool });
    return { content: [{ type: "text", text: `${name}/${tool} answered` }] };
  });
}
process.stdin.on("end", () => log("stdin-closed"));
process.on("SIGTERM", () => {
  log("signal", { signal: "SIGTERM" });
  process.exit(0);
});

await new Promise((resolve) => setTimeout(resolve, delayMs));
const transport = new StdioServerTransport();
await server.connect(transport);
// Every message claude sends, by method (initialize, tools/list, tools/call, notifications/…), after the SDK has it.
const handle = transport.onmessage;
transport.onmessage = (message, extra) => {
  log("request", { method: "method" in message ? message.method : null, id: "id" in message ? message.id : null });
  handle?.(message, extra);
};
log("ready");
