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
        process.once("SIGINT", () => {
          process.stderr.write("ccrepro: interrupted — ending the run's processes\n");
          controller.abort();
        });
      }
      return interrupt.signal;
    },
  };
}
