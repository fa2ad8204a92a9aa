// Progress off a terminal: one plain line per event, with done/total and an ETA from this invocation's own pace.
import { describe, expect, it } from "vitest";
import { createProgress, downloadLine, etaMs } from "../../cli/progress.ts";

function fakeStream() {
  const lines: string[] = [];
  const stream = { isTTY: false, write: (text: string) => lines.push(text) } as unknown as NodeJS.WriteStream;
  return { stream, lines };
}

describe("createProgress off a terminal", () => {
  it("writes one line per event with the count and, once something finished, an ETA", () => {
    const { stream, lines } = fakeStream();
    let t = 0;
    const progress = createProgress("sweep demo", { stream, now: () => t });
    progress.start(4, 1);
    t = 10_000;
    progress.event("2.1.283 RED notification-changed", 1);
    progress.event("downloaded 2.1.284: 1.0 MB in 1.0 s");
    progress.stop();
    expect(lines).toEqual([
      "sweep demo [1/4] starting\n",
      "sweep demo [2/4, ETA 20.0 s] 2.1.283 RED notification-changed\n",
      "sweep demo [2/4, ETA 20.0 s] downloaded 2.1.284: 1.0 MB in 1.0 s\n",
    ]);
  });

  it("writes a caller's own counted lines as they are", () => {
    const { stream, lines } = fakeStream();
    const progress = createProgress("nightly", { stream, linesCarryCount: true });
    progress.start(2);
    progress.event("[1/2] RED x@2.1.281", 1);
    expect(lines.at(-1)).toBe("[1/2] RED x@2.1.281\n");
  });

  it("says a download's size and rate, and has no ETA before anything finished here", () => {
    expect(downloadLine("2.1.283", 120 * 1024 * 1024, 8000)).toBe("downloaded 2.1.283: 120.0 MB in 8.0 s (15.0 MB/s)");
    expect(etaMs(5000, 0, 3)).toBeNull();
    expect(etaMs(5000, 1, 3)).toBe(15_000);
  });
});
