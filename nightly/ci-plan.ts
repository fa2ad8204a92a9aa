// The plan a CI job makes before it runs its matrix (`ccrepro ci plan`): which claude releases and Agent SDK releases
// the matrix needs, so the release cache is restored and saved under a key naming exactly those, and pruned to them.
import crypto from "node:crypto";
import { scenarioDrivers } from "../kit/scenario.ts";
import { scenarioByName } from "../pipeline/scenario-registry.ts";
import { releaseIndex } from "../releases/registry.ts";
import { DEFAULT_SDK_VERSION } from "../releases/sdk-install.ts";
import type { NightlyConfig } from "./config.ts";
import { planMatrix, type Plan } from "./matrix.ts";
import { loadPreviousNightly } from "./previous.ts";

export interface CiPlan {
  // claude releases, ascending.
  releases: string[];
  // Agent SDK releases the matrix's cells drive claude through, ascending; empty when no cell uses the SDK.
  sdk: string[];
  cells: number;
}

// The SDK each cell needs: an SDK cell's own; a cell run with its scenario's own driver, when that is the SDK, ccrepro's default.
export function sdkReleasesOf(plan: Pick<Plan, "cells">): string[] {
  const needed = plan.cells.flatMap((cell) => {
    if (cell.drive) return cell.drive.driver === "sdk" ? [cell.drive.sdk] : [];
    const scenario = scenarioByName(cell.scenario);
    return scenario && scenarioDrivers(scenario)[0] === "sdk" ? [DEFAULT_SDK_VERSION] : [];
  });
  return [...new Set(needed)].sort();
}

// `previous`: the summary since:previous counts from (the ledger's baseline), when there is one.
export async function planCi(config: NightlyConfig, previous: string | null): Promise<CiPlan> {
  const startedAt = previous === null ? null : loadPreviousNightly(previous).summary.startedAt;
  const plan = planMatrix(config, await releaseIndex(), startedAt);
  return { releases: plan.releases.map((r) => r.version), sdk: sdkReleasesOf(plan), cells: plan.cells.length };
}

// The release cache's key for a plan: its claude releases and SDK releases. An actions/cache key may not hold a comma
// and is at most 512 characters: a long list becomes its hash.
export function releasesKey(plan: Pick<CiPlan, "releases" | "sdk">): string {
  const joined = [...plan.releases, ...plan.sdk.map((sdk) => `sdk-${sdk}`)].join("_");
  return joined.length <= 200 ? joined : `sha256-${crypto.createHash("sha256").update(joined).digest("hex").slice(0, 32)}`;
}

// The plan as the action's step outputs, `name=value` lines for $GITHUB_OUTPUT.
export function ciPlanOutputs(plan: CiPlan): Record<string, string> {
  return { releases: plan.releases.join(" "), sdk: plan.sdk.join(" "), "releases-key": releasesKey(plan), cells: String(plan.cells) };
}
