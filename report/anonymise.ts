// Replaces the absolute paths of the machine a run was recorded on with placeholders (/RUN, /RUNS, /CACHE, /REPO,
// /NODE, /HOME, /TMP), learning them from the run's own files; used by `ccrepro pack` and scripts/prune-run.ts.
//
// The paths are learnt from the files themselves (run.json's claude.executable/command/args, the sessions' argv and
// --debug-file, the mock index's client commands, hook payloads' cwd, and any <run dir>/iso/… or <runs dir>/<UTC>-… path in the text).
//
// Every replacement is by prefix, longest first, at path boundaries, and the same in every file: the run directory
// → /RUN, its parent (the runs folder, also for other runs and paths cut short) → /RUNS, the release cache
// (harness/release-cache.ts cacheDir(), and any <cache>/<version>/package/… a fixture names) → /CACHE, this
// checkout → /REPO, the node binary of a cli.js-era run → /NODE, home directories → /HOME, temp directories → /TMP.
// The dashed form claude derives from a path (every non-alphanumeric → "-") is replaced too (-RUN, -RUNS, -CACHE …)
// when the path has two or more segments. Request index sizes and hashes are recomputed for every stored body that
// no longer matches its line. Afterwards the written files are scanned for machine paths left over (exit 1 if any).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cacheDir } from "../releases/cache-dir.ts";
import { runLayout, sessionLayout } from "../harness/run-layout.ts";
import { readRunRecord, rewriteRunRecordText, type RunRecord } from "../harness/run-record.ts";
import { logLineSchema, requestIndexOf } from "../mock-api/log-entry.ts";
import { sha256Hex } from "../core/hash.ts";

export const PLACEHOLDERS = { run: "/RUN", runs: "/RUNS", cache: "/CACHE", repo: "/REPO", node: "/NODE", home: "/HOME", tmp: "/TMP", scenario: "/SCENARIO" } as const;
export type Kind = keyof typeof PLACEHOLDERS;
const REPO_ROOT = path.resolve(import.meta.dirname, "..");
// Fixture files that are not recordings: code and prose are written by hand.
const SKIPPED = /\.(ts|mts|cts|js|mjs|cjs|sh|md)$/;

const dashed = (p: string) => p.replace(/[^A-Za-z0-9]/g, "-");
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const isPlaceholder = (p: string) => Object.values(PLACEHOLDERS).some((h) => p === h || p.startsWith(`${h}/`));
const segments = (p: string) => p.split("/").filter(Boolean).length;

// Characters that end a path inside JSON, prose, XML-ish tags and command lines.
const PATH_CHAR = String.raw`[^\s"'\\<>:;,()\`=|]`;
// A path may also follow a terminal control sequence directly (raw ESC, or JSON's \u001b): a colour code, e.g.
// "\u001b[38;5;246m/tmp/…", or a cursor move the UI draws a space with, e.g. "to:\u001b[1C/work/…".
const BEFORE_PATH = String.raw`(?:(?<![A-Za-z0-9._~-])|(?<=(?:\x1b|\\u001b)\[[0-9;]*[A-Za-z]))`;
// Where a run directory's own paths sit inside it (harness/run-layout.ts): <run>/iso/<dir> and
// <run>/sessions/<label>/debug.log name a run directory; <runs>/<UTC>-… a runs folder.
const LAYOUT = runLayout("/");
const ISO_DIRS = [LAYOUT.work, LAYOUT.tmp, LAYOUT.home, LAYOUT.config].map((dir) => escapeRegExp(dir.slice(1)));
const SESSIONS = escapeRegExp(LAYOUT.sessionsDir.slice(1));
const DEBUG_LOG = escapeRegExp(path.basename(sessionLayout(LAYOUT, "x").debugLog));
const RUN_ROOT_RE = new RegExp(
  String.raw`${BEFORE_PATH}(\/${PATH_CHAR}+?)\/(?:${ISO_DIRS.join("|")}|${SESSIONS}\/[A-Za-z0-9_-]+\/${DEBUG_LOG})(?![A-Za-z0-9_-])`,
  "g",
);
// The run directory a session's --debug-file sits in.
function runOfDebugFile(file: string | undefined): string | undefined {
  if (!file?.startsWith("/") || path.basename(file) !== path.basename(sessionLayout(LAYOUT, "x").debugLog)) return undefined;
  const sessions = path.dirname(path.dirname(file));
  return path.basename(sessions) === path.basename(LAYOUT.sessionsDir) ? path.dirname(sessions) : undefined;
}
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
export class MachinePaths {
  readonly found: Record<Kind, Set<string>> = { run: new Set(), runs: new Set(), cache: new Set(), repo: new Set(), node: new Set(), home: new Set(), tmp: new Set(), scenario: new Set() };

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
export function thisMachine(): MachinePaths {
  const m = new MachinePaths();
  m.add("cache", cacheDir());
  m.add("repo", REPO_ROOT);
  for (const home of [os.homedir(), realpath(os.homedir())]) m.add("home", home);
  for (const tmp of [os.tmpdir(), realpath(os.tmpdir()), "/tmp", "/var/tmp", "/private/tmp"]) m.add("tmp", tmp);
  return m;
}

export function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

export interface Replacement {
  pattern: RegExp;
  from: string;
  to: string;
}

// Longest first, so a run directory wins over its runs folder and the cache over the home it lives in.
export function replacementsFor(paths: MachinePaths): Replacement[] {
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

export const anonymiseText = (text: string, replacements: Replacement[]) => replacements.reduce((out, r) => out.replace(r.pattern, r.to), text);

// Renames, deepest first, every file and folder under `dir` whose name holds a machine path in the dashed form claude
// gives a project folder (`transcripts/-tmp-…-iso-work`): names leave the machine as much as contents do. Returns how
// many were renamed.
export function renameByReplacements(dir: string, replacements: Replacement[]): number {
  let renamed = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) renamed += renameByReplacements(full, replacements);
    const name = anonymiseText(entry.name, replacements);
    if (name !== entry.name && !fs.existsSync(path.join(dir, name))) {
      fs.renameSync(full, path.join(dir, name));
      renamed += 1;
    }
  }
  return renamed;
}

