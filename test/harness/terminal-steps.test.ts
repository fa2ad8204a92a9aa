// Prompt and dialog detection on screens recorded from real releases (see test/fixtures/background/README.md).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dialogShown, promptReady } from "../../harness/terminal-steps.ts";

const screen = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "..", "fixtures", "background", "screens", `${name}.txt`), "utf8");

describe("promptReady / dialogShown", () => {
  it.each(["1.0.34-prompt", "2.1.150-prompt", "2.1.332-prompt", "2.1.332-tool-running", "2.1.332-background-typed"])("%s: the input box is ready", (name) => {
    expect(promptReady(screen(name))).toBe(true);
    expect(dialogShown(screen(name))).toBe(false);
  });

  it.each(["2.1.150-trust-dialog", "2.1.150-onboarding", "2.1.332-trust-dialog", "2.1.332-api-key-dialog", "2.1.332-bypass-dialog"])(
    "%s: a dialog, not the prompt",
    (name) => {
      expect(promptReady(screen(name))).toBe(false);
      expect(dialogShown(screen(name))).toBe(true);
    },
  );

  it("is neither on a screen still drawing", () => {
    expect(promptReady("")).toBe(false);
    expect(dialogShown(" ▐▛███▛█   Claude Code v2.1.332")).toBe(false);
  });
});
