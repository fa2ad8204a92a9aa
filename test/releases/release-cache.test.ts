import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import lockfile from "proper-lockfile";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeVersion, parseVersionOutput, sha256File } from "../../releases/binary-info.ts";
import { UserError } from "../../core/errors.ts";
import {
  cacheManifestSchema,
  evictToFit,
  fetchPackage,
  installRelease,
  listCachedVersions,
  type InstalledRelease,
} from "../../releases/release-cache.ts";
import { fakeEntry } from "./fake-cache.ts";
import { resolveClaude } from "../../releases/resolve.ts";

// The smallest release: a 12 MB tarball, cli.mjs run with node.
const SMALL = "0.2.9";
const GiB = 1024 ** 3;
const roots: string[] = [];

function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ccrepro-${label}-`));
  roots.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of roots) fs.rmSync(dir, { recursive: true, force: true });
});

const cleanEnv = (home: string) => ({ PATH: "/usr/bin:/bin", HOME: home });
// A probe runs in a folder of its own, its home as well.
const inOwnFolder = () => {
  const home = tempDir("home");
  return { env: cleanEnv(home), cwd: home };
};

function cacheNames(cache: string): string[] {
  return fs.readdirSync(cache).sort();
}

describe("installRelease (js era, live registry)", () => {
  const cache = tempDir("cache");
  let first: InstalledRelease;

  beforeAll(async () => {
    first = await installRelease(SMALL, { cacheDir: cache, maxBytes: GiB });
  }, 60_000);

  it("fetches, writes a manifest matching the executable, and the release runs with node", async () => {
    expect(first).toMatchObject({ version: SMALL, era: "js", fromCache: false, command: process.execPath });
    expect(first.args).toEqual([path.join(cache, SMALL, "package", "cli.mjs")]);
    expect(first.downloadedBytes).toBeGreaterThan(10_000_000);
    expect(first.bytes).toBeGreaterThan(first.downloadedBytes);
    const manifest = cacheManifestSchema.parse(JSON.parse(fs.readFileSync(path.join(cache, SMALL, "complete.json"), "utf8")));
    expect(manifest).toMatchObject({ version: SMALL, executable: "package/cli.mjs", sha256: first.sha256 });
    expect(manifest.integrity).toMatch(/^sha512-/);
    expect(await sha256File(first.executablePath)).toBe(first.sha256);
    const probe = await probeVersion(first.command, first.args, inOwnFolder());
    expect(probe).toMatchObject({ version: SMALL, exitCode: 0, timedOut: false });
    console.log(`fetch ${SMALL}: ${first.downloadedBytes} B downloaded, ${first.bytes} B on disk, ${first.fetchMs} ms`);
  });

  it("serves a second install from the cache and lists it", async () => {
    const again = await installRelease(SMALL, { cacheDir: cache, maxBytes: GiB });
    expect(again).toMatchObject({ fromCache: true, downloadedBytes: 0, sha256: first.sha256 });
    const listed = await listCachedVersions({ cacheDir: cache });
    expect(listed.map((e) => e.version)).toEqual([SMALL]);
    expect(cacheNames(cache)).toEqual([".locks", SMALL]);
  });

  it("detects a truncated executable and fetches again", async () => {
    fs.truncateSync(first.executablePath, 1000);
    const repaired = await installRelease(SMALL, { cacheDir: cache, maxBytes: GiB });
    expect(repaired.fromCache).toBe(false);
    expect(fs.statSync(repaired.executablePath).size).toBeGreaterThan(1000);
    expect(await sha256File(repaired.executablePath)).toBe(first.sha256);
  }, 60_000);

  it("fetches again an entry placed before its package's npm dependencies were installed beside it", async () => {
    const manifestFile = path.join(cache, SMALL, "complete.json");
    const { dependencies, ...earlier } = cacheManifestSchema.parse(JSON.parse(fs.readFileSync(manifestFile, "utf8")));
    expect(dependencies).toEqual({});
    fs.writeFileSync(manifestFile, JSON.stringify(earlier));
    // 0.2.9 declares none: such an earlier entry is whole as it is.
    expect((await installRelease(SMALL, { cacheDir: cache, maxBytes: GiB })).fromCache).toBe(true);
    // As 0.2.90–0.2.109's do: the entry lacks what the package imports, so it is fetched (and completed) again.
    const packageJson = path.join(cache, SMALL, "package", "package.json");
    fs.writeFileSync(packageJson, JSON.stringify({ ...JSON.parse(fs.readFileSync(packageJson, "utf8")), dependencies: { "better-sqlite3": "^11.9.1" } }));
    const again = await installRelease(SMALL, { cacheDir: cache, maxBytes: GiB });
    expect(again.fromCache).toBe(false);
    expect(again.dependencies).toEqual({});
  }, 60_000);

  it("detects same-size tampering only with full verification", async () => {
    const fd = fs.openSync(first.executablePath, "r+");
    fs.writeSync(fd, "X", 0);
    fs.closeSync(fd);
    const { mtime } = fs.statSync(first.executablePath);
    // Restoring the recorded mtime makes the cheap size+mtime check pass, which is what "full" exists for.
    const manifest = cacheManifestSchema.parse(JSON.parse(fs.readFileSync(path.join(cache, SMALL, "complete.json"), "utf8")));
    fs.utimesSync(first.executablePath, mtime, new Date(manifest.executableMtimeMs));
    expect((await installRelease(SMALL, { cacheDir: cache, maxBytes: GiB })).fromCache).toBe(true);
    const full = await installRelease(SMALL, { cacheDir: cache, maxBytes: GiB, verify: "full" });
    expect(full.fromCache).toBe(false);
    expect(await sha256File(full.executablePath)).toBe(first.sha256);
  }, 60_000);

  it("replaces a half-written entry and clears staging left by a dead process", async () => {
    fs.rmSync(path.join(cache, SMALL, "complete.json"));
    fs.mkdirSync(path.join(cache, `.staging-${SMALL}-99999-deadbeef`, "package"), { recursive: true });
    const repaired = await installRelease(SMALL, { cacheDir: cache, maxBytes: GiB });
    expect(repaired.fromCache).toBe(false);
    expect(cacheNames(cache)).toEqual([".locks", SMALL]);
  }, 60_000);

  it("resolves --claude words: an exact version from the cache, a path, and a missing path", async () => {
    expect(await resolveClaude(SMALL, { cacheDir: cache, maxBytes: GiB })).toMatchObject({ era: "js", fromCache: true });
    const local = await resolveClaude(first.executablePath);
    expect(local).toMatchObject({ era: "local", version: null, command: process.execPath, args: [first.executablePath] });
    const missing = await resolveClaude("./no/such/claude").catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: "MISSING_BINARY" });
    const notExecutable = path.join(tempDir("local"), "claude");
    fs.writeFileSync(notExecutable, "#!/bin/sh\n", { mode: 0o644 });
    expect(await resolveClaude(notExecutable).catch((e: unknown) => e)).toMatchObject({ code: "MISSING_BINARY" });
    const ambiguous = await resolveClaude(">=2.1.112 <2.1.117").catch((e: unknown) => e);
    expect(ambiguous).toMatchObject({ code: "AMBIGUOUS_VERSION" });
  });
});

describe("installRelease (last js release, live registry)", () => {
  it("runs 2.1.112's cli.js with node", async () => {
    const release = await installRelease("2.1.112", { cacheDir: tempDir("cache"), maxBytes: GiB });
    expect(release).toMatchObject({ era: "js", args: [expect.stringMatching(/package\/cli\.js$/)] });
    const probe = await probeVersion(release.command, release.args, inOwnFolder());
    expect(probe).toMatchObject({ version: "2.1.112", exitCode: 0 });
  }, 60_000);
});

describe("installRelease errors", () => {
  it("rejects an unpublished or malformed version before touching the cache", async () => {
    const cache = tempDir("cache");
    const unknown = await installRelease("2.1.115", { cacheDir: cache }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(UserError);
    expect(unknown).toMatchObject({ code: "UNKNOWN_VERSION" });
    expect(await installRelease("../x", { cacheDir: cache }).catch((e: unknown) => e)).toMatchObject({ code: "BAD_VERSION_WORD" });
    expect(await listCachedVersions({ cacheDir: cache })).toEqual([]);
  });

  it("refuses a tarball whose checksum does not match", async () => {
    const dest = path.join(tempDir("fetch"), "package");
    const wrong = "sha512-" + Buffer.alloc(64).toString("base64");
    const err = await fetchPackage(`@anthropic-ai/claude-code@${SMALL}`, wrong, dest).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "INSTALL_FAILED" });
    expect((err as Error).message).toContain("checksum");
    expect(fs.existsSync(path.join(dest, "cli.mjs"))).toBe(false);
  }, 60_000);
});

describe("concurrent installs", () => {
  it("two processes installing the same version both succeed and leave one clean entry", async () => {
    const cache = tempDir("cache");
    const fixture = path.join(import.meta.dirname, "fixtures", "install-release.ts");
    const run = () => execa(process.execPath, ["--import", "tsx", fixture, cache, SMALL]);
    const results = (await Promise.all([run(), run()])).map((r) => JSON.parse(r.stdout) as InstalledRelease);
    expect(results.map((r) => r.fromCache).sort()).toEqual([false, true]);
    expect(results[0]!.sha256).toBe(results[1]!.sha256);
    expect(cacheNames(cache)).toEqual([".locks", SMALL]);
    expect(fs.readdirSync(path.join(cache, ".locks"))).toEqual([]);
  }, 90_000);

  it("concurrent installs in one process fetch once", async () => {
    const cache = tempDir("cache");
    const results = await Promise.all([1, 2, 3].map(() => installRelease(SMALL, { cacheDir: cache, maxBytes: GiB })));
    expect(results.filter((r) => !r.fromCache)).toHaveLength(1);
    expect(cacheNames(cache)).toEqual([".locks", SMALL]);
  }, 60_000);
});

describe("evictToFit", () => {
  it("evicts least recently used first, until under the cap", async () => {
    const cache = tempDir("cache");
    fakeEntry(cache, "2.1.200", 10);
    fakeEntry(cache, "2.1.100", 30);
    fakeEntry(cache, "2.1.300", 20);
    fakeEntry(cache, "2.1.400", 5);
    const result = await evictToFit(cache, 2500);
    expect(result).toEqual({ evicted: ["2.1.100", "2.1.300"], totalBytes: 2000 });
    expect((await listCachedVersions({ cacheDir: cache })).map((e) => e.version)).toEqual(["2.1.200", "2.1.400"]);
  });

  it("skips versions in use by a live process or locked, and clears markers of dead ones", async () => {
    const cache = tempDir("cache");
    fakeEntry(cache, "2.1.100", 40);
    fakeEntry(cache, "2.1.200", 30);
    fakeEntry(cache, "2.1.300", 20);
    fakeEntry(cache, "2.1.400", 10);
    const marker = (version: string, pid: number) => {
      fs.mkdirSync(path.join(cache, version, "in-use"), { recursive: true });
      fs.writeFileSync(path.join(cache, version, "in-use", `${os.hostname()}-${pid}`), "");
    };
    marker("2.1.100", process.pid);
    const dead = execa(process.execPath, ["-e", ""]);
    await dead;
    marker("2.1.300", dead.pid!);
    fs.mkdirSync(path.join(cache, ".locks"), { recursive: true });
    const release = await lockfile.lock(path.join(cache, "2.1.200"), {
      realpath: false,
      lockfilePath: path.join(cache, ".locks", "2.1.200.lock"),
    });
    try {
      const result = await evictToFit(cache, 1000);
      expect(result).toEqual({ evicted: ["2.1.300", "2.1.400"], totalBytes: 2000 });
    } finally {
      await release();
    }
  });
});

describe("parseVersionOutput", () => {
  it("reads both output formats and nothing else", () => {
    expect(parseVersionOutput("2.1.281 (Claude Code)\n")).toBe("2.1.281");
    expect(parseVersionOutput("0.2.9\n")).toBe("0.2.9");
    expect(parseVersionOutput("Error: unknown option --version\n")).toBeNull();
  });
});

describe("installRelease (native era, live registry)", () => {
  it("installs 2.1.113 from the linux-x64 package; the executable runs and reports its version", async () => {
    const cache = tempDir("cache");
    const release = await installRelease("2.1.113", { cacheDir: cache, maxBytes: 8 * GiB });
    expect(release).toMatchObject({ era: "native", args: [], fromCache: false });
    expect(release.command).toBe(path.join(cache, "2.1.113", "package", "claude"));
    expect(fs.statSync(release.executablePath).mode & 0o111).not.toBe(0);
    const probe = await probeVersion(release.command, release.args, inOwnFolder());
    expect(probe).toMatchObject({ version: "2.1.113", exitCode: 0 });
    console.log(
      `fetch 2.1.113 native: ${release.downloadedBytes} B downloaded, ${release.bytes} B on disk, ${release.fetchMs} ms; --version ${probe.durationMs} ms`,
    );
  }, 120_000);
});
