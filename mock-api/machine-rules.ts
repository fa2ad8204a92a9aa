// What must differ between the machine (and the moment) a session was recorded on and the one replaying it: one named
// rule set, applied to every string of a request before it is matched to a recorded one (replay-script.ts) and in the
// divergence view of replay fidelity (checker/replay-fidelity.ts). Each rule is tested on both release eras, the
// cli.js releases (≤ 2.1.112) and the native ones (test/mock-api/machine-rules.test.ts). Headers are never compared.

export interface MachineRule {
  name: string;
  // What it blanks, and why it differs between machines.
  description: string;
  apply(text: string, ids: ToolUseIds): string;
}

// Ids minted at run time (tool-use ids, background task and agent ids), numbered by kind in the order a request first
// mentions them: a recorded id and the replay's id for the same call or task get the same number, so a tool result or
// a task's notification in a later request still matches whoever minted the id, and one for another task does not.
export class ToolUseIds {
  private readonly numbers = new Map<string, Map<string, number>>();
  of(id: string, kind = "tool-use"): string {
    const numbers = this.numbers.get(kind) ?? this.numbers.set(kind, new Map()).get(kind)!;
    if (!numbers.has(id)) numbers.set(id, numbers.size + 1);
    return `<${kind}-${numbers.get(id)}>`;
  }
}

function replaceRule(name: string, description: string, pattern: RegExp, replacement: string): MachineRule {
  return { name, description, apply: (text) => text.replace(pattern, replacement) };
}

// Order matters: the git status goes first (it holds paths, dates and names of its own), then paths (a directory's
// name may hold a date or a UUID), then the rest.
export const MACHINE_RULES: readonly MachineRule[] = [
  replaceRule(
    "git-status",
    "the git status block of the context (branch, main branch, git user, status, recent commits): another checkout's state",
    /This is the git status at the start of the conversation\.[\s\S]*?Recent commits:\n(?:[0-9a-f]{6,}\b[^\n]*(?:\n|$))*\n*/g,
    "This is the git status at the start of the conversation. <git status>\n\n",
  ),
  replaceRule(
    "paths",
    "absolute paths of two or more parts: the working directory, the home and config folders, usernames in them, temp paths",
    /(?:\/[A-Za-z0-9._@+~-]+){2,}\/?/g,
    "<path>",
  ),
  replaceRule("platform", "the platform line of the environment section (linux, darwin, win32)", /\b(Platform: )[a-z0-9]+/g, "$1<platform>"),
  replaceRule("os-version", "the OS version line of the environment section (kernel release, distribution)", /\b(OS Version: )[^\n<]*/g, "$1<os-version>"),
  replaceRule("shell", "the shell line of the environment section (bash, zsh, with a note on Windows)", /\b(Shell: )[^\n]*/g, "$1<shell>"),
  replaceRule(
    "date-phrases",
    `the rest of "Today's date is …" and "The current month is …", in whatever format the release writes it`,
    /\b(Today's date is |The current month is )[^\n]*?(?=\.\s|\.$|\n|$)/g,
    "$1<date>",
  ),
  replaceRule("iso-dates", "ISO dates and timestamps (2026-11-30, 2026-11-30T16:01:02.345Z)", /\b\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, "<date>"),
  replaceRule("billing-cch", "the cch=<hex> token of the billing header text in system[0] (random per request on some native releases)", /\bcch=[0-9a-f]+/g, "cch=<cch>"),
  replaceRule(
    "cc-version-hash",
    "the hash suffix of cc_version=<x.y.z>.<hex> (changes with the first user message); the version itself is kept",
    /\bcc_version=(\d+\.\d+\.\d+)\.[0-9a-f]+\b/g,
    "cc_version=$1.<hash>",
  ),
  {
    name: "tool-use-ids",
    description: "tool-use ids (toolu_…, call_…), numbered by first mention in the request: recorded and replayed ids are mapped, not compared",
    apply: (text, ids) => text.replace(/\b(?:srvtoolu|toolu|call)_[A-Za-z0-9]{6,}\b/g, (id) => ids.of(id)),
  },
  {
    name: "task-ids",
    description: "the ids claude mints for a background command or agent (bx9i6eagu, a9a12f1d735a9bd8d) where it names them (with ID:, agentId:, <task-id>, to: '…'), numbered by first mention like tool-use ids",
    apply: (text, ids) => text.replace(/(with ID: |agentId: |<task-id>|to: ')([A-Za-z0-9]{6,24})\b/g, (_, context: string, id: string) => `${context}${ids.of(id, "task")}`),
  },
  replaceRule(
    "task-durations",
    "how long an agent ran, as its result or notification reports it (<duration_ms>3035</duration_ms> on native releases, duration_ms: 2505 in cli.js's <usage>): a measured time",
    /(<duration_ms>|\bduration_ms: )\d+/g,
    "$1<ms>",
  ),
  replaceRule("uuids", "UUIDs (session ids, agent ids, request ids)", /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>"),
  replaceRule("request-ids", "API request ids (req_<opaque>)", /\breq_[A-Za-z0-9_]{8,}/g, "req_<id>"),
  replaceRule("local-ports", "the port in 127.0.0.1:NNNNN / localhost:NNNNN (the proxy's, the mock's)", /\b(127\.0\.0\.1|localhost):\d{1,5}\b/g, "$1:<port>"),
];

/** Every machine rule applied to one string; `ids` is shared by the strings of one request. */
export function normaliseMachine(text: string, ids: ToolUseIds = new ToolUseIds()): string {
  return MACHINE_RULES.reduce((out, rule) => rule.apply(out, ids), text);
}

// The JSON fields whose whole value differs per machine and session (metadata.user_id: device, account, session).
const WHOLE_VALUE_FIELDS = new Set(["user_id"]);

/** A parsed request with the machine rules applied to every string in it (keys kept), in document order. */
export function normaliseMachineJson(value: unknown, ids: ToolUseIds = new ToolUseIds()): unknown {
  if (typeof value === "string") return normaliseMachine(value, ids);
  if (Array.isArray(value)) return value.map((item) => normaliseMachineJson(item, ids));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, WHOLE_VALUE_FIELDS.has(key) && typeof item === "string" ? `<${key.replace("_", "-")}>` : normaliseMachineJson(item, ids)]));
  }
  return value;
}
