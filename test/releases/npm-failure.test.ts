// npm's stderr as `npm install` (npm 11) prints it on a failed install: the cause first, the log's path last.
import { describe, expect, it } from "vitest";
import { npmFailure } from "../../releases/npm-failure.ts";

const failed = (stderr: string, extra: { code?: string; timedOut?: boolean } = {}) => ({ stderr, exitCode: 1, timedOut: false, ...extra });

describe("npmFailure", () => {
  it("names npm's error line, not the path of its log", () => {
    const stderr = "npm error code ENOENT\nnpm error syscall open\nnpm error A complete log of this run can be found in: /root/.npm/_logs/x.log";
    expect(npmFailure(failed(stderr))).toBe("npm error code ENOENT");
    expect(npmFailure(failed("npm ERR! 404 Not Found\nnpm ERR! A complete log of this run can be found in: x"))).toBe("npm ERR! 404 Not Found");
  });

  it("says npm is missing, a timeout, or the exit code when npm printed nothing", () => {
    expect(npmFailure(failed("", { code: "ENOENT" }))).toBe("npm was not found on PATH");
    expect(npmFailure(failed("npm error x", { timedOut: true }))).toBe("it timed out");
    expect(npmFailure(failed("\n"))).toBe("exit 1");
    expect(npmFailure(failed("gyp: something odd\n"))).toBe("gyp: something odd");
  });
});