// Files and folders whose names still hold a machine path after renameByReplacements (line 0: the name itself).
export function nameLeftovers(dir: string, replacements: Replacement[]): Leftover[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const hit = replacements.find((r) => new RegExp(r.pattern.source).test(entry.name));
    return hit ? [{ file: path.join(entry.parentPath, entry.name), line: 0, text: hit.from }] : [];
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Finding a fixture's machine paths in its own files.

export function readJson(file: string): unknown {
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

export const record = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
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
  const root = runOfDebugFile(debugFile);
  if (root) roots.push(root);
  else if (debugFile?.startsWith("/")) m.add("runs", debugFile.match(/^(\/.+?)\/\d{8}T\d{6}Z-/)?.[1]);
}

export function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}

export function textOf(file: string): string | null {
  if (SKIPPED.test(file) || !fs.lstatSync(file).isFile()) return null;
  const bytes = fs.readFileSync(file);
  return bytes.includes(0) ? null : bytes.toString("utf8");
}

// What run.json says of the binary, read by its owner; none (loose files, a mock-only copy) or one this ccrepro cannot
// read leaves the paths to the scan of the text.
function claudeOf(runJson: string): RunRecord["claude"] | null {
  if (!fs.existsSync(runJson)) return null;
  try {
    return readRunRecord(runJson).claude;
  } catch {
    return null;
  }
}

// The paths a unit (one run directory, or loose files) names, and which of them is its own run directory.
export function discover(dir: string, files: string[], runDirHints: string[]): { paths: MachinePaths; root: string | null } {
  const m = new MachinePaths();
  const structured: string[] = [];
  const layout = runLayout(dir);
  const claude = claudeOf(layout.runJson);
  if (claude) {
    m.addExecutable(claude.executable);
    if (claude.era === "js") m.add("node", claude.command);
    else m.addExecutable(claude.command);
    for (const arg of claude.args) m.addExecutable(arg);
  }

  const scanned = new Map<string, number>();
  for (const file of files) {
    const text = textOf(file);
    if (text === null) continue;
    if (file === sessionLayout(layout, path.basename(path.dirname(file))).sessionJson) learnArgv(strings(record(readJson(file))["argv"]), m, structured);
    if (path.dirname(file) === layout.hooksDir && file.endsWith(".json")) structured.push(...[record(readJson(file))["cwd"]].filter((c): c is string => typeof c === "string" && c.endsWith(LAYOUT.work)).map((c) => c.slice(0, -LAYOUT.work.length)));
    if (file === layout.mockIndex) {
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


// Index lines whose stored body no longer matches get that body's size and hash; other lines keep their bytes.
export function reindex(mockDir: string): number {
  const indexFile = requestIndexOf(mockDir);
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
      if (value["bodyBytes"] === body.length && value["bodySha256"] === sha256Hex(body)) return line;
      changed += 1;
      return JSON.stringify({ ...value, bodyBytes: body.length, bodySha256: sha256Hex(body) });
    });
  if (changed > 0) fs.writeFileSync(indexFile, lines.join("\n"));
  return changed;
}

export interface Leftover {
  file: string;
  line: number;
  text: string;
}

export function leftovers(file: string): Leftover[] {
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

// Lines that say where machine paths survived, at most 20 of them.
export function leftoverLines(all: readonly Leftover[]): string[] {
  const lines = all.slice(0, 20).map((l) => `still names a machine path: ${path.relative(process.cwd(), l.file)}:${l.line}: ${l.text}`);
  return all.length > 20 ? [...lines, `… and ${all.length - 20} more`] : lines;
}

// ---------------------------------------------------------------------------------------------------------------
// Anonymising directories in place (fixtures, a staged copy of a run).

const isRunDir = (dir: string) => {
  const layout = runLayout(dir);
  return [layout.runJson, layout.sessionsDir, layout.hooksLog, layout.mockIndex].some((file) => fs.existsSync(file));
};

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

export interface Pruned {
  lines: string[];
  leftovers: Leftover[];
}

export function anonymiseInPlace(dirs: string[], runDirHints: string[]): Pruned {
  const lines: string[] = [];
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
      // run.json through its owner, which keeps it a run record.
      else if (file === runLayout(plan.dir).runJson ? rewriteRunRecordText(file, (text) => anonymiseText(text, replacements)) : rewrite(file, replacements)) rewritten += 1;
    }
    const reindexed = reindex(runLayout(plan.dir).mockLog);
    written.push(...walk(plan.dir));
    lines.push(
      `${path.relative(process.cwd(), plan.dir)}: run dir ${plan.root ?? "(not named)"}; ${rewritten} files rewritten, ${reindexed} index lines recomputed` +
        (links.length ? `; symlinks: ${links.join(", ")}` : ""),
    );
  }
  const looseReplacements = replacementsFor(global);
  const looseRewritten = loose.filter((file) => rewrite(file, looseReplacements)).length;
  if (loose.length) lines.push(`loose files: ${looseRewritten} of ${loose.length} rewritten`);
  written.push(...loose);
  lines.push(`replaced: ${looseReplacements.filter((r) => r.from.startsWith("/")).map((r) => `${r.from} → ${r.to}`).join(", ")}`);
  return { lines, leftovers: written.flatMap(leftovers) };
}

