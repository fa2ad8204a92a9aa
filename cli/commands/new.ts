// `ccrepro new`: writes a starting scenario file into the current folder, ready to run.
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { UserError } from "../../core/errors.ts";
import { SCENARIOS } from "../../scenarios/index.ts";
import type { CliContext } from "../context.ts";
import { copyOfBuiltin, scenarioTemplate, TEMPLATE_KINDS, type TemplateKind } from "../scenario-template.ts";

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export function registerNewCommand(program: Command, ctx: CliContext): void {
  program
    .command("new")
    .description("write NAME.ts, a commented scenario to start from (or a copy of a built-in) that runs as it is")
    .argument("<name>", "the scenario's name: lower-case words joined by dashes, e.g. my-bug")
    .option("--kind <kind>", `the bug's shape: ${TEMPLATE_KINDS.join(" | ")}`, "headless")
    .option("--from <builtin>", "start from a built-in scenario (ccrepro scenarios lists them)")
    .option("--dir <dir>", "where to write it", ".")
    .action((name: string, options) => {
      if (!NAME.test(name)) throw new UserError(`"${name}" is not a scenario name: use lower-case words joined by dashes, e.g. my-bug`, "BAD_SCENARIO_NAME");
      if (SCENARIOS.some((s) => s.name === name)) throw new UserError(`"${name}" is a built-in scenario's name; pick a name of your own`, "BAD_SCENARIO_NAME");
      if (options.from !== undefined && !SCENARIOS.some((s) => s.name === options.from)) {
        throw new UserError(`--from ${options.from}: no such built-in; known: ${SCENARIOS.map((s) => s.name).join(", ")}`, "UNKNOWN_SCENARIO");
      }
      if (!(TEMPLATE_KINDS as readonly string[]).includes(options.kind)) {
        throw new UserError(`--kind ${options.kind}: no such template; pick one of ${TEMPLATE_KINDS.join(", ")}`, "BAD_ARGUMENT");
      }
      const file = path.join(options.dir, `${name}.ts`);
      if (fs.existsSync(file)) throw new UserError(`${file} already exists; pick another name or move it away`, "FILE_EXISTS");
      fs.writeFileSync(file, options.from ? copyOfBuiltin(options.from, name) : scenarioTemplate(name, options.kind as TemplateKind));
      ctx.print(`wrote ${file}`);
      ctx.print(`run it:   ccrepro run ./${path.relative(".", file)} --claude latest`);
      ctx.print('types:    npm i -D ccrepro here, so your editor resolves "ccrepro" and "ccrepro/checkers"');
    });
}
