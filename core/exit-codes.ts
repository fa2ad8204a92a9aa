// Every exit code ccrepro gives, in one table (issue 42, item 4). The verdict codes 0–4 say something about a release;
// the codes above them say how a command that spans releases ended; 3 is also every usage or input error, since no
// verdict about the binary was reached. docs/usage.md lists them for scripts.
import type { Verdict } from "./verdict.ts";

// `ccrepro run` / `ccrepro check`: the verdict.
export const VERDICT_EXIT: Record<Verdict, number> = { GREEN: 0, RED: 1, INCONCLUSIVE: 2, ERROR: 3, UNSUPPORTED: 4 };
// `git bisect run` convention: 0 good, 1 bad, 125 skip, ≥128 abort.
export const GIT_BISECT_EXIT: Record<Verdict, number> = { GREEN: 0, RED: 1, INCONCLUSIVE: 125, ERROR: 128, UNSUPPORTED: 125 };
// A command that failed or stopped short: a usage or input error (unknown scenario or version, bad parameter, busy
// port), an interruption, a refused pack, ccrepro's own crash. Like a harness ERROR, no verdict about the binary was
// reached. Never 1, which means RED.
export const EXIT_ERROR = 3 as const;
// A bisection stopped by --max-runs: there is no answer yet (the range is narrowed and the printed command resumes),
// and nothing failed.
export const EXIT_BISECT_BUDGET_SPENT = 5;
// Repeats that disagree (`run --repeat`), and a rate bisection whose pair is a lead, not a confirmed answer: not GREEN,
// not a plain RED (not every run showed the bug), not INCONCLUSIVE (the runs reached their point).
export const FLAKY_EXIT = 6;
// A bisection whose two ends give the same outcome: not reproduced as a change anywhere in the range. Not 3: nothing
// failed, and a script must tell "no change between these releases" from a harness failure.
export const EXIT_BISECT_NO_CHANGE = 7;
