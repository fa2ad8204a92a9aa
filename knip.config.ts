// knip: finds unused files, exports and dependencies (test/knip.test.ts keeps both of its modes clean). Entries
// marked "!" are the production ones: `knip --production` leaves the tests out, so an export only a test uses is found
// there, unless it is tagged `@internal` (a pure function exported for its own unit tests).
import type { KnipConfig } from "knip";

const config: KnipConfig = {
  // The package's bin and exports are entries too (knip reads package.json).
  entry: [
    "cli/main.ts!",
    "scenarios/*.ts!",
    "examples/**/*.ts!",
    "scripts/*.{ts,mjs}!",
    // Started by path as processes of their own (the SDK child, the hook recorder's helpers, the confined check).
    "harness/*.mjs!",
    "pipeline/*.mjs!",
    "test/**/*.{ts,mjs}",
    "*.config.{ts,mjs}",
  ],
  project: ["**/*.{ts,mjs}!"],
  // Stryker's sandboxes, copies of the tree while a mutation run is on.
  ignore: [".stryker-tmp*/**"],
  // The type of stryker.config.mjs's JSDoc comes with @stryker-mutator/core.
  ignoreDependencies: ["@stryker-mutator/api"],
  // The fault tests' system tools: installed with the machine, not from npm.
  ignoreBinaries: ["mount", "umount", "unshare", "apt-get"],
  ignoreExportsUsedInFile: true,
};

export default config;
