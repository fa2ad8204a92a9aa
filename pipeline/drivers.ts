// Which driver a run uses, and the Agent SDK it needs: the one place that decides whether a scenario supports a driver.
import { UserError } from "../core/errors.ts";
import { DRIVERS, scenarioDrivers, type Driver, type Scenario } from "../kit/scenario.ts";
import type { SdkInstall } from "../harness/sdk-session.ts";
import { DEFAULT_SDK_VERSION, installSdk } from "../releases/sdk-install.ts";

// The driver asked for, or the scenario's default; one it was not written for is refused here.
export function driverFor(scenario: Pick<Scenario, "name" | "drivers" | "steps" | "params">, requested?: Driver): Driver {
  const supported = scenarioDrivers(scenario);
  if (requested === undefined) return supported[0]!;
  if (!supported.includes(requested)) {
    throw new UserError(
      `scenario ${scenario.name} does not support the ${requested} driver (it supports: ${supported.join(", ")}); run it without --driver for its default, ${supported[0]}`,
      "UNSUPPORTED_DRIVER",
    );
  }
  return requested;
}

// The driver a run.json names (a string there, null in runs recorded before it was kept), or undefined for none.
export function recordedDriver(name: string | null): Driver | undefined {
  return DRIVERS.find((driver) => driver === name);
}

// Installs the SDK a run of the sdk driver goes through (cached after the first time); nothing for other drivers.
export async function sdkFor(driver: Driver, word: string | undefined): Promise<SdkInstall | undefined> {
  if (driver !== "sdk") return undefined;
  const requested = word ?? DEFAULT_SDK_VERSION;
  const installed = await installSdk(requested);
  return { requested, version: installed.version, packageDir: installed.packageDir };
}
