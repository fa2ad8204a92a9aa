// editTranscript builds the harness's edit-transcript step; defineScenario refuses one on a session never started.
import { describe, expect, it } from "vitest";
import { editTranscript } from "../../kit/transcripts.ts";
import { flattenSteps } from "../../kit/steps.ts";
import { session } from "../../kit/session.ts";
import { stepProblems } from "../../kit/scenario.ts";

describe("editTranscript", () => {
  const s1 = session("s1");
  const edit = (text: string) => `${text}x`;

  it("is the harness step with the session's label and the edit", () => {
    expect(flattenSteps([editTranscript("cut", { of: s1, edit })])).toEqual([{ kind: "edit-transcript", label: "cut", session: "s1", edit }]);
  });

  it("names a session that must have been started", () => {
    expect(stepProblems(flattenSteps([editTranscript("cut", { of: s1, edit })]))).toEqual([
      'steps[0] (edit-transcript) names session "s1", which no earlier start step started (started so far: none)',
    ]);
  });
});
