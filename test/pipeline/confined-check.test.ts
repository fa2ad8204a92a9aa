// A run directory from elsewhere is data, the scenario inside it code (issue 27, items 1 and 2): `ccrepro check` runs
// a crafted copy's check confined (no writes outside, no processes, no network), says so, and ends a check that never
// returns with an ERROR naming the file. Every crafted copy is made in a temp directory from a recorded run.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { checkChildOf, running } from "../fake-ccrepro.ts";

const CLI = new URL("../../bin/ccrepro.mjs", import.meta.url).pathname;
// A run of a file scenario on 2.1.332 (its README): run.json names scenario/many-continuations.ts as the copy.
const FILE_RUN = path.join(import.meta.dirname, "..", "fixtures", "runs", "continuations-2.1.332");
const COPY = path.join("scenario", "many-continuations.ts");

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-confined-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const ccrepro = (args: string[], env: Record<string, string> = {}) =>
  execa("node", [CLI, ...args], { reject: false, timeout: 90_000, env });

// A copy of the run whose scenario copy starts with `header` (imports, load-time code) and runs `body` first in its check.
function craftedRun(name: string, header: string, body: string): string {
  const dir = path.join(tmp, name);
  fs.cpSync(FILE_RUN, dir, { recursive: true });
  const source = fs.readFileSync(path.join(dir, COPY), "utf8");
  expect(source).toContain("  check: (rec) => {\n");
  fs.writeFileSync(path.join(dir, COPY), `${header}\n${source.replace("  check: (rec) => {\n", `  check: (rec) => {\n${body}\n`)}`);
  return dir;
}

const escaped = (what: string) => path.join(tmp, `escaped-${what}`);

describe("ccrepro check of a foreign run directory", { timeout: 120_000 }, () => {
  it("runs the copy's check confined: a write outside fails at load and in the check, and it says how it ran", async () => {
    const header = `import * as fs from "node:fs";\ntry { fs.writeFileSync(${JSON.stringify(escaped("load"))}, "pwned"); } catch {}`;
    const dir = craftedRun("writes", header, `    fs.writeFileSync(${JSON.stringify(escaped("check"))}, "pwned");`);
    const text = await ccrepro(["check", dir]);
    expect(fs.existsSync(escaped("load"))).toBe(false);
    expect(fs.existsSync(escaped("check"))).toBe(false);
    expect(text.exitCode, text.stdout + text.stderr).toBe(3);
    expect(text.stdout).toMatch(/^ERROR: the check of scenario file .*many-continuations\.ts threw: Access to this API has been restricted/);
    expect(text.stdout).toContain("ran: the scenario file's check confined (Node's permission model");
    expect(text.stdout).toContain("--trust runs it with your rights");
    // Issue 41, item 9: the line names only folders the permission model was given, each once, each one that exists
    // (it once listed the checkout's path with every letter's case flipped).
    const listed = /reads only (.*); no writes/.exec(text.stdout)![1]!.split(", ");
    expect(new Set(listed).size).toBe(listed.length);
    for (const folder of listed) expect(fs.existsSync(folder), folder).toBe(true);
  });

  it("refuses it processes and the network, and reading outside the run directory and ccrepro", async () => {
    const server = http.createServer((_req, res) => res.end("reached")).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const port = (server.address() as { port: number }).port;
    let reached = 0;
    server.on("request", () => (reached += 1));
    try {
      const header = [
        `import * as fs from "node:fs";`,
        `import { execFileSync } from "node:child_process";`,
        `const tried: string[] = [];`,
        `const attempt = (what: string, act: () => unknown) => { try { act(); tried.push(what + ": allowed"); } catch (e) { tried.push(what + ": " + ((e as { code?: string }).code ?? (e as Error).message)); } };`,
        `attempt("spawn", () => execFileSync("touch", [${JSON.stringify(escaped("spawn"))}]));`,
        `attempt("read", () => fs.readFileSync("/etc/hostname"));`,
        `const net = await fetch("http://127.0.0.1:${port}/").then(() => "allowed", (e: Error & { cause?: { code?: string } }) => e.cause?.code ?? e.message);`,
      ].join("\n");
      const dir = craftedRun("reaches", header, `    throw new Error(tried.join("; ") + "; network: " + net);`);
      const text = await ccrepro(["check", dir]);
      expect(text.exitCode).toBe(3);
      expect(text.stdout).toContain("spawn: ERR_ACCESS_DENIED; read: ERR_ACCESS_DENIED; network: ");
      expect(text.stdout).not.toMatch(/network: allowed/);
      expect(reached).toBe(0);
      expect(fs.existsSync(escaped("spawn"))).toBe(false);
    } finally {
      server.close();
    }
  });

  it("ends a check that never returns with an ERROR naming the file within its time limit", async () => {
    const dir = craftedRun("loops", "", "    for (;;) {}");
    const started = Date.now();
    const text = await ccrepro(["check", dir], { CCREPRO_CHECK_TIMEOUT_MS: "3000" });
    expect(text.exitCode).toBe(3);
    expect(text.stdout).toMatch(/^ERROR: the check of scenario file .*many-continuations\.ts did not return within 3 s and was ended/);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it("runs it with the user's rights only with --trust, and says so", async () => {
    const dir = craftedRun("trusted", `import * as fs from "node:fs";`, `    fs.writeFileSync(${JSON.stringify(escaped("trusted"))}, "asked for");`);
    const text = await ccrepro(["check", dir, "--trust"]);
    expect(text.stdout).toContain("ran: the scenario file's check with your rights (--trust)");
    expect(text.exitCode, text.stdout).toBe(0);
    expect(fs.existsSync(escaped("trusted"))).toBe(true);
  });
});

// Issue 41, item 3: the check's child dies with ccrepro, whatever way ccrepro dies, and a signal to ccrepro alone
// during a check ends it within a second as ERROR.
async function spinningCheck(args: string[]): Promise<{ ccrepro: ReturnType<typeof ccrepro>; child: number }> {
  const run = ccrepro(["check", craftedRun(`spins-${Math.random().toString(36).slice(2, 8)}`, "", "    for (;;) {}"), ...args]);
  const started = Date.now();
  for (;;) {
    const child = checkChildOf(run.pid!);
    // Spinning: the check is in its loop once the child has used some CPU; a second is plenty for the load.
    if (child !== null && Date.now() - started > 1_500) return { ccrepro: run, child };
    if (Date.now() - started > 30_000) throw new Error("the check's child never started");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a signal to ccrepro during a check", { timeout: 60_000 }, () => {
  for (const [signal, args] of [["SIGTERM", []], ["SIGINT", []], ["SIGTERM", ["--trust"]]] as const) {
    it(`${signal}${args.length ? ` with ${args.join(" ")}` : ""} ends ccrepro within a second as ERROR, and the check's child with it`, async () => {
      const { ccrepro: run, child } = await spinningCheck([...args]);
      const sent = Date.now();
      process.kill(run.pid!, signal);
      const done = await run;
      expect(Date.now() - sent).toBeLessThan(1_500);
      expect(done.exitCode, done.stdout + done.stderr).toBe(3);
      expect(done.stdout).toMatch(/^ERROR: the check of scenario file .*many-continuations\.ts was interrupted, and its process ended/);
      expect(running(child)).toBe(false);
    });
  }

  it("SIGKILL of ccrepro ends the check's child too, which no handler of ccrepro's could do", async () => {
    const { ccrepro: run, child } = await spinningCheck([]);
    process.kill(run.pid!, "SIGKILL");
    await run;
    const killed = Date.now();
    while (running(child) && Date.now() - killed < 3_000) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(running(child)).toBe(false);
  });
});
