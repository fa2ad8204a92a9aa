// Text into HTML or XML: the five special characters escaped, and control characters XML 1.0 forbids replaced.
const SPECIAL: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeMarkup(text: string): string {
  // Recorded stdout can carry terminal control bytes; one such byte makes a whole junit.xml unparseable.
  return text.replace(/[&<>"']/g, (c) => SPECIAL[c]!).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "\uFFFD");
}
