// What every command gets from the CLI: output channels, the exit code, scenario lookup, Ctrl-C as an abort signal.
import { UserError } from "../core/errors.ts";
import { findScenario, SCENARIOS } from "../scenarios/index.ts";
import type { Scenario } from "../kit/scenario.ts";

export interface CliContext {
  print(text: string): void;
  // Progress and diagnostics: stderr, so stdout stays machine-readable with --json.
  note(text: string): void;
  setExit(code: number): void;
  scenarioNamed(name: string): Scenario;
  interruptSignal(): AbortSignal;
}

export function createCliContext(setExit: (code: number) => void): CliContext {
  let interrupt: AbortController | null = null;
  return {
    print: (text) => process.stdout.write(`${text}\n`),
    note: (text) => process.stderr.write(`${text}\n`),
    setExit,
    scenarioNamed(name) {
      const scenario = findScenario(name);
      if (!scenario) {
        throw new UserError(`unknown scenario "${name}"; known: ${SCENARIOS.map((s) => s.name).join(", ")}`, "UNKNOWN_SCENARIO");
      }
      return scenario;
    },
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
