// `ccrepro pack`: a run directory as a .tar.gz to attach to a bug report — the isolated home's caches and sockets
// left out, every absolute path of this machine replaced (report/anonymise.ts), every value of the caller's
// environment replaced by its variable's name.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";
import { recheckRun } from "../pipeline/recheck-run.ts";
import { UserError } from "../core/errors.ts";
import { readRunRecord, rewriteRunRecordText } from "../harness/run-record.ts";
import { runLayout } from "../harness/run-layout.ts";
import { discover, leftovers, nameLeftovers, realpath, reindex, renameByReplacements, replacementsFor, thisMachine, walk, type Leftover, type Replacement } from "./anonymise.ts";

// What the binary keeps for itself under the isolated home and config: caches, backups, shell snapshots (they hold
// the shell's environment), per-process session files and sockets. None of it is read by a check.
const TRIMMED = (layout: ReturnType<typeof runLayout>) => [
  path.join(layout.home, ".cache"),
  path.join(layout.home, ".npm"),
  path.join(layout.config, "backups"),
  path.join(layout.config, "shell-snapshots"),
  path.join(layout.config, "session-env"),
  path.join(layout.config, "sessions"),
  path.join(layout.config, "statsig"),
  path.join(layout.config, "cache"),
  path.join(layout.tmp, "cc-socks"),
];

// Values too common to be anyone's (the isolated environment sets several of them itself).
const COMMON_VALUES = new Set(["true", "false", "C.UTF-8", "en_US.UTF-8", "xterm-256color", "/bin/bash", "/bin/sh", "/usr/local/bin:/usr/bin:/bin"]);
const MIN_ENV_VALUE = 6;

export interface PackOptions {
  // The caller's environment, whose values must not leave the machine; process.env by default.
  env?: NodeJS.ProcessEnv;
}

export interface Packed {
  file: string;
  bytes: number;
  files: number;
  trimmed: string[];
  // What was put in place of this machine's paths and secrets ("$HOME", "<run>"…), and how many times.
  replaced: { to: string; count: number }[];
  // Files and folders renamed because their names held a machine path (claude's dashed project folders).
  renamed: number;
  // The packed copy judged again: its verdict should be the one run.json recorded (null: never judged).
  recorded: string | null;
  rejudged: { verdict: string; reason: string };
  judgedSame: boolean;
  // Machine paths the scan still found after anonymising: the caller says so.
  leftovers: Leftover[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// Which of the caller's environment values are replaced: those that stand as a path (absolute, or under ~) or as a
// secret (a name that says so, or a long token-like value). A word such as MODE_WORD=result or EDITOR_HINT=assistant
// is everywhere in a run's JSON ("result", "role":"assistant") and says nothing of the machine: replacing it broke
// run.json and request bodies (issue 27, item 11).
const SECRET_NAME = /TOKEN|KEY|SECRET|PASSW|AUTH|CREDENTIAL|COOKIE|SESSION/i;
function standsAsPathOrSecret(name: string, value: string): boolean {
  if (/^(\/|~\/|[A-Za-z]:\\)/.test(value) && value.length > 1) return true;
  if (SECRET_NAME.test(name)) return true;
  return value.length >= 20 && /^[A-Za-z0-9_\-+/=.]+$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value);
}

function environmentReplacements(env: NodeJS.ProcessEnv): Replacement[] {
  const pairs = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < MIN_ENV_VALUE || COMMON_VALUES.has(value) || /^\d+$/.test(value)) continue;
    if (!standsAsPathOrSecret(name, value)) continue;
    // As written, and as it appears inside a JSON string.
    for (const form of new Set([value, JSON.stringify(value).slice(1, -1)])) if (!pairs.has(form)) pairs.set(form, `$${name}`);
  }
  return [...pairs.entries()].sort((a, b) => b[0].length - a[0].length).map(([from, to]) => ({ from, pattern: new RegExp(escapeRegExp(from), "g"), to }));
}

function isText(bytes: Buffer): boolean {
  return !bytes.includes(0);
}

export async function packRun(runDir: string, out: string, options: PackOptions = {}): Promise<Packed> {
  const root = path.resolve(runDir);
  const layout = runLayout(root);
  if (!fs.existsSync(layout.runJson)) throw new UserError(`${root} is not a run directory (no run.json); pass a directory written by ccrepro run`, "BAD_RUN_DIR");
  const env = options.env ?? process.env;
  const record = readRunRecord(layout.runJson);
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-pack-"));
  try {
    const name = path.basename(root);
    const staged = path.join(staging, name);
    const trimmed = TRIMMED(layout).filter((p) => fs.existsSync(p));
    const skip = new Set(trimmed);
    // Regular files only: sockets, FIFOs and symlinks (which may point anywhere on the machine) stay behind.
    fs.cpSync(root, staged, { recursive: true, filter: (source) => !skip.has(source) && (fs.lstatSync(source).isDirectory() || fs.lstatSync(source).isFile()) });

    const paths = thisMachine();
    for (const home of [env["HOME"], env["USERPROFILE"]]) paths.add("home", home);
    for (const tmp of [env["TMPDIR"], env["TMP"], env["TEMP"]]) paths.add("tmp", tmp);
    paths.merge(discover(root, walk(root), []).paths, false);
    for (const at of new Set([root, realpath(root)])) paths.add("run", at);
    if (record.source?.kind === "file") paths.add("scenario", path.dirname(record.source.path));
    const replacements = [...replacementsFor(paths), ...environmentReplacements(env)];

    const files = walk(staged);
    const replaced = new Map<string, number>();
    // In order, longest first, so a path is counted once, under the placeholder that took it.
    const clean = (text: string) => {
      let cleaned = text;
      for (const { pattern, to } of replacements) {
        const hits = cleaned.match(pattern)?.length ?? 0;
        if (hits === 0) continue;
        replaced.set(to, (replaced.get(to) ?? 0) + hits);
        cleaned = cleaned.replace(pattern, to);
      }
      return cleaned;
    };
    const stagedLayout = runLayout(staged);
    for (const file of files) {
      // run.json through its owner, which keeps it a run record.
      if (file === stagedLayout.runJson) {
        rewriteRunRecordText(file, clean);
        continue;
      }
      const bytes = fs.readFileSync(file);
      if (!isText(bytes)) continue;
      const text = bytes.toString("utf8");
      const cleaned = clean(text);
      if (cleaned !== text) fs.writeFileSync(file, cleaned);
    }
    const renamed = renameByReplacements(staged, replacements);
    // Bodies whose paths were replaced no longer match their index lines' sizes and hashes.
    reindex(stagedLayout.mockLog);
    // The packed run must still be the run: judged again from the staged copy, as the maintainer's `check` will.
    const recorded = record.result?.verdict ?? null;
    const rejudged = (await recheckRun(staged)).result;
    const judgedSame = recorded === null || rejudged.verdict === recorded;
    const file = path.resolve(out);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await tar.c({ gzip: true, file, cwd: staging, portable: true }, [name]);
    return { file, bytes: fs.statSync(file).size, files: files.length, trimmed: trimmed.map((p) => path.relative(root, p)), replaced: [...replaced].map(([to, count]) => ({ to, count })), renamed, recorded, rejudged: { verdict: rejudged.verdict, reason: rejudged.reason }, judgedSame, leftovers: [...walk(staged).flatMap(leftovers), ...nameLeftovers(staged, replacements)].map((l) => ({ ...l, file: path.relative(staging, l.file) })) };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
