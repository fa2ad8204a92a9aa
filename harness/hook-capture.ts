// Claude Code hook settings that record every listed hook event into the run directory.
import { fileURLToPath } from "node:url";
import type { RunLayout } from "./run-layout.ts";

const RECORDER = fileURLToPath(new URL("./hook-recorder.sh", import.meta.url));

// Events whose entries take a tool-name matcher; the others ignore it.
const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"]);

const quote = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

export function hookSettings(run: RunLayout, events: string[]): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const event of events) {
    const command = [RECORDER, event, run.hooksDir, run.hooksLog].map(quote).join(" ");
    const entry: Record<string, unknown> = { hooks: [{ type: "command", command, timeout: 10 }] };
    if (TOOL_EVENTS.has(event)) entry.matcher = "*";
    settings[event] = [entry];
  }
  return settings;
}
