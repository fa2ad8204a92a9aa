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
  // "<task-id>/<tool-use-id>#0": the same notification in both requests of a boundary, wherever it sits, so a
  // notification moved by a message inserted before it is still compared with itself.
  key: string;
  taskId: string;
  // The <tool-use-id> of the call that started the task; null when the notification names none.
  toolUseId: string | null;
  messageIndex: number;
  // Among this identity's occurrences within the request, 0-based.
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
  toolUseId: string | null;
  start: number;
  end: number;
  // The segment's bytes in front of <task-notification>: where the header lives.
  lead: string;
}

const NOTIFICATION = /<task-notification>[\s\S]*?<\/task-notification>/g;
const TASK_ID = /<task-id>\s*([^<]*?)\s*<\/task-id>/;
const TOOL_USE_ID = /<tool-use-id>\s*([^<]*?)\s*<\/tool-use-id>/;

function segments(text: string): Segment[] {
  const out: Segment[] = [];
  let previousEnd = 0;
  for (const match of text.matchAll(NOTIFICATION)) {
    const end = match.index + match[0].length;
    const taskId = TASK_ID.exec(match[0])?.[1] || "(no task-id)";
    const toolUseId = TOOL_USE_ID.exec(match[0])?.[1] || null;
    out.push({ taskId, toolUseId, start: previousEnd, end, lead: text.slice(previousEnd, match.index) });
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
  const seen = new Map<string, number>();
  body.messages.forEach((message, messageIndex) => {
    walkStrings(message.content, ["messages", messageIndex, "content"], (text, keys) => {
      for (const segment of segments(text)) {
        const identity = `${segment.taskId}/${segment.toolUseId ?? "-"}`;
        const occurrence = seen.get(identity) ?? 0;
        seen.set(identity, occurrence + 1);
        out.push({
          key: `${identity}#${occurrence}`,
          taskId: segment.taskId,
          toolUseId: segment.toolUseId,
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
