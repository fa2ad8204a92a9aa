// Turns recorded run directories into test fixtures that name no path of the machine they were recorded on.
//
// Copy mode: copies a run directory into a small fixture (the logs the checker reads, and only the chosen bodies).
// In-place mode: anonymises fixtures that already exist, without the original run, learning the paths to replace
// from the fixture itself (run.json's claude.executable/command/args, the sessions' argv and --debug-file, the mock
// index's client commands, hook payloads' cwd, and any <run dir>/iso/… or <runs dir>/<UTC>-… path in the text).
//
// Every replacement is by prefix, longest first, at path boundaries, and the same in every file: the run directory
// → /RUN, its parent (the runs folder, also for other runs and paths cut short) → /RUNS, the release cache
// (harness/release-cache.ts cacheDir(), and any <cache>/<version>/package/… a fixture names) → /CACHE, this
// checkout → /REPO, the node binary of a cli.js-era run → /NODE, home directories → /HOME, temp directories → /TMP.
// The dashed form claude derives from a path (every non-alphanumeric → "-") is replaced too (-RUN, -RUNS, -CACHE …)
// when the path has two or more segments. Request index sizes and hashes are recomputed for every stored body that
// no longer matches its line. Afterwards the written files are scanned for machine paths left over (exit 1 if any).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { cacheDir } from "../releases/release-cache.ts";
import { runLayout, sessionLayout } from "../harness/run-layout.ts";
import { REQUEST_INDEX_FILE, logLineSchema } from "../mock-api/log-entry.ts";

const USAGE = `usage:
  node --import tsx scripts/prune-run.ts [options] RUN_DIR OUT_DIR [SEQ,SEQ,…]
      copy RUN_DIR into the fixture OUT_DIR, anonymised
  node --import tsx scripts/prune-run.ts --in-place [--run-dir PATH]… DIR…
      anonymise existing fixtures in place (run directories, or folders holding them, e.g. a nightly)

copy options:
  --bodies LIST        request bodies to keep: SEQ,SEQ,… | all | none (default all; same as the third argument)
  --stream NAME        keep only the bodies of requests the mock classified as stream NAME
  --body-keys K,K      keep only these top-level keys of each kept body (e.g. messages, or model,messages)
  --trim-text N        cut strings in kept bodies longer than N characters to N + "…[pruned]"
  --drop-headers       empty each index line's request headers
  --mock-only          copy only the mock's request log (no run.json, sessions, hooks, outbound log)
  --foreground LABEL   write foreground.json with session LABEL's pid (the interactive UI's process)
in-place options:
  --run-dir PATH       an absolute path a fixture was recorded at, when the fixture does not name it itself
  -h, --help           this text`;

function usageError(message: string): never {
  console.error(`prune-run: ${message}\n\n${USAGE}`);
  process.exit(2);
}

const PLACEHOLDERS = { run: "/RUN", runs: "/RUNS", cache: "/CACHE", repo: "/REPO", node: "/NODE", home: "/HOME", tmp: "/TMP" } as const;
type Kind = keyof typeof PLACEHOLDERS;
const REPO_ROOT = path.resolve(import.meta.dirname, "..");
// Fixture files that are not recordings: code and prose are written by hand.
const SKIPPED = /\.(ts|mts|cts|js|mjs|cjs|sh|md)$/;

const dashed = (p: string) => p.replace(/[^A-Za-z0-9]/g, "-");
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const isPlaceholder = (p: string) => Object.values(PLACEHOLDERS).some((h) => p === h || p.startsWith(`${h}/`));
const segments = (p: string) => p.split("/").filter(Boolean).length;

