// Turns recorded run directories into test fixtures that name no path of the machine they were recorded on: the
// command line over report/prune-fixture.ts (copy mode) and report/anonymise.ts (in-place mode; the rules below).
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
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { runLayout } from "../harness/run-layout.ts";
import { anonymiseInPlace, leftoverLines, type Pruned } from "../report/anonymise.ts";
import { copyRun } from "../report/prune-fixture.ts";

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

// Prints what was done and where machine paths survived; exit 1 if any did.
function finish(pruned: Pruned): number {
  for (const line of pruned.lines) console.log(line);
  for (const line of leftoverLines(pruned.leftovers)) console.error(line);
  return pruned.leftovers.length > 0 ? 1 : 0;
}

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
    return finish(anonymiseInPlace(positionals.map((d) => path.resolve(d)), hints.map((h) => h.replace(/\/+$/, ""))));
  }
  if (values["run-dir"]) usageError("--run-dir belongs to --in-place");
  const [runDir, outDir, seqArg, ...extra] = positionals;
  if (!runDir || !outDir || extra.length) usageError("copy mode takes RUN_DIR OUT_DIR [SEQ,SEQ,…]");
  const layout = runLayout(runDir);
  if (!fs.existsSync(layout.runJson) && !fs.existsSync(layout.mockIndex)) usageError(`not a run directory: ${runDir}`);
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
  return finish(copyRun(runDir, outDir, {
    bodies,
    stream: values.stream ?? null,
    bodyKeys,
    trimText: trimText === undefined ? null : Number(trimText),
    dropHeaders: values["drop-headers"] ?? false,
    mockOnly: values["mock-only"] ?? false,
    foreground: values.foreground ?? null,
  }));
}

process.exitCode = main(process.argv.slice(2));
