// Types of sdk-child-protocol.mjs for the TypeScript side of the harness.
import type { z } from "zod";

export declare const sdkPlanSchema: z.ZodType<SdkPlan>;
export declare const sdkCommandSchema: z.ZodType<SdkCommand>;

export interface SdkPlan {
  sdkDir: string;
  pathToClaudeCodeExecutable: string;
  env: Record<string, string>;
  cwd: string;
  model: string;
  resume: string | null;
  options: Record<string, unknown>;
  cliStreams: { stdin: string; stdout: string } | null;
}

export type SdkCommand =
  | { op: "send"; text: string }
  | { op: "send"; json: Record<string, unknown> }
  | { op: "end-input" }
  | { op: "interrupt" }
  | { op: "abort" }
  | { op: "close-then-abort"; ms: number };

export declare function parsePlan(value: unknown): SdkPlan;
export declare function parseCommand(line: string): { ok: true; command: SdkCommand } | { ok: false; error: string };
export declare function userMessage(command: Extract<SdkCommand, { op: "send" }>): Record<string, unknown>;
export declare const END_MARKER: "ccreproSdkChild";
export type SdkChildOutcome = "completed" | "aborted" | "error";
export declare function endLine(outcome: SdkChildOutcome, detail: Record<string, unknown>): string;
export declare const SPAWNED_MARKER: "ccreproSdkChildSpawned";
