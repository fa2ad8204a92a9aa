// The explicit list of scenarios; a test checks it matches the files in this folder.
import apiFailureReportedAsSuccess from "./api-failure-reported-as-success.ts";
import apiRetryAfter from "./api-retry-after.ts";
import midStreamErrorPartial from "./mid-stream-error-partial.ts";
import modelFallbackOnOverload from "./model-fallback-on-overload.ts";
import nonstreamingFallbackReplay from "./nonstreaming-fallback-replay.ts";
import rejectedImageResent from "./rejected-image-resent.ts";
import thinkingChangedOnReplay from "./thinking-changed-on-replay.ts";
import unparseableRequestBody from "./unparseable-request-body.ts";
import backgroundMidTurn from "./background-mid-turn.ts";
import compactResume from "./compact-resume.ts";
import compactTwice from "./compact-twice.ts";
import compactFailed from "./compact-failed.ts";
import continueLatest from "./continue-latest.ts";
import continueLatestInteractive from "./continue-latest-interactive.ts";
import hookTaskNotificationPrompt from "./hook-task-notification-prompt.ts";
import interruptMidToolResume from "./interrupt-mid-tool-resume.ts";
import printResumeCacheReuse from "./print-resume-cache-reuse.ts";
import resumePointsAtNothing from "./resume-points-at-nothing.ts";
import resumeBackgroundDaemonGone from "./resume-background-daemon-gone.ts";
import resumeHistoryLost from "./resume-history-lost.ts";
import resumeOrphanedBackgroundTask from "./resume-orphaned-background-task.ts";
import resumeMonitorStartsTurn from "./resume-monitor-starts-turn.ts";
import subagentResumeNotificationHeader from "./subagent-resume-notification-header.ts";
import hookDecisionEnforced from "./hook-decision-enforced.ts";
import maxTurnsCount from "./max-turns-count.ts";
import stopHookLoop from "./stop-hook-loop.ts";
import subagentBackgroundTaskNotified from "./subagent-background-task-notified.ts";
import mcpToolsFirstTurn from "./mcp-tools-first-turn.ts";
import nestedSubagentReplyRouted from "./nested-subagent-reply-routed.ts";
import type { Scenario } from "../kit/scenario.ts";

export const SCENARIOS: Scenario[] = [
  subagentResumeNotificationHeader,
  resumeOrphanedBackgroundTask,
  resumeMonitorStartsTurn,
  hookTaskNotificationPrompt,
  backgroundMidTurn,
  interruptMidToolResume,
  printResumeCacheReuse,
  hookDecisionEnforced,
  stopHookLoop,
  maxTurnsCount,
  subagentBackgroundTaskNotified,
  mcpToolsFirstTurn,
  nestedSubagentReplyRouted,
  continueLatest,
  continueLatestInteractive,
  resumeHistoryLost,
  resumePointsAtNothing,
  resumeBackgroundDaemonGone,
  compactResume,
  compactTwice,
  compactFailed,
  apiFailureReportedAsSuccess,
  apiRetryAfter,
  midStreamErrorPartial,
  modelFallbackOnOverload,
  nonstreamingFallbackReplay,
  rejectedImageResent,
  thinkingChangedOnReplay,
  unparseableRequestBody,
] as Scenario[];

export function findScenario(name: string): Scenario | undefined {
  return SCENARIOS.find((scenario) => scenario.name === name);
}
