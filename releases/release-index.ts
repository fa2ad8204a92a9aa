// What the release list says of each release, and the list itself: shared by the registry that reads it and the
// saved copy that stands in for it offline.

export interface ReleaseInfo {
  version: string;
  publishedAt: Date | null;
  integrity: string | null;
  // "js": the main package's own entry script, run with node. "native": a per-platform package's executable.
  era: "js" | "native";
  // For "js" only: the entry script relative to the package root (cli.mjs in the earliest releases, then cli.js).
  jsEntry: string | null;
  // For "native" only: the platform packages the release lists.
  platformPackages: string[];
  // Where a binary of this release is had from. The newest release can be published as its platform package (and
  // inside the Agent SDK's) before the main package: such a release is still a release (issue 27, item 10).
  origin: ReleaseOrigin;
}

export type ReleaseOrigin =
  | { kind: "claude-code" }
  // <CLAUDE_PACKAGE>-<platform>@<version>, with no main package of that version.
  | { kind: "platform-package"; package: string }
  // The Agent SDK's own platform package, whose manifest says which claude it carries (claudeCodeVersion).
  | { kind: "agent-sdk"; package: string; sdkVersion: string };

export interface ReleaseIndex {
  // Ascending semver order.
  versions: string[];
  distTags: Record<string, string>;
  releases: Map<string, ReleaseInfo>;
}
