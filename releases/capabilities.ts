// What a binary supports, read from the binary itself: its version, its command-line flags, its hook events.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { z } from "zod";
import { probeVersion, QUIET_ENV } from "./binary-info.ts";
import { cacheDir } from "./release-cache.ts";
import type { ResolvedClaude } from "./resolve.ts";

const probeSchema = z.object({
  sha256: z.string(),
  reportedVersion: z.string().nullable(),
  flags: z.array(z.string()),
  hookEvents: z.array(z.string()),
});
export type BinaryProbe = z.infer<typeof probeSchema>;

// Registering these only to log them changes the session's behaviour (they replace built-in handling).
const BEHAVIOUR_CHANGING_HOOKS = /worktree|elicitation/i;

// The release's own list of hook events: the string array in its bundle that names them all.
export function hookEventsInBundle(bundle: Buffer): string[] {
  const anchor = bundle.indexOf('"UserPromptSubmit"');
  let best: string[] = [];
  for (let at = anchor; at !== -1; at = bundle.indexOf('"UserPromptSubmit"', at + 1)) {
    const start = bundle.lastIndexOf("[", at);
    const end = bundle.indexOf("]", at);
    if (start === -1 || end === -1 || at - start > 2000 || end - at > 2000) continue;
    const text = bundle.subarray(start, end + 1).toString("latin1");
    if (!/^\[\s*"[A-Za-z]+"(\s*,\s*"[A-Za-z]+")*\s*\]$/.test(text)) continue;
    const names = JSON.parse(text) as string[];
    if (names.includes("PreToolUse") && names.includes("Stop") && names.length > best.length) best = names;
  }
  return best.filter((name) => !BEHAVIOUR_CHANGING_HOOKS.test(name));
}

function helpFlags(help: string): string[] {
  return [...new Set([...help.matchAll(/(?:^|\s)(--[a-z][a-z0-9-]*)/g)].map((m) => m[1]!))].sort();
}

const probeEnv = (home: string) => ({
  HOME: home,
  CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
  TMPDIR: home,
  PATH: [path.dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
  ...QUIET_ENV,
});

// A damaged or outdated cache entry is no entry: the binary is probed again.
function readCachedProbe(file: string): BinaryProbe | null {
  try {
    const cached = probeSchema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
    return cached.success ? cached.data : null;
  } catch {
    return null;
  }
}

const PROBE_TIMEOUT_MS = 30_000;

// Probes once per binary (keyed by its sha256) and caches the answer beside the release cache.
export async function probeBinary(claude: ResolvedClaude): Promise<BinaryProbe> {
  const cacheFile = path.join(cacheDir(), "probes", `${claude.sha256}.json`);
  const cached = readCachedProbe(cacheFile);
  if (cached) return cached;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-probe-"));
  try {
    const env = probeEnv(home);
    const [version, help] = await Promise.all([
      probeVersion(claude.command, claude.args, env, PROBE_TIMEOUT_MS),
      execa(claude.command, [...claude.args, "--help"], { env, extendEnv: false, reject: false, timeout: PROBE_TIMEOUT_MS, stdin: "ignore" }),
    ]);
    const bundle = fs.readFileSync(claude.era === "js" ? claude.args[0]! : claude.executablePath);
    const probe: BinaryProbe = {
      sha256: claude.sha256,
      reportedVersion: version.version,
      flags: helpFlags(String(help.stdout)),
      hookEvents: hookEventsInBundle(bundle),
    };
    // A binary that did not even report its version is probed again next time rather than remembered broken.
    if (probe.reportedVersion !== null) {
      fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
      // Renamed into place, so a concurrent reader never sees half a file.
      const partial = `${cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(partial, JSON.stringify(probe, null, 2));
      fs.renameSync(partial, cacheFile);
    }
    return probe;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}
