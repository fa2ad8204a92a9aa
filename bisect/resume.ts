// The command line that restarts a bisection over the range learned so far.
export interface ResumeArgs {
  scenario: string;
  old: string;
  new: string;
  repeat: number;
  finding?: string;
  // The scenario parameters as given (`--param key=value`), so the resumed bisection asks the same question.
  params?: Record<string, string>;
  // Where the interrupted bisection wrote its runs; the resumed one writes beside them.
  runsDir?: string;
  // Run directories the interrupted bisection reused verdicts from (--reuse), reused again.
  reuse?: readonly string[];
  // Any other option of the interrupted command, repeated as given (e.g. ["--driver", "sdk"]).
  options?: readonly (readonly [string, string])[];
}

// Single-quote anything a shell would split or expand, so the printed line can be pasted as is.
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function resumeCommand(args: ResumeArgs): string {
  const words = ["ccrepro", "bisect", args.scenario, "--old", args.old, "--new", args.new];
  if (args.repeat > 1) words.push("--repeat", String(args.repeat));
  if (args.finding !== undefined) words.push("--finding", args.finding);
  for (const [key, value] of Object.entries(args.params ?? {})) words.push("--param", `${key}=${value}`);
  if (args.runsDir !== undefined) words.push("--runs-dir", args.runsDir);
  // The runs directory is reused too: every verdict the interrupted bisection measured is taken, none run again.
  const reuse = new Set([...(args.reuse ?? []), ...(args.runsDir === undefined ? [] : [args.runsDir])]);
  for (const dir of reuse) words.push("--reuse", dir);
  for (const [flag, value] of args.options ?? []) words.push(flag, value);
  return words.map(shellWord).join(" ");
}