// Characters that end a path inside JSON, prose, XML-ish tags and command lines.
const PATH_CHAR = String.raw`[^\s"'\\<>:;,()\`=|]`;
const BEFORE_PATH = String.raw`(?<![A-Za-z0-9._~-])`;
// <run>/iso/<dir> and <run>/sessions/<label>/debug.log name a run directory; <runs>/<UTC>-… a runs folder.
const RUN_ROOT_RE = new RegExp(
  String.raw`${BEFORE_PATH}(\/${PATH_CHAR}+?)\/(?:iso\/(?:work|tmp|home|config)|sessions\/[A-Za-z0-9_-]+\/debug\.log)(?![A-Za-z0-9_-])`,
  "g",
);
const RUNS_DIR_RE = new RegExp(String.raw`${BEFORE_PATH}(\/${PATH_CHAR}+?)\/\d{8}T\d{6}Z-`, "g");
const HOME_RE = new RegExp(String.raw`${BEFORE_PATH}(\/(?:home|Users)\/[^\s"'\\<>:;,()\`=|/]+|\/root)(?=[\s"'\\<>:;,()\`=|/]|$)`, "g");
const MAC_TMP_RE = new RegExp(String.raw`${BEFORE_PATH}((?:\/private)?\/var\/folders\/[^/\s"']+\/[^/\s"']+\/T)(?=\/)`, "g");
const CACHE_ENTRY_RE = /^(\/.+?)\/\d+\.\d+\.\d+[^/]*\/package\//;
// What a machine path that survived looks like.
const LEFTOVER_RE = new RegExp(
  String.raw`${BEFORE_PATH}\/(?:root|home|Users|tmp|private|var\/folders|var\/tmp|work)(?=\/|[\s"'\\<>:;,()\`=|]|$)${PATH_CHAR}*`,
  "g",
);

// The absolute paths of the machine a fixture was recorded on, by what they are.
class MachinePaths {
  readonly found: Record<Kind, Set<string>> = { run: new Set(), runs: new Set(), cache: new Set(), repo: new Set(), node: new Set(), home: new Set(), tmp: new Set() };

  add(kind: Kind, p: string | null | undefined): void {
    if (!p || !p.startsWith("/") || p === "/" || isPlaceholder(p)) return;
    const clean = p.replace(/\/+$/, "");
    this.found[kind].add(clean);
    if (kind === "run") this.add("runs", path.dirname(clean));
    if (kind === "cache" && clean.includes("/.cache/")) this.add("home", clean.slice(0, clean.indexOf("/.cache/")));
  }

  addExecutable(p: string | null | undefined): void {
    const entry = p?.match(CACHE_ENTRY_RE);
    if (entry) this.add("cache", entry[1]);
  }

  merge(other: MachinePaths, withRuns: boolean): void {
    for (const kind of Object.keys(this.found) as Kind[]) {
      if (kind === "run" && !withRuns) continue;
      for (const p of other.found[kind]) this.found[kind].add(p);
    }
  }
}

// This machine's own paths: whatever a fresh recording here could name.
function thisMachine(): MachinePaths {
  const m = new MachinePaths();
  m.add("cache", cacheDir());
  m.add("repo", REPO_ROOT);
  for (const home of [os.homedir(), realpath(os.homedir())]) m.add("home", home);
  for (const tmp of [os.tmpdir(), realpath(os.tmpdir()), "/tmp", "/var/tmp", "/private/tmp"]) m.add("tmp", tmp);
  return m;
}

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

interface Replacement {
  pattern: RegExp;
  from: string;
  to: string;
}

