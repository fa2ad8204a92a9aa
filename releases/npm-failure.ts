// Why an `npm install` ccrepro ran failed, in a line: the one place both installs (a release's dependencies, the Agent
// SDK) read npm's output, whose last line is usually the path of its log, not the cause.
export function npmFailure(result: { stderr: string; exitCode?: number | undefined; timedOut: boolean; code?: string | undefined }): string {
  if (result.timedOut) return "it timed out";
  if (result.code === "ENOENT") return "npm was not found on PATH";
  const lines = result.stderr.trim().split("\n").filter((line) => line.trim() !== "");
  return lines.find((line) => /npm (error|ERR!)/.test(line) && !/complete log/.test(line)) ?? lines[0] ?? `exit ${result.exitCode ?? "unknown"}`;
}
