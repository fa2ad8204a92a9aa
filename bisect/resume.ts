// The command line that restarts a bisection over the range learned so far.
export interface ResumeArgs {
  scenario: string;
  old: string;
  new: string;
  repeat: number;
  finding?: string;
}

// Single-quote anything a shell would split or expand, so the printed line can be pasted as is.
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function resumeCommand(args: ResumeArgs): string {
  const words = ["ccrepro", "bisect", args.scenario, "--old", args.old, "--new", args.new];
  if (args.repeat > 1) words.push("--repeat", String(args.repeat));
  if (args.finding !== undefined) words.push("--finding", args.finding);
  return words.map(shellWord).join(" ");
}
