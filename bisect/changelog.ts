// Where a release's notes live in anthropics/claude-code's CHANGELOG.md, and whether that file is reachable from here.
import type { ChangelogReport } from "./types.ts";

const CHANGELOG_PAGE = "https://github.com/anthropics/claude-code/blob/main/CHANGELOG.md";
const CHANGELOG_RAW_URL = "https://raw.githubusercontent.com/anthropics/claude-code/main/CHANGELOG.md";

// GitHub's heading anchor: lower-cased, punctuation other than "-" and "_" dropped, spaces to "-" ("## 2.1.281" → "21281").
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

// `entry` is the release's section for a person to open; `raw` is the file a fetchChangelog check reads.
export function changelogLinks(version: string): { entry: string; raw: string } {
  return { entry: `${CHANGELOG_PAGE}#${anchor(version)}`, raw: CHANGELOG_RAW_URL };
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// Links for `versions` and, when the file can be fetched, whether each one has a heading in it.
export async function checkChangelog(
  versions: readonly string[],
  fetchChangelog: (() => Promise<string>) | undefined,
): Promise<ChangelogReport> {
  const entries = versions.map((version) => ({ version, url: changelogLinks(version).entry }));
  if (fetchChangelog === undefined) {
    return { status: "unchecked", note: "changelog not checked (ccrepro bisect --check-changelog checks it); links are unverified", entries };
  }
  let text: string;
  try {
    text = await fetchChangelog();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      status: "unreachable",
      note: `changelog not reachable from here (${why}); the links are unverified, open them where GitHub is reachable`,
      entries,
    };
  }
  const found = entries.map((entry) => ({
    ...entry,
    found: new RegExp(`^#{1,3}\\s+${escapeRegExp(entry.version)}\\s*$`, "m").test(text),
  }));
  const missing = found.filter((entry) => !entry.found).map((entry) => entry.version);
  return {
    status: "reachable",
    note:
      missing.length === 0
        ? "changelog checked: every release listed has an entry"
        : `changelog checked: no entry for ${missing.join(", ")}`,
    entries: found,
  };
}
