// Every <task-notification> occurrence in a request's messages, with the header bytes in front of it, keyed for comparison.
import { formatPath, walkStrings } from "./json-value.ts";
import type { MessagesBody } from "./request-body.ts";

export const HEADER_KINDS = ["system-notification-preamble", "non-user-source", "system-reminder", "none", "other"] as const;
export type HeaderKind = (typeof HEADER_KINDS)[number];

// First line of the long preamble of a notification absorbed mid-turn (rWe in the 2.1.280 bundle, 494 chars in all).
export const SYSTEM_NOTIFICATION_HEADER = "[SYSTEM NOTIFICATION - NOT USER INPUT]";
// The generic header a re-rendered notification gets instead (sG in the 2.1.280 bundle, 48 chars with its newline).
export const NON_USER_SOURCE_HEADER = "[MESSAGE FROM NON-USER SOURCE - NOT USER INPUT]";

export interface NotificationOccurrence {
  // "<task-id>@messages[7]#0": the same task's notification at the same place in both requests of a boundary.
  key: string;
  taskId: string;
  messageIndex: number;
  // Among this task id's occurrences within the message, 0-based.
  occurrence: number;
  role: string;
  // The string holding it, e.g. messages[7].content[0].text.
  path: string;
  // The compared bytes: from the start of the string (or the previous occurrence's end) through </task-notification>.
  text: string;
  headerKind: HeaderKind;
}

interface Segment {
  taskId: string;
  start: number;
  end: number;
  // The segment's bytes in front of <task-notification>: where the header lives.
  lead: string;
}

const NOTIFICATION = /<task-notification>([\s\S]*?)<\/task-notification>/g;
const TASK_ID = /<task-id>\s*([^<]*?)\s*<\/task-id>/;

function segments(text: string): Segment[] {
  const out: Segment[] = [];
  let previousEnd = 0;
  for (const match of text.matchAll(NOTIFICATION)) {
    const end = match.index + match[0].length;
    const taskId = TASK_ID.exec(match[1] ?? "")?.[1] || "(no task-id)";
    out.push({ taskId, start: previousEnd, end, lead: text.slice(previousEnd, match.index) });
    previousEnd = end;
  }
  return out;
}

// The innermost header wins: a <system-reminder> wrapper is named only when no known header sits inside it,
// because the header inside is what a re-render changes (the header flip across a subagent resume).
export function classifyHeader(lead: string): HeaderKind {
  const wrapperOpen = lead.lastIndexOf("<system-reminder>");
  const insideWrapper = wrapperOpen > lead.lastIndexOf("</system-reminder>");
  const preamble = lead.lastIndexOf(SYSTEM_NOTIFICATION_HEADER);
  const nonUser = lead.lastIndexOf(NON_USER_SOURCE_HEADER);
  const latestHeader = Math.max(preamble, nonUser);
  if (latestHeader !== -1 && (!insideWrapper || latestHeader > wrapperOpen)) {
    return preamble > nonUser ? "system-notification-preamble" : "non-user-source";
  }
  if (insideWrapper) return "system-reminder";
  return lead.trim() === "" ? "none" : "other";
}

export function extractNotifications(body: MessagesBody): NotificationOccurrence[] {
  const out: NotificationOccurrence[] = [];
  body.messages.forEach((message, messageIndex) => {
    const seen = new Map<string, number>();
    walkStrings(message.content, ["messages", messageIndex, "content"], (text, keys) => {
      for (const segment of segments(text)) {
        const occurrence = seen.get(segment.taskId) ?? 0;
        seen.set(segment.taskId, occurrence + 1);
        out.push({
          key: `${segment.taskId}@messages[${messageIndex}]#${occurrence}`,
          taskId: segment.taskId,
          messageIndex,
          occurrence,
          role: message.role,
          path: formatPath(keys),
          text: text.slice(segment.start, segment.end),
          headerKind: classifyHeader(segment.lead),
        });
      }
    });
  });
  return out;
}

// The text with each occurrence (header included) replaced by a stand-in, so a prefix comparison skips what the
// notification comparison already judged.
export function maskNotifications(text: string): string {
  let out = "";
  let previousEnd = 0;
  for (const segment of segments(text)) {
    out += `⟦task-notification ${segment.taskId}⟧`;
    previousEnd = segment.end;
  }
  return out + text.slice(previousEnd);
}
