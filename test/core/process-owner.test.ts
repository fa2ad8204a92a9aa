// An owner is judged gone only from inside the pid namespace and boot its token names (issue 41): a container's pid
// seen from the host, or an older ccrepro's two-field token, is "unknown", and what it owns is left alone. Reads /proc
// of this process only; starts nothing.
import { describe, expect, it } from "vitest";
import { ownerState, ownerToken, parseOwnerToken, whyOwnerUnknown } from "../../core/process-owner.ts";

const mine = parseOwnerToken(ownerToken())!;
// A pid above the kernel's pid_max (4194304 at most): no process has it.
const NO_SUCH_PID = 999_999_999;
const token = (fields: Partial<typeof mine>) => {
  const t = { ...mine, ...fields };
  return `${t.pid}:${t.start}:${t.pidNamespace}:${t.boot}`;
};

describe("owner tokens", () => {
  it("name this process: pid, start time, pid namespace, boot; and it is alive", () => {
    expect(ownerToken()).toMatch(/^\d+:\d+:\d+:[0-9a-f-]{36}$/);
    expect(mine.pid).toBe(process.pid);
    expect(ownerState(ownerToken())).toBe("alive");
  });

  it("an owner in this namespace and boot whose pid is free, or taken by a later process, is gone", () => {
    expect(ownerState(token({ pid: NO_SUCH_PID }))).toBe("gone");
    expect(ownerState(token({ start: String(Number(mine.start) + 1) }))).toBe("gone");
  });

  it("an owner in another pid namespace or boot is unknown, however dead its pid looks from here", () => {
    expect(ownerState(token({ pid: NO_SUCH_PID, pidNamespace: "1" }))).toBe("unknown");
    expect(whyOwnerUnknown(token({ pid: NO_SUCH_PID, pidNamespace: "1" }))).toMatch(/another pid namespace/);
    expect(ownerState(token({ pid: NO_SUCH_PID, boot: "00000000-0000-0000-0000-000000000000" }))).toBe("unknown");
    expect(whyOwnerUnknown(token({ boot: "00000000-0000-0000-0000-000000000000" }))).toMatch(/another boot/);
  });

  it("an older ccrepro's two-field token, or a broken one, is unknown", () => {
    for (const old of [`${NO_SUCH_PID}:1`, "", "x:y:z:w", `${NO_SUCH_PID}:?:${mine.pidNamespace}:${mine.boot}`, `${token({})}:extra`]) {
      expect(parseOwnerToken(old), old).toBeNull();
      expect(ownerState(old), old).toBe("unknown");
    }
  });
});
