// `ccrepro record`: run the user's own command through the recording proxy and write what it said to the API.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { UserError } from "../../core/errors.ts";
import { compactUtc } from "../../core/time.ts";
import { startRecordingProxy, type RecordingProxy } from "../../mock-api/recorder.ts";
import { RECORDING_FILE, writeRecording } from "../../mock-api/recording.ts";
import type { CliContext } from "../context.ts";
import { wholeNumber } from "../numbers.ts";

const DEFAULT_UPSTREAM = "https://api.anthropic.com";

function runCommand(command: string[], proxyUrl: string): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: "inherit", env: { ...process.env, ANTHROPIC_BASE_URL: proxyUrl } });
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(new UserError(`could not start ${JSON.stringify(command[0])}: ${error.code ?? error.message}: check the command after --`, "BAD_COMMAND")),
    );
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
}

function finish(ctx: CliContext, proxy: RecordingProxy, outDir: string): string {
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, RECORDING_FILE);
  const recording = proxy.recording();
  writeRecording(file, recording, proxy.redactor);
  for (const problem of proxy.unreachable()) ctx.note(`ccrepro record: ${problem}; the command saw a 502 API error for it`);
  ctx.print(`recorded ${recording.exchanges.length} requests from ${recording.processes.length} processes: ${file}`);
  ctx.print(`make it a scenario: ccrepro import ${file} --out my-bug.ts`);
  return file;
}

export function registerRecordCommand(program: Command, ctx: CliContext): void {
  program
    .command("record")
    .description("run a command with ANTHROPIC_BASE_URL on a recording proxy to the real API (or --upstream), and write the recording")
    .argument("[command...]", "the command to run, after --: e.g. -- claude -p 'hello'")
    .option("--upstream <url>", "where requests go on to (default: $ANTHROPIC_BASE_URL, else the real API)")
    .option("--out <dir>", `where ${RECORDING_FILE} is written`)
    .option("--port <n>", "the proxy's port on 127.0.0.1 (default: a free one)", wholeNumber("--port", 0, 65535), 0)
    .option("--serve", "print the environment line and record until Ctrl-C, for a program you start yourself")
    .action(async (command: string[], options) => {
      if (options.serve === (command.length > 0)) {
        throw new UserError("give either a command after -- (ccrepro record -- claude -p hi) or --serve, not both and not neither", "CONFLICTING_OPTIONS");
      }
      const outDir = path.resolve(options.out ?? path.join("recordings", compactUtc(new Date())));
      const upstream = options.upstream ?? process.env.ANTHROPIC_BASE_URL ?? DEFAULT_UPSTREAM;
      const proxy = await startRecordingProxy({ upstream, port: options.port, env: process.env, command: options.serve ? null : command });
      try {
        if (options.serve) {
          ctx.print(`recording proxy to ${new URL(upstream).origin} at ${proxy.url}; Ctrl-C writes the recording`);
          ctx.print(`ANTHROPIC_BASE_URL=${proxy.url}`);
          await new Promise<void>((resolve) => process.once("SIGINT", resolve));
          await proxy.close();
          finish(ctx, proxy, outDir);
          return;
        }
        // The command's Ctrl-C is its own; the recording is written once it exits.
        const onSigint = () => undefined;
        process.on("SIGINT", onSigint);
        const exit = await runCommand(command, proxy.url).finally(() => process.off("SIGINT", onSigint));
        await proxy.close();
        finish(ctx, proxy, outDir);
        if (exit.code !== 0) ctx.note(`ccrepro record: the command ended with ${exit.signal ?? `exit code ${exit.code}`}`);
        ctx.setExit(exit.code ?? 1);
      } finally {
        await proxy.close();
      }
    });
}
