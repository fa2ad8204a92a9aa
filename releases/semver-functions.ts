// The semver functions a run's release lookup uses, each from its own module: the package's index loads all ~50 of
// its files (~18 ms of every run's start-up, against ~10 ms for these).
export { default as clean } from "semver/functions/clean.js";
export { default as compare } from "semver/functions/compare.js";
export { default as gt } from "semver/functions/gt.js";
export { default as lt } from "semver/functions/lt.js";
export { default as lte } from "semver/functions/lte.js";
export { default as prerelease } from "semver/functions/prerelease.js";
export { default as satisfies } from "semver/functions/satisfies.js";
export { default as valid } from "semver/functions/valid.js";
export { default as validRange } from "semver/ranges/valid.js";
