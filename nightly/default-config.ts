// The configuration `npm start` runs: every scenario on the latest release, the baseline the seeds document, and anything new.
// Its expectations are the scenarios' own `known` lists.
import { parseNightlyConfig, SINCE_PREVIOUS, type NightlyConfig } from "./config.ts";
import { DEFAULT_SDK_VERSION } from "../releases/sdk-install.ts";

// The release seeds 000 and 002 were reported against, so its cells show the known bugs next to the latest release.
export const BASELINE_VERSION = "2.1.281";

export function defaultNightlyConfig(): NightlyConfig {
  return parseNightlyConfig(
    {
      versions: ["latest", BASELINE_VERSION, SINCE_PREVIOUS],
      // One SDK cell per scenario that supports the sdk driver: the latest release through the SDK the seeds used.
      sdkCells: { versions: ["latest"], sdk: [DEFAULT_SDK_VERSION] },
    },
    "(built-in default)",
  );
}
