// A scenario's `env` and `files` reach claude and the tools it runs (issue 43, items 1 and 2), on both release eras:
// 2.1.112 (cli.js) and 2.1.332 (native). The env scenario sets CCREPRO_PROBE and unsets DISABLE_TELEMETRY, which
// ccrepro sets itself; the files scenario seeds NOTES.md into the working directory, a settings.json `env` block into
// the config directory (merged over ccrepro's own settings) and a file into HOME. The model's Bash call writes what
// it sees into a file, which the check reads from the working directory's snapshot.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ccreproCli } from "../e2e-run.ts";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-scenario-env-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

fs.writeFileSync(
  path.join(folder, "env-probe.ts"),
  `import { bash, conversation, defineScenario, print, session, text } from "ccrepro";
import { fileOf, finding, notReached, reached } from "ccrepro/checkers";
const s1 = session("s1");
export default defineScenario({
  name: "env-probe",
  summary: "the scenario's env reaches the tools claude runs",
  source: "issue 43",
  findings: ["env-not-applied"],
  sessions: [s1],
  env: { CCREPRO_PROBE: "on", DISABLE_TELEMETRY: null },
  mockScript: () => conversation({ main: { marker: "ENV_PROBE", replies: [bash('echo "probe=\${CCREPRO_PROBE-unset} telemetry=\${DISABLE_TELEMETRY-unset}" > env.txt', "write env.txt")], then: text("ok") } }),
  steps: () => [print(s1, "ENV_PROBE write the file")],
  check: (rec) => {
    const text = fileOf(rec, "env.txt")?.text?.trim();
    if (text === undefined) return { reached: notReached("env.txt was not written"), findings: [] };
    const ok = text === "probe=on telemetry=unset";
    return { reached: reached(), findings: ok ? [] : [finding({ id: "env-not-applied", title: \`env.txt says \${text}\`, where: "env.txt" })], notes: [text] };
  },
  needs: ["stream-json-output"],
});
`,
);

fs.writeFileSync(
  path.join(folder, "files-probe.ts"),
  `import { bash, conversation, defineScenario, print, session, text } from "ccrepro";
import { fileOf, finding, notReached, reached } from "ccrepro/checkers";
const s1 = session("s1");
export default defineScenario({
  name: "files-probe",
  summary: "the scenario's files are in place before the first session",
  source: "issue 43",
  findings: ["files-not-seeded"],
  sessions: [s1],
  files: { work: { "NOTES.md": "notes-7Q" }, config: { "settings.json": JSON.stringify({ env: { CCREPRO_FROM_SETTINGS: "yes" } }) }, home: { ".probe": "home-7Q" } },
  mockScript: () => conversation({ main: { marker: "FILES_PROBE", replies: [bash('echo "$(cat NOTES.md) settings=\${CCREPRO_FROM_SETTINGS-unset} $(cat ~/.probe)" > seen.txt', "write seen.txt")], then: text("ok") } }),
  steps: () => [print(s1, "FILES_PROBE write the file")],
  check: (rec) => {
    const text = fileOf(rec, "seen.txt")?.text?.trim();
    if (text === undefined) return { reached: notReached("seen.txt was not written"), findings: [] };
    const ok = text === "notes-7Q settings=yes home-7Q";
    return { reached: reached(), findings: ok ? [] : [finding({ id: "files-not-seeded", title: \`seen.txt says \${text}\`, where: "seen.txt" })], notes: [text] };
  },
  needs: ["stream-json-output"],
});
`,
);

describe("a scenario's files on both release eras", { timeout: 240_000 }, () => {
  for (const version of ["2.1.112", "2.1.332"]) {
    it(`${version}: in the working directory, the config directory (settings merged) and HOME before the first session`, async () => {
      const done = await ccreproCli(["run", "./files-probe.ts", "--claude", version, "--runs-dir", path.join(folder, `files-${version}`)], folder);
      expect(done.exitCode, done.stdout + done.stderr).toBe(0);
      expect(done.stdout).toContain("notes-7Q settings=yes home-7Q");
      expect(done.stderr).toContain("seeded 3 file(s): work/NOTES.md, config/settings.json, home/.probe");
    });
  }
});

describe("a scenario's env on both release eras", { timeout: 240_000 }, () => {
  for (const version of ["2.1.112", "2.1.332"]) {
    it(`${version}: set and unset as declared, in the tools' environment`, async () => {
      const done = await ccreproCli(["run", "./env-probe.ts", "--claude", version, "--runs-dir", path.join(folder, `runs-${version}`)], folder);
      expect(done.exitCode, done.stdout + done.stderr).toBe(0);
      expect(done.stdout).toMatch(/^GREEN/);
      expect(done.stdout).toContain("probe=on telemetry=unset");
    });
  }
});
