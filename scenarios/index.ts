// The explicit list of scenarios; a test checks it matches the files in this folder.
import apiFailureReportedAsSuccess from "./api-failure-reported-as-success.ts";
import apiRetryAfter from "./api-retry-after.ts";
import midStreamErrorPartial from "./mid-stream-error-partial.ts";
import modelFallbackOnOverload from "./model-fallback-on-overload.ts";
import nonstreamingFallbackReplay from "./nonstreaming-fallback-replay.ts";
import backgroundMidTurn from "./background-mid-turn.ts";
import hookTaskNotificationPrompt from "./hook-task-notification-prompt.ts";
import interruptMidToolResume from "./interrupt-mid-tool-resume.ts";
import printResumeCacheReuse from "./print-resume-cache-reuse.ts";
import resumeOrphanedBackgroundTask from "./resume-orphaned-background-task.ts";
import subagentResumeNotificationHeader from "./subagent-resume-notification-header.ts";
import type { Scenario } from "../kit/scenario.ts";

export const SCENARIOS: Scenario[] = [
  subagentResumeNotificationHeader,
  resumeOrphanedBackgroundTask,
  hookTaskNotificationPrompt,
  backgroundMidTurn,
  interruptMidToolResume,
  printResumeCacheReuse,
  apiFailureReportedAsSuccess,
  apiRetryAfter,
  midStreamErrorPartial,
  modelFallbackOnOverload,
  nonstreamingFallbackReplay,
] as Scenario[];

export function findScenario(name: string): Scenario | undefined {
  return SCENARIOS.find((scenario) => scenario.name === name);
}
