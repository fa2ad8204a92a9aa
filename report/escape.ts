// Text into HTML or XML: the five special characters escaped, and control characters XML 1.0 forbids replaced.
const SPECIAL: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeMarkup(text: string): string {
  // Recorded stdout can carry terminal control bytes; one such byte makes a whole junit.xml unparseable.
  return text.replace(/[&<>"']/g, (c) => SPECIAL[c]!).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "\uFFFD");
}

// A value as JSON that can sit inside a <script> element whatever its strings hold: "<" (so no "</script" or "<!--")
// and the two line separators JavaScript once refused in literals are escaped.
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}
