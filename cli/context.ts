// What every command gets from the CLI: output channels, the exit code, scenario lookup, Ctrl-C as an abort signal.
import type { Scenario } from "../kit/scenario.ts";

export interface CliContext {
  print(text: string): void;
  // Progress and diagnostics: stderr, so stdout stays machine-readable with --json.
  note(text: string): void;
  setExit(code: number): void;
  // A built-in name or a scenario file's path (relative to the working directory).
  scenarioNamed(word: string): Promise<Scenario>;
  interruptSignal(): AbortSignal;
}

const INTERRUPTS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

export function createCliContext(setExit: (code: number) => void): CliContext {
  let interrupt: AbortController | null = null;
  return {
    print: (text) => process.stdout.write(`${text}\n`),
    note: (text) => process.stderr.write(`${text}\n`),
    setExit,
    // Loaded on first use: the scenario registry and its loader are most of a command's start-up.
    scenarioNamed: async (word) => (await import("../pipeline/scenario-source.ts")).loadScenario(word),
    // Ctrl-C aborts the current work; its cleanup still ends every process it started.
    interruptSignal() {
      if (!interrupt) {
        const controller = new AbortController();
        interrupt = controller;
        // SIGTERM (timeout, systemd, CI cancellation) and SIGHUP (a closed terminal) clean up as Ctrl-C does.
        const onSignal = (signal: NodeJS.Signals) => {
          for (const other of INTERRUPTS) process.removeListener(other, onSignal);
          process.stderr.write(`ccrepro: ${signal === "SIGINT" ? "interrupted" : `got ${signal}`} — ending the run's processes\n`);
          controller.abort();
        };
        for (const signal of INTERRUPTS) process.once(signal, onSignal);
      }
      return interrupt.signal;
    },
  };
}
