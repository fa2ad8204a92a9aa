// The Agent SDK as a bisection axis: endpoints resolved to releases and the published releases between them.
import { UserError } from "../core/errors.ts";
import { resolveSdkVersion, sdkVersions, sdkVersionsBetween } from "../releases/sdk-install.ts";

export interface AxisRange {
  old: string;
  new: string;
  // Published releases strictly between old and new, oldest first (what runBisect takes as candidates).
  candidates: string[];
}

export async function bisectAxis(oldWord: string, newWord: string): Promise<AxisRange> {
  const [old, newer, all] = await Promise.all([resolveSdkVersion(oldWord), resolveSdkVersion(newWord), sdkVersions()]);
  for (const [flag, version] of [["--old", old], ["--new", newer]] as const) {
    if (!all.includes(version)) throw new UserError(`${flag} ${version} is not a published release of the Agent SDK`, "UNKNOWN_SDK_VERSION");
  }
  return { old, new: newer, candidates: sdkVersionsBetween(all, old, newer) };
}
