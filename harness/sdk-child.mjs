// Drives one claude session through the Agent SDK's query(), as an orchestrator does: commands in on stdin, the
// SDK's messages out on stdout (one JSON line each, the message object as the SDK yields it).
// Usage: node sdk-child.mjs <plan.json>   (the plan's shape: sdk-child-protocol.mjs)
// stderr carries the CLI's stderr as it is, then one last line {"ccreproSdkChild":{outcome,…}}.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";
import { endLine, parseCommand, parsePlan, SPAWNED_MARKER, userMessage } from "./sdk-child-protocol.mjs";

// How long the child stays after the query ended for the CLI itself to exit: the SDK's own close escalates
// stdin EOF → 2 s → SIGTERM → 5 s → SIGKILL on timers it unrefs, and those must get to run.
const CLI_EXIT_WAIT_MS = 10_000;

// An async iterable the SDK reads its streaming input from; end() finishes it.
class InputQueue {
  #items = [];
  #waiting = null;
  #ended = false;
  push(item) {
    if (this.#ended) throw new Error("the input has already ended");
    if (this.#waiting) {
      this.#waiting({ value: item, done: false });
      this.#waiting = null;
    } else this.#items.push(item);
  }
  end() {
    this.#ended = true;
    if (this.#waiting) this.#waiting({ value: undefined, done: true });
    this.#waiting = null;
  }
  get ended() {
    return this.#ended;
  }
  [Symbol.asyncIterator]() {
    return {
      next: () => {
        if (this.#items.length > 0) return Promise.resolve({ value: this.#items.shift(), done: false });
        if (this.#ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.#waiting = resolve));
      },
    };
  }
}

const writeLine = (stream, line) => stream.write(`${line}\n`);

// Records one side of the CLI's own stdio as {t, raw} lines, the format of the harness's stdout/stdin files.
function recordLines(stream, file) {
  fs.writeFileSync(file, "");
  readline.createInterface({ input: stream, crlfDelay: Infinity }).on("line", (raw) => {
    fs.appendFileSync(file, `${JSON.stringify({ t: Date.now(), raw })}\n`);
  });
}

// The SDK's own spawn, repeated with the CLI's stdout and stdin teed to files: the SDK consumes control messages
// (control_request/response, keep_alive, transcript_mirror) that never reach its message stream.
function teeingSpawn(files, cli) {
  return ({ command, args, cwd, env, signal }) => {
    const child = spawn(command, args, { cwd, env, signal, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    cli.pid = child.pid ?? null;
    cli.argv = [command, ...args];
    cli.exited = new Promise((resolve) => child.once("exit", (code, sig) => resolve({ code, signal: sig })));
    // Said at once too: a child the run's cleanup kills never writes its end line.
    writeLine(process.stderr, JSON.stringify({ [SPAWNED_MARKER]: { cliPid: cli.pid, cliArgv: cli.argv } }));
    child.on("error", () => undefined);
    child.stderr.pipe(process.stderr, { end: false });
    recordLines(child.stdout, files.stdout);
    // Both sides read the CLI's stdout: the SDK's stream and our recorder.
    const forSdk = child.stdout;
    fs.writeFileSync(files.stdin, "");
    const stdin = child.stdin;
    const write = stdin.write.bind(stdin);
    stdin.write = (chunk, ...rest) => {
      for (const raw of String(chunk).split("\n").filter((l) => l !== "")) {
        fs.appendFileSync(files.stdin, `${JSON.stringify({ t: Date.now(), raw })}\n`);
      }
      return write(chunk, ...rest);
    };
    return {
      stdin,
      stdout: forSdk,
      get killed() {
        return child.killed;
      },
      get exitCode() {
        return child.exitCode;
      },
      kill: child.kill.bind(child),
      on: child.on.bind(child),
      once: child.once.bind(child),
      off: child.off.bind(child),
    };
  };
}

async function main() {
  const planFile = process.argv[2];
  if (!planFile) throw new Error("usage: node sdk-child.mjs <plan.json>");
  const plan = parsePlan(JSON.parse(fs.readFileSync(planFile, "utf8")));
  const sdk = await import(pathToFileURL(path.join(plan.sdkDir, "sdk.mjs")).href);
  const input = new InputQueue();
  const abortController = new AbortController();
  const cli = { pid: null, argv: null, exited: null };
  const options = {
    ...plan.options,
    pathToClaudeCodeExecutable: plan.pathToClaudeCodeExecutable,
    env: plan.env,
    cwd: plan.cwd,
    model: plan.model,
    abortController,
    ...(plan.resume ? { resume: plan.resume } : {}),
    ...(plan.cliStreams
      ? { spawnClaudeCodeProcess: teeingSpawn(plan.cliStreams, cli) }
      : { stderr: (text) => process.stderr.write(text) }),
  };
  const q = sdk.query({ prompt: input, options });
  let abortTimer = null;
  const abort = (reason) => {
    if (!abortController.signal.aborted) abortController.abort(new Error(reason));
  };

  const commands = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  commands.on("line", (line) => {
    if (line.trim() === "") return;
    const parsed = parseCommand(line);
    if (!parsed.ok) {
      writeLine(process.stderr, JSON.stringify({ ccreproSdkChildCommandError: parsed.error, line }));
      return;
    }
    const command = parsed.command;
    try {
      switch (command.op) {
        case "send":
          input.push(userMessage(command));
          break;
        case "end-input":
          input.end();
          break;
        case "interrupt":
          q.interrupt().catch((error) => writeLine(process.stderr, JSON.stringify({ ccreproSdkChildCommandError: `interrupt: ${error.message}` })));
          break;
        case "abort":
          abort("abort command");
          break;
        case "close-then-abort":
          input.end();
          abortTimer = setTimeout(() => abort(`close-then-abort after ${command.ms} ms`), command.ms);
          break;
      }
    } catch (error) {
      writeLine(process.stderr, JSON.stringify({ ccreproSdkChildCommandError: error.message, line }));
    }
  });
  // The harness going away ends the input, as an orchestrator's end would.
  commands.on("close", () => {
    if (!input.ended) input.end();
  });

  let outcome = "completed";
  let detail = {};
  try {
    for await (const message of q) writeLine(process.stdout, JSON.stringify(message));
  } catch (error) {
    outcome = abortController.signal.aborted ? "aborted" : "error";
    detail = { name: error?.name ?? null, message: String(error?.message ?? error) };
  }
  if (abortTimer) clearTimeout(abortTimer);
  commands.close();
  // The timer is cleared once the CLI exits: left running it would hold this process for the whole wait.
  let exitWait = null;
  const exit = cli.exited
    ? await Promise.race([cli.exited, new Promise((resolve) => (exitWait = setTimeout(() => resolve(null), CLI_EXIT_WAIT_MS)))])
    : null;
  clearTimeout(exitWait);
  writeLine(process.stderr, endLine(outcome, { ...detail, cliPid: cli.pid, cliArgv: cli.argv, cliExit: exit }));
  process.exitCode = outcome === "error" ? 1 : 0;
}

main().catch((error) => {
  writeLine(process.stderr, endLine("error", { name: error?.name ?? null, message: String(error?.stack ?? error) }));
  process.exitCode = 1;
});
