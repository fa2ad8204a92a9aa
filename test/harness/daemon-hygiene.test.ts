// The daemon's footprint outside the run: its socket directory (named as the releases name it) and its processes.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { daemonPids, daemonSocketDir, removeDaemonDir, removeProcessSockets } from "../../harness/daemon-hygiene.ts";
import { RUN_MARKER_VAR } from "../../harness/isolation.ts";
import { reapRun } from "../../harness/processes.ts";

const runId = `test-${crypto.randomBytes(6).toString("hex")}`;
const marker = { name: RUN_MARKER_VAR, value: runId };
const madeDirs: string[] = [];

afterAll(async () => {
  await reapRun(marker, []);
  for (const dir of madeDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("daemonSocketDir", () => {
  // Config dirs of two runs and the socket directories the real releases created for them (2026-11-30).
  it.each([
    ["2.1.150", "/tmp/bgwork/run-2.1.150-1796055349750/iso/config", "/tmp/cc-daemon-0/51189d1b"],
    ["2.1.332", "/tmp/bgwork/run-2.1.332-1796055283699/iso/config", "/tmp/cc-daemon-0/2f35c574"],
  ])("names the directory %s created", (_version, config, dir) => {
    expect(daemonSocketDir(config, 0)).toBe(dir);
  });

  it("keeps runs with different config dirs apart", () => {
    expect(daemonSocketDir("/runs/a/iso/config")).not.toBe(daemonSocketDir("/runs/b/iso/config"));
  });
});

describe("removeDaemonDir", () => {
  it("removes this run's socket directory and leaves another run's alone", () => {
    const mine = `/tmp/ccrepro-test-${runId}/mine/config`;
    const theirs = `/tmp/ccrepro-test-${runId}/theirs/config`;
    for (const config of [mine, theirs]) {
      const dir = daemonSocketDir(config);
      madeDirs.push(dir);
      fs.mkdirSync(path.join(dir, "spare"), { recursive: true });
      fs.writeFileSync(path.join(dir, "spare", "x.pty.sock"), "");
    }
    expect(removeDaemonDir(mine)).toEqual({ dir: daemonSocketDir(mine), existed: true, leftover: false });
    expect(fs.existsSync(daemonSocketDir(mine))).toBe(false);
    expect(fs.existsSync(path.join(daemonSocketDir(theirs), "spare", "x.pty.sock"))).toBe(true);
    expect(removeDaemonDir(mine)).toMatchObject({ existed: false, leftover: false });
  });
});

describe("daemonPids", () => {
  it("finds the run's `daemon run` process among its marked processes, detached or not", async () => {
    const env = { ...process.env, [RUN_MARKER_VAR]: runId };
    const hang = ["-e", "setInterval(() => {}, 1000)"];
    // Stand-ins by argv only: a daemon that detached into its own session, and a session host that is no daemon.
    const daemon = execa(process.execPath, [...hang, "daemon", "run", "--origin", "transient"], { env, detached: true, reject: false });
    const host = execa(process.execPath, [...hang, "--bg-pty-host", "daemon"], { env, reject: false });
    const other = execa(process.execPath, [...hang, "daemon", "run"], { reject: false });
    try {
      await expect.poll(() => daemonPids(marker), { timeout: 5000 }).toEqual([daemon.pid]);
    } finally {
      other.kill("SIGKILL");
      await reapRun(marker, []);
      await Promise.all([daemon, host, other]);
    }
    expect(daemonPids(marker)).toEqual([]);
  });
});

describe("removeProcessSockets", () => {
  it("removes the sockets of the given processes only", () => {
    // A uid no real user has, so the test never touches a live claude's sockets.
    const uid = 987_654;
    const dir = path.join("/tmp", `cc-socks-${uid}`);
    fs.mkdirSync(dir, { recursive: true });
    try {
      for (const pid of [101, 102]) fs.writeFileSync(path.join(dir, `${pid}.sock`), "");
      expect(removeProcessSockets([101, 101, 103], uid)).toEqual([path.join(dir, "101.sock")]);
      expect(fs.readdirSync(dir)).toEqual(["102.sock"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
