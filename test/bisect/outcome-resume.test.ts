// Reading an outcome from a run, and the resume command line.
import { describe, expect, it } from "vitest";
import { outcomeFor } from "../../bisect/outcome.ts";
import { resumeCommand } from "../../bisect/resume.ts";

const run = (verdict: "GREEN" | "RED" | "INCONCLUSIVE", findings: string[] = []) => ({ verdict, findings, runDir: "r", ms: 1 });

describe("outcomeFor", () => {
  it("is the verdict without --finding", () => {
    expect(outcomeFor()(run("INCONCLUSIVE"))).toBe("INCONCLUSIVE");
    expect(outcomeFor()(run("RED", ["a"]))).toBe("RED");
  });

  it("is the finding's presence with --finding on a judged run; an INCONCLUSIVE one is unjudged whatever it saw (issue 42)", () => {
    const of = outcomeFor("late-notification");
    expect(of(run("RED", ["other", "late-notification"]))).toBe("has:late-notification");
    expect(of(run("RED", ["other"]))).toBe("lacks:late-notification");
    expect(of(run("GREEN"))).toBe("lacks:late-notification");
    expect(of(run("INCONCLUSIVE", ["late-notification"]))).toBe("INCONCLUSIVE");
    expect(of(run("INCONCLUSIVE"))).toBe("INCONCLUSIVE");
  });
});

describe("resumeCommand", () => {
  it("carries the range, and --repeat / --finding only when set", () => {
    expect(resumeCommand({ scenario: "s", old: "2.1.1", new: "2.1.9", repeat: 1 })).toBe("ccrepro bisect s --old 2.1.1 --new 2.1.9");
    expect(resumeCommand({ scenario: "s", old: "2.1.1", new: "2.1.9", repeat: 3, finding: "f" })).toBe(
      "ccrepro bisect s --old 2.1.1 --new 2.1.9 --repeat 3 --finding f",
    );
  });

  it("carries every parameter, the runs directory and other options, so the resumed bisection asks the same question", () => {
    const line = resumeCommand({
      scenario: "s",
      old: "2.1.1",
      new: "2.1.9",
      repeat: 1,
      params: { resumeBy: "send-message", resumes: "2" },
      runsDir: "my runs",
      options: [["--driver", "sdk"]],
    });
    expect(line).toBe(
      "ccrepro bisect s --old 2.1.1 --new 2.1.9 --param resumeBy=send-message --param resumes=2 --runs-dir 'my runs' --reuse 'my runs' --driver sdk",
    );
  });

  it("quotes what a shell would split", () => {
    expect(resumeCommand({ scenario: "my scenario", old: "1.0.0", new: "2.0.0", repeat: 1, finding: "it's" })).toBe(
      "ccrepro bisect 'my scenario' --old 1.0.0 --new 2.0.0 --finding 'it'\\''s'",
    );
  });
});
