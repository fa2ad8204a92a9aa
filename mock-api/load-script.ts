// Reads and validates a reply script, with errors that name the offending field.
import type { z } from "zod";
import { readJsonFile } from "../core/json-file.ts";
import { MockApiError } from "./errors.ts";
import { mockScriptSchema, type MockScript } from "./script.ts";

type Issue = z.core.$ZodIssue;
type PathKey = PropertyKey;

// A union's failing branches hide the real mistake: keep the branches the input had the right shape for
// (their issue is deeper than "expected <type>" at the branch root) and report those.
function describeIssues(issues: readonly Issue[], prefix: readonly PathKey[]): string[] {
  return issues.flatMap((issue): string[] => {
    const at = [...prefix, ...issue.path];
    if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const plausible = issue.errors.filter(
        (branch) => !branch.every((inner) => inner.code === "invalid_type" && inner.path.length === 0),
      );
      if (plausible.length > 0) return plausible.flatMap((branch) => describeIssues(branch, at));
    }
    const detail = issue.code === "invalid_key" ? `: ${issue.issues.map((inner) => inner.message).join("; ")}` : "";
    return [`${at.length > 0 ? at.map(String).join(".") : "(top level)"}: ${issue.message}${detail}`];
  });
}

// Validates a script value (from a file or a scenario); `origin` names it in the error.
export function parseMockScript(value: unknown, origin: string): MockScript {
  const parsed = mockScriptSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const lines = [...new Set(describeIssues(parsed.error.issues, []))];
  throw new MockApiError("SCRIPT_INVALID", `mock script ${origin} is invalid:\n${lines.map((l) => `  ${l}`).join("\n")}`);
}

export function loadMockScript(file: string): MockScript {
  const value = readJsonFile(file, "mock script", (kind, message, cause) =>
    kind === "unreadable"
      ? new MockApiError("SCRIPT_NOT_FOUND", `${message}; pass the path of a JSON reply script (or --scenario NAME)`, { cause })
      : new MockApiError("SCRIPT_NOT_JSON", message, { cause }),
  );
  return parseMockScript(value, file);
}
