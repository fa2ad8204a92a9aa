// Which driver a scenario runs with: its declared or derived default, and a clear refusal of one it does not support.
import { describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.ts";
import { scenarioDrivers } from "../../kit/scenario.ts";
import { driverFor } from "../../pipeline/drivers.ts";
import { findScenario } from "../../scenarios/index.ts";

const scenario = (name: string) => {
  const found = findScenario(name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
};

describe("driverFor", () => {
  it("defaults to the scenario's first driver and accepts the others it declares", () => {
    const s = scenario("resume-orphaned-background-task");
    expect(scenarioDrivers(s)).toEqual(["headless", "sdk"]);
    expect(driverFor(s)).toBe("headless");
    expect(driverFor(s, "sdk")).toBe("sdk");
  });

  it("derives terminal for a scenario whose steps start the interactive UI, and refuses the sdk driver for it", () => {
    const s = scenario("background-mid-turn");
    expect(scenarioDrivers(s)).toEqual(["terminal"]);
    expect(driverFor(s)).toBe("terminal");
    expect(() => driverFor(s, "sdk")).toThrow(UserError);
    expect(() => driverFor(s, "sdk")).toThrow(/does not support the sdk driver \(it supports: terminal\)/);
  });

  it("derives headless for a scenario that declares nothing and starts -p sessions", () => {
    const s = scenario("subagent-resume-notification-header");
    expect(s.drivers).toBeUndefined();
    expect(scenarioDrivers(s)).toEqual(["headless"]);
    expect(() => driverFor(s, "sdk")).toThrow(/run it without --driver for its default, headless/);
  });
});