// Longest first, so a run directory wins over its runs folder and the cache over the home it lives in.
function replacementsFor(paths: MachinePaths): Replacement[] {
  const pairs = new Map<string, { to: string; slash: boolean }>();
  for (const kind of Object.keys(paths.found) as Kind[]) {
    for (const from of paths.found[kind]) {
      if (!pairs.has(from)) pairs.set(from, { to: PLACEHOLDERS[kind], slash: true });
      const d = dashed(from);
      if (segments(from) >= 2 && !pairs.has(d)) pairs.set(d, { to: dashed(PLACEHOLDERS[kind]), slash: false });
    }
  }
  return [...pairs.entries()]
    .sort((a, b) => b[0].length - a[0].length || a[0].localeCompare(b[0]))
    .map(([from, { to, slash }]) => ({
      from,
      to,
      pattern: slash
        ? new RegExp(`${BEFORE_PATH}${escapeRegExp(from)}(?![A-Za-z0-9_~-])`, "g")
        : new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(from)}(?![A-Za-z0-9])`, "g"),
    }));
}

const anonymiseText = (text: string, replacements: Replacement[]) => replacements.reduce((out, r) => out.replace(r.pattern, r.to), text);

// ---------------------------------------------------------------------------------------------------------------
// Finding a fixture's machine paths in its own files.

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

const record = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

// The argv of a recorded process: its executable (cache entry or not), a cli.js era's node, and its --debug-file's run.
function learnArgv(argv: string[], m: MachinePaths, roots: string[]): void {
  const [first, second] = argv;
  if (second && /\.(c|m)?js$/.test(second) && !first?.endsWith(".js")) {
    m.add("node", first);
    m.addExecutable(second);
  } else m.addExecutable(first);
  const at = argv.indexOf("--debug-file");
  const debugFile = at >= 0 ? argv[at + 1] : undefined;
  const root = debugFile?.match(/^(\/.+)\/sessions\/[^/]+\/debug\.log$/)?.[1];
  if (root) roots.push(root);
  else if (debugFile?.startsWith("/")) m.add("runs", debugFile.match(/^(\/.+?)\/\d{8}T\d{6}Z-/)?.[1]);
}

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}

function textOf(file: string): string | null {
  if (SKIPPED.test(file) || !fs.lstatSync(file).isFile()) return null;
  const bytes = fs.readFileSync(file);
  return bytes.includes(0) ? null : bytes.toString("utf8");
}

// The paths a unit (one run directory, or loose files) names, and which of them is its own run directory.
function discover(dir: string, files: string[], runDirHints: string[]): { paths: MachinePaths; root: string | null } {
  const m = new MachinePaths();
  const structured: string[] = [];
  const runJson = record(readJson(path.join(dir, "run.json")));
  const claude = record(runJson["claude"]);
  m.addExecutable(claude["executable"] as string | undefined);
  if (claude["era"] === "js") m.add("node", claude["command"] as string | undefined);
  else m.addExecutable(claude["command"] as string | undefined);
  for (const arg of strings(claude["args"])) m.addExecutable(arg);

  const scanned = new Map<string, number>();
  for (const file of files) {
    const text = textOf(file);
    if (text === null) continue;
    const rel = path.relative(dir, file);
    if (/^sessions\/[^/]+\/session\.json$/.test(rel)) learnArgv(strings(record(readJson(file))["argv"]), m, structured);
    if (/^hooks\/[^/]+\.json$/.test(rel)) structured.push(...[record(readJson(file))["cwd"]].filter((c): c is string => typeof c === "string" && c.endsWith("/iso/work")).map((c) => c.slice(0, -"/iso/work".length)));
    if (rel === path.join("mock", REQUEST_INDEX_FILE)) {
      for (const line of text.split("\n").filter(Boolean)) {
        const command = record(record(parseLine(line))["client"])["command"];
        if (typeof command === "string") learnArgv(command.split(" "), m, structured);
      }
    }
    for (const match of text.matchAll(RUN_ROOT_RE)) scanned.set(match[1]!, (scanned.get(match[1]!) ?? 0) + 1);
    for (const match of text.matchAll(RUNS_DIR_RE)) m.add("runs", match[1]);
    for (const match of text.matchAll(HOME_RE)) m.add("home", match[1]);
    for (const match of text.matchAll(MAC_TMP_RE)) m.add("tmp", match[1]);
  }
  const candidates = [
    ...structured,
    ...runDirHints.filter((h) => scanned.has(h)),
    ...[...scanned.entries()].sort((a, b) => b[1] - a[1]).map(([p]) => p),
  ].filter((p) => !isPlaceholder(p));
  const root = candidates[0] ?? null;
  // Every other run directory named here is someone else's: it goes by its runs folder.
  for (const other of [...structured, ...scanned.keys()]) if (other !== root) m.add("runs", path.dirname(other));
  if (root) m.add("run", root);
  return { paths: m, root };
}

// ---------------------------------------------------------------------------------------------------------------
// Writing.

const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

// Index lines whose stored body no longer matches get that body's size and hash; other lines keep their bytes.
function reindex(mockDir: string): number {
  const indexFile = path.join(mockDir, REQUEST_INDEX_FILE);
  if (!fs.existsSync(indexFile)) return 0;
  let changed = 0;
  const lines = fs
    .readFileSync(indexFile, "utf8")
    .split("\n")
    .map((line) => {
      if (!line) return line;
      const entry = logLineSchema.parse(JSON.parse(line));
      if (entry.kind !== "request") return line;
      const bodyFile = path.join(mockDir, entry.bodyFile);
      if (!fs.existsSync(bodyFile)) return line;
      const body = fs.readFileSync(bodyFile);
      const value = JSON.parse(line) as Record<string, unknown>;
      if (value["bodyBytes"] === body.length && value["bodySha256"] === sha256(body)) return line;
      changed += 1;
      return JSON.stringify({ ...value, bodyBytes: body.length, bodySha256: sha256(body) });
    });
  if (changed > 0) fs.writeFileSync(indexFile, lines.join("\n"));
  return changed;
}

interface Leftover {
  file: string;
  line: number;
  text: string;
}

function leftovers(file: string): Leftover[] {
  const text = textOf(file);
  if (text === null) return [];
  const extra = [os.homedir(), os.tmpdir(), REPO_ROOT].filter((p) => segments(p) >= 2 && !["/home", "/tmp"].includes(p));
  const found: Leftover[] = [];
  text.split("\n").forEach((line, i) => {
    for (const match of line.matchAll(LEFTOVER_RE)) found.push({ file, line: i + 1, text: match[0] });
    for (const p of extra) if (line.includes(p)) found.push({ file, line: i + 1, text: p });
  });
  return found;
}

function reportLeftovers(files: string[]): number {
  const all = files.flatMap(leftovers);
  for (const l of all.slice(0, 20)) console.error(`still names a machine path: ${path.relative(process.cwd(), l.file)}:${l.line}: ${l.text}`);
  if (all.length > 20) console.error(`… and ${all.length - 20} more`);
  return all.length;
}

// ---------------------------------------------------------------------------------------------------------------
// In-place mode.

const isRunDir = (dir: string) =>
  ["run.json", "sessions", "hooks.jsonl", path.join("mock", REQUEST_INDEX_FILE)].some((name) => fs.existsSync(path.join(dir, name)));

// Run directories (not descended into further) and the loose files around them (summary.json, screens, …).
function units(dir: string, found: { runs: string[]; loose: string[] } = { runs: [], loose: [] }) {
  if (isRunDir(dir)) {
    found.runs.push(dir);
    return found;
  }
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) units(full, found);
    else found.loose.push(full);
  }
  return found;
}

function rewrite(file: string, replacements: Replacement[]): boolean {
  const text = textOf(file);
  if (text === null) return false;
  const out = anonymiseText(text, replacements);
  if (out === text) return false;
  fs.writeFileSync(file, out);
  return true;
}

// An absolute symlink names the machine; claude's sessions/<label>/latest points at a debug log no fixture keeps.
function fixSymlink(link: string, unitDir: string, root: string | null): string {
  const target = fs.readlinkSync(link);
  if (!path.isAbsolute(target)) return "kept";
  const inside = root && target.startsWith(`${root}/`) ? path.join(unitDir, target.slice(root.length + 1)) : null;
  fs.unlinkSync(link);
  if (inside && fs.existsSync(inside)) {
    fs.symlinkSync(path.relative(path.dirname(link), inside), link);
    return "made relative";
  }
  return "removed (dangling)";
}

function inPlace(dirs: string[], runDirHints: string[]): number {
  const global = thisMachine();
  for (const hint of runDirHints) global.add("runs", path.dirname(hint));
  const plans: { dir: string; files: string[]; root: string | null; paths: MachinePaths }[] = [];
  const loose: string[] = [];
  for (const dir of dirs) {
    const found = units(dir);
    loose.push(...found.loose);
    for (const runDir of found.runs) {
      const files = walk(runDir);
      const { paths, root } = discover(runDir, files, runDirHints);
      global.merge(paths, false);
      plans.push({ dir: runDir, files, root, paths });
    }
  }
  if (loose.length > 0) global.merge(discover(path.dirname(loose[0]!), loose, runDirHints).paths, false);
  const written: string[] = [];
  for (const plan of plans) {
    const paths = new MachinePaths();
    paths.merge(global, false);
    if (plan.root) paths.add("run", plan.root);
    const replacements = replacementsFor(paths);
    let rewritten = 0;
    const links: string[] = [];
    for (const file of plan.files) {
      if (fs.lstatSync(file).isSymbolicLink()) links.push(`${path.relative(plan.dir, file)} ${fixSymlink(file, plan.dir, plan.root)}`);
      else if (rewrite(file, replacements)) rewritten += 1;
    }
    const reindexed = reindex(path.join(plan.dir, "mock"));
    written.push(...walk(plan.dir));
    console.log(
      `${path.relative(process.cwd(), plan.dir)}: run dir ${plan.root ?? "(not named)"}; ${rewritten} files rewritten, ${reindexed} index lines recomputed` +
        (links.length ? `; symlinks: ${links.join(", ")}` : ""),
    );
  }
  const looseReplacements = replacementsFor(global);
  const looseRewritten = loose.filter((file) => rewrite(file, looseReplacements)).length;
  if (loose.length) console.log(`loose files: ${looseRewritten} of ${loose.length} rewritten`);
  written.push(...loose);
  console.log(`replaced: ${looseReplacements.filter((r) => r.from.startsWith("/")).map((r) => `${r.from} → ${r.to}`).join(", ")}`);
  return reportLeftovers(written) > 0 ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Copy mode.

interface CopyOptions {
  bodies: Set<number> | "all";
  stream: string | null;
  bodyKeys: string[] | null;
  trimText: number | null;
  dropHeaders: boolean;
  mockOnly: boolean;
  foreground: string | null;
}

function trim(value: unknown, chars: number): unknown {
  if (typeof value === "string") return value.length > chars ? `${value.slice(0, chars)}…[pruned]` : value;
  if (Array.isArray(value)) return value.map((v) => trim(v, chars));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trim(v, chars)]));
  return value;
}

function copyRun(runDir: string, outDir: string, options: CopyOptions): number {
  const from = runLayout(path.resolve(runDir));
  const to = runLayout(path.resolve(outDir));
  const paths = thisMachine();
  // Only what is copied is searched: iso/ and transcripts/ can be large.
  const sources = [from.runJson, from.outboundLog, from.hooksLog, path.join(from.mockLog, REQUEST_INDEX_FILE)];
  if (fs.existsSync(from.hooksDir)) sources.push(...walk(from.hooksDir));
  for (const label of fs.existsSync(from.sessionsDir) ? fs.readdirSync(from.sessionsDir) : []) {
    const session = sessionLayout(from, label);
    sources.push(session.sessionJson, session.stdout, session.stdin, path.join(session.dir, "terminal.jsonl"));
  }
  const discovered = discover(from.root, sources.filter((f) => fs.existsSync(f)), []);
  paths.merge(discovered.paths, false);
  for (const root of new Set([from.root, realpath(from.root)])) paths.add("run", root);
  const replacements = replacementsFor(paths);
  const anonymise = (bytes: Buffer) => Buffer.from(anonymiseText(bytes.toString("utf8"), replacements), "utf8");
  const written: string[] = [];
  const write = (target: string, bytes: Buffer | string) => {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, bytes);
    written.push(target);
  };
  const copy = (source: string, target: string) => {
    if (!fs.existsSync(source)) return;
    if (fs.statSync(source).isDirectory()) {
      for (const name of fs.readdirSync(source)) copy(path.join(source, name), path.join(target, name));
      return;
    }
    write(target, anonymise(fs.readFileSync(source)));
  };

  if (!options.mockOnly) {
    copy(from.runJson, to.runJson);
    copy(from.hooksLog, to.hooksLog);
    copy(from.hooksDir, to.hooksDir);
    copy(from.outboundLog, to.outboundLog);
    for (const label of fs.existsSync(from.sessionsDir) ? fs.readdirSync(from.sessionsDir) : []) {
      const source = sessionLayout(from, label);
      const target = sessionLayout(to, label);
      for (const key of ["stdout", "stdin", "sessionJson"] as const) copy(source[key], target[key]);
      // A terminal session's output chunks (harness/terminal-session.ts), for replaying its screen or its .cast.
      copy(path.join(source.dir, "terminal.jsonl"), path.join(target.dir, "terminal.jsonl"));
    }
  }
  const index: string[] = [];
  let kept = 0;
  let requests = 0;
  const indexFile = path.join(from.mockLog, REQUEST_INDEX_FILE);
  for (const line of fs.existsSync(indexFile) ? fs.readFileSync(indexFile, "utf8").split("\n").filter(Boolean) : []) {
    const entry = logLineSchema.parse(JSON.parse(anonymise(Buffer.from(line)).toString("utf8")));
    if (entry.kind === "request") {
      requests += 1;
      if (options.dropHeaders) entry.headers = {};
      const wanted = (options.bodies === "all" || options.bodies.has(entry.seq)) && (options.stream === null || entry.stream === options.stream);
      if (wanted) {
        let body = anonymise(fs.readFileSync(path.join(from.mockLog, entry.bodyFile)));
        if (options.bodyKeys || options.trimText !== null) {
          let value = JSON.parse(body.toString("utf8")) as unknown;
          if (options.bodyKeys) value = Object.fromEntries(options.bodyKeys.filter((k) => k in record(value)).map((k) => [k, record(value)[k]]));
          if (options.trimText !== null) value = trim(value, options.trimText);
          body = Buffer.from(JSON.stringify(value, null, 1), "utf8");
        }
        write(path.join(to.mockLog, entry.bodyFile), body);
        entry.bodyBytes = body.length;
        entry.bodySha256 = sha256(body);
        kept += 1;
      }
    }
    index.push(JSON.stringify(entry));
  }
  write(path.join(to.mockLog, REQUEST_INDEX_FILE), index.length ? `${index.join("\n")}\n` : "");
  if (options.foreground) {
    const session = readJson(sessionLayout(from, options.foreground).sessionJson);
    if (session === null) usageError(`no session ${options.foreground} in ${runDir}`);
    write(path.join(to.root, "foreground.json"), `${JSON.stringify({ pid: record(session)["pid"] ?? null })}\n`);
  }
  console.log(`pruned ${runDir} → ${outDir} (${kept} of ${requests} request bodies)`);
  return reportLeftovers(written) > 0 ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------------------

function main(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        "in-place": { type: "boolean" },
        "run-dir": { type: "string", multiple: true },
        bodies: { type: "string" },
        stream: { type: "string" },
        "body-keys": { type: "string" },
        "trim-text": { type: "string" },
        "drop-headers": { type: "boolean" },
        "mock-only": { type: "boolean" },
        foreground: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const copyOnly = (["bodies", "stream", "body-keys", "trim-text", "drop-headers", "mock-only", "foreground"] as const).filter((k) => values[k] !== undefined);
  if (values["in-place"]) {
    if (copyOnly.length) usageError(`--${copyOnly[0]} is a copy option, not one of --in-place`);
    if (positionals.length === 0) usageError("--in-place needs at least one fixture directory");
    for (const dir of positionals) if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) usageError(`not a directory: ${dir}`);
    const hints = values["run-dir"] ?? [];
    for (const hint of hints) if (!path.isAbsolute(hint)) usageError(`--run-dir must be absolute: ${hint}`);
    return inPlace(positionals.map((d) => path.resolve(d)), hints.map((h) => h.replace(/\/+$/, "")));
  }
  if (values["run-dir"]) usageError("--run-dir belongs to --in-place");
  const [runDir, outDir, seqArg, ...extra] = positionals;
  if (!runDir || !outDir || extra.length) usageError("copy mode takes RUN_DIR OUT_DIR [SEQ,SEQ,…]");
  if (!fs.existsSync(path.join(runDir, "run.json")) && !fs.existsSync(path.join(runDir, "mock", REQUEST_INDEX_FILE))) usageError(`not a run directory: ${runDir}`);
  if (seqArg !== undefined && values.bodies !== undefined) usageError("give the bodies either as --bodies or as the third argument, not both");
  const list = values.bodies ?? seqArg ?? "all";
  let bodies: Set<number> | "all";
  if (list === "all") bodies = "all";
  else if (list === "none") bodies = new Set();
  else if (/^\d+(,\d+)*$/.test(list)) bodies = new Set(list.split(",").map(Number));
  else usageError(`bad body list: ${list} (SEQ,SEQ,… | all | none)`);
  const trimText = values["trim-text"];
  if (trimText !== undefined && !/^\d+$/.test(trimText)) usageError(`--trim-text wants a number of characters, not ${trimText}`);
  const bodyKeys = values["body-keys"]?.split(",").filter(Boolean) ?? null;
  if (bodyKeys && bodyKeys.length === 0) usageError("--body-keys wants at least one key");
  return copyRun(runDir, outDir, {
    bodies,
    stream: values.stream ?? null,
    bodyKeys,
    trimText: trimText === undefined ? null : Number(trimText),
    dropHeaders: values["drop-headers"] ?? false,
    mockOnly: values["mock-only"] ?? false,
    foreground: values.foreground ?? null,
  });
}

process.exitCode = main(process.argv.slice(2));
