// The anonymiser's replacement rules: longest prefix first, at path boundaries, dashed forms, after colour codes.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { anonymiseText, discover, MachinePaths, replacementsFor } from "../../report/anonymise.ts";

function replacer(entries: [Parameters<MachinePaths["add"]>[0], string][]) {
  const paths = new MachinePaths();
  for (const [kind, p] of entries) paths.add(kind, p);
  const replacements = replacementsFor(paths);
  return (text: string) => anonymiseText(text, replacements);
}

describe("anonymiseText", () => {
  const anonymise = replacer([
    ["run", "/srv/me/runs/20261130T000000Z-x-2.1.1-aa"],
    ["home", "/srv/me"],
    ["tmp", "/tmp"],
  ]);

  it("replaces the longest known prefix, so a run directory wins over its runs folder and the home around it", () => {
    expect(anonymise("/srv/me/runs/20261130T000000Z-x-2.1.1-aa/iso/work and /srv/me/runs/other and /srv/me/.bashrc")).toBe("/RUN/iso/work and /RUNS/other and /HOME/.bashrc");
  });

  it("only at path boundaries", () => {
    expect(anonymise("/srv/meadow /tmpfile x/tmp/y")).toBe("/srv/meadow /tmpfile x/tmp/y");
  });

  it("replaces the dashed form claude derives from a path", () => {
    expect(anonymise("projects/-srv-me-runs-20261130T000000Z-x-2-1-1-aa-iso-work")).toBe("projects/-RUN-iso-work");
  });

  it("catches a path right after a colour code, raw or JSON-escaped", () => {
    expect(anonymise("\u001b[38;5;246m/tmp/x")).toBe("\u001b[38;5;246m/TMP/x");
    // The UI draws a space as a cursor move: "Logging to: <path>" arrives as "to:\u001b[1C<path>".
    expect(anonymise('"to:\\u001b[1C/tmp/x"')).toBe('"to:\\u001b[1C/TMP/x"');
    expect(anonymise('"\\u001b[38;5;246m/srv/me/notes"')).toBe('"\\u001b[38;5;246m/HOME/notes"');
  });
});

describe("discover", () => {
  it("learns a run directory from a session's --debug-file and the iso/ paths its logs name", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-discover-"));
    const session = path.join(dir, "sessions", "s1", "session.json");
    fs.mkdirSync(path.dirname(session), { recursive: true });
    fs.writeFileSync(session, JSON.stringify({ argv: ["/opt/c/2.1.1/package/claude", "--debug-file", "/srv/r/run1/sessions/s1/debug.log"] }));
    const log = path.join(dir, "sessions", "s1", "stdout.jsonl");
    fs.writeFileSync(log, '{"cwd":"/srv/r/run1/iso/work"}\n{"other":"/srv/elsewhere/run2/iso/tmp/x"}\n');
    const { root, paths } = discover(dir, [session, log], []);
    expect(root).toBe("/srv/r/run1");
    expect([...paths.found.cache]).toEqual(["/opt/c"]);
    expect([...paths.found.runs].sort()).toEqual(["/srv/elsewhere", "/srv/r"]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
