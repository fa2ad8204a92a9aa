// `ccrepro mock`: serve the mock Messages API standalone for a person's own claude.
import path from "node:path";
import { Option, type Command } from "commander";
import { loadMockScript } from "../../mock-api/load-script.ts";
import { mockScriptSchema } from "../../mock-api/script.ts";
import { startMockServer } from "../../mock-api/server.ts";
import type { CliContext } from "../context.ts";
import { parseScenarioParams } from "../params.ts";
import { wholeNumber } from "../numbers.ts";

export function registerMockCommand(program: Command, ctx: CliContext): void {
  program
    .command("mock")
    .description("serve the mock Messages API for your own claude; Ctrl-C stops it")
    .addOption(new Option("--script <file>", "a reply script (JSON)").conflicts("scenario"))
    .option("--scenario <name>", "use a scenario's reply script (default parameters)")
    .option("--port <n>", "port on 127.0.0.1 (default: a free one)", wholeNumber("--port", 0, 65535), 0)
    .option("--log-dir <dir>", "where requests are logged", path.join("runs", `mock-${Date.now()}`))
    .option("--strict", "answer a request the real API would reject with the API's 400, not the scripted reply")
    .action(async (options) => {
      const scenario = options.scenario ? await ctx.scenarioNamed(options.scenario) : null;
      const scripted = options.script
        ? loadMockScript(options.script)
        : mockScriptSchema.parse(scenario ? scenario.mockScript(parseScenarioParams(scenario, {})) : {});
      const script = options.strict ? { ...scripted, strict: true } : scripted;
      const server = await startMockServer({ script, port: options.port, logDir: path.resolve(options.logDir) });
      ctx.print(`mock Messages API at ${server.url}`);
      ctx.print(`request log: ${server.logDir}${script.strict ? " (strict: non-conforming requests get the API's 400)" : ""}`);
      ctx.print(`point claude at it: ANTHROPIC_BASE_URL=${server.url} ANTHROPIC_API_KEY=any claude …`);
      await new Promise<void>((resolve) => process.once("SIGINT", resolve));
      await server.close();
      ctx.note("mock stopped");
    });
}
