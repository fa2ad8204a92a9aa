// MCP servers a scenario gives its sessions: ccrepro's own stdio MCP server, a real one built on the official MCP SDK,
// passed to every session with `--mcp-config`. Its start-up delay is the knob: how long it takes before it answers
// `initialize`, as a slow real server does.
import type { McpServerPlan } from "../harness/plan.ts";

/** What one MCP server offers and how long it takes to start. */
export interface McpServerOptions {
  /** The tools it offers (claude calls them `mcp__<server>__<tool>`); each answers `"<server>/<tool> answered"`. Default `["ping"]`. */
  tools?: readonly string[];
  /** How long the server waits before it reads its first message (`initialize`). Default 0. */
  startupDelayMs?: number;
}

/**
 * A stdio MCP server every session of the run gets (`--mcp-config`): ccrepro's fixture server, built on
 * `@modelcontextprotocol/sdk`. It logs what it sees (started, ready, each request by method, tool calls), which a
 * check reads with `mcpEventsOf(rec, name)`; `initOf(rec, s).mcp_servers` has claude's own view of it.
 *
 * @example mcpServers: (p) => [mcpServer("slowdb", { tools: ["lookup"], startupDelayMs: p.delayMs })]
 */
export function mcpServer(name: string, options: McpServerOptions = {}): McpServerPlan {
  return { name, tools: [...(options.tools ?? ["ping"])], startupDelayMs: options.startupDelayMs ?? 0 };
}
