// .github/workflows/atlas.yml cannot drift from the tool: every `node bin/ccrepro.mjs …` line of its run steps is
// parsed by the CLI's own command definition (commander, with the actions replaced, so nothing runs), the scenarios
// it defaults to are registered, and it shards, merges and publishes with the actions it says it does.
import fs from "node:fs";
import path from "node:path";
import { Command, CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { createCliContext } from "../../cli/context.ts";
import { findScenario } from "../../scenarios/index.ts";
import { workflowJob } from "../workflow-job.ts";

const WORKFLOW = path.resolve(import.meta.dirname, "../../.github/workflows/atlas.yml");
const text = fs.readFileSync(WORKFLOW, "utf8");

// The YAML this needs: each `run:` value, inline or a block scalar (`|`, `>`) of the lines indented past its key.
function runScripts(yaml: string): string[] {
  const lines = yaml.split("\n");
  const scripts: string[] = [];
  lines.forEach((line, i) => {
    const m = /^(\s*)(?:- )?run:\s*(.*)$/.exec(line);
    if (!m) return;
    const indent = m[1]!.length;
    if (!/^[|>][-+]?$/.test(m[2]!)) return void scripts.push(m[2]!);
    const block: string[] = [];
    for (const next of lines.slice(i + 1)) {
      if (next.trim() !== "" && next.length - next.trimStart().length <= indent) break;
      block.push(next.trim());
    }
    scripts.push(block.join("\n"));
  });
  return scripts;
}

// Shell words of one command, quotes removed; an expression `${{ … }}` stands for one value, here "1".
function words(command: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(command); m; m = re.exec(command)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

// Every ccrepro invocation in the scripts: continuation lines joined, cut at the first shell operator.
function ccreproCommands(yaml: string): string[][] {
  return runScripts(yaml)
    .map((s) => s.replace(/\\\n/g, " ").replace(/\$\{\{[^}]*\}\}/g, "1"))
    .flatMap((s) => s.split("\n"))
    .flatMap((line) => {
      const at = line.indexOf("node bin/ccrepro.mjs ");
      if (at < 0) return [];
      const command = line.slice(at + "node bin/ccrepro.mjs ".length).split(/\s(?:\|\||\||&&|;|>>?)\s/)[0]!;
      return [words(command)];
    });
}

// Parses argv with the named command's real definition; its action is replaced so nothing runs.
async function parse(argv: string[]): Promise<{ name: string; args: unknown[]; options: Record<string, unknown> }> {
  const name = argv[0]!;
  const file = path.resolve(import.meta.dirname, "../../cli/commands", `${name}.ts`);
  if (!fs.existsSync(file)) throw new Error(`the workflow runs "ccrepro ${name}", which is no ccrepro command`);
  const module = (await import(file)) as Record<string, unknown>;
  const register = Object.values(module).find((v) => typeof v === "function" && /^register\w*Command$/.test((v as { name: string }).name)) as (p: Command, c: ReturnType<typeof createCliContext>) => void;
  const program = new Command("ccrepro").exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  register(program, createCliContext(() => {}));
  let seen: { args: unknown[]; options: Record<string, unknown> } | null = null;
  for (const command of program.commands) command.action((...args: unknown[]) => void (seen = { args: args.slice(0, -2), options: args.at(-2) as Record<string, unknown> }));
  await program.parseAsync(argv, { from: "user" });
  return { name, ...seen! };
}

describe(".github/workflows/atlas.yml", () => {
  const commands = ccreproCommands(text);

  it("runs an atlas per shard and a merge that resolves the seams", () => {
    expect(commands.map((c) => c.slice(0, 2).join(" "))).toEqual(["atlas 1", "atlas --merge"]);
  });

  it("passes only options the CLI has, with values it accepts", async () => {
    const [shard, merge] = await Promise.all(commands.map(parse));
    expect(shard).toMatchObject({ name: "atlas", args: [["1"]], options: { versions: "1", stride: 1, out: "atlas-shard" } });
    expect(merge).toMatchObject({ name: "atlas", args: [[]], options: { merge: ["shards/atlas-shard-*"], resolve: true, out: "atlas" } });
  });

  it("would catch a command or option the CLI does not have", async () => {
    await expect(parse(["atlas", "x", "--no-such-option"])).rejects.toBeInstanceOf(CommanderError);
    await expect(parse(["atlas", "x", "--stride", "zero"])).rejects.toThrow(/--stride/);
    await expect(parse(["atlass", "x"])).rejects.toThrow(/no ccrepro command/);
    expect(ccreproCommands("      - run: |\n          node bin/ccrepro.mjs sweep a \\\n            --out b || true\n")).toEqual([["sweep", "a", "--out", "b"]]);
  });

  it("defaults to registered scenarios and publishes the merged site through Pages", () => {
    const scenarios = /scenarios:\n(?:\s+\w+:.*\n)*?\s+default: "([^"]+)"/.exec(text)?.[1];
    expect(scenarios?.split(",").length).toBeGreaterThan(0);
    for (const name of scenarios!.split(",")) expect(findScenario(name), name).toBeDefined();
    for (const action of ["actions/upload-artifact@v4", "actions/download-artifact@v4", "actions/upload-pages-artifact@v3", "actions/deploy-pages@v4"]) expect(text).toContain(`uses: ${action}`);
    expect(text).toMatch(/matrix:\n\s+include: \$\{\{ fromJSON\(needs\.plan\.outputs\.shards\) \}\}/);
    expect(text).toMatch(/pages: write/);
  });
});

describe(".github/workflows/nightly.yml's atlas job", () => {
  const nightly = fs.readFileSync(path.resolve(import.meta.dirname, "../../.github/workflows/nightly.yml"), "utf8");
  const job = workflowJob(nightly, "atlas");
  const commands = ccreproCommands(job);

  it("extends every entry of the kept atlas, through options the CLI has, and puts what changed on the run page", async () => {
    expect(commands.length).toBe(1);
    const [parsed] = await Promise.all(commands.map(parse));
    expect(parsed).toMatchObject({ name: "atlas", args: [[]], options: { extend: true, out: "atlas" } });
    expect(job).toContain("atlas/changes.txt");
    expect(job).toContain('>> "$GITHUB_STEP_SUMMARY"');
    // Kept from night to night, seeded by the committed atlas.
    expect(job).toContain("uses: actions/cache/restore@v4");
    expect(job).toContain("uses: actions/cache/save@v4");
    expect(job).toContain("cp docs/atlas/atlas.json atlas/atlas.json");
  });
});
