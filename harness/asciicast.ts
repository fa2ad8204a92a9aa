// A terminal session's recorded output chunks as an asciinema v2 recording (.cast), with a marker at each step.
import fs from "node:fs";
import { z } from "zod";
import { readJsonLines, sessionProcessSchema } from "./recordings.ts";
import { castFile, runLayout, sessionLayout, terminalFiles } from "./run-layout.ts";
import type { StepRecord } from "./run-record.ts";
import type { TerminalSession } from "./terminal-session.ts";

export interface TerminalChunk {
  // Epoch milliseconds, as terminal.jsonl records them.
  t: number;
  data: string;
}

export interface CastMarker {
  t: number;
  label: string;
}

export interface CastInput {
  cols: number;
  rows: number;
  // Time 0 of the recording (epoch ms): the UI's spawn, so the first frame shows how long it took to draw.
  start: number;
  chunks: readonly TerminalChunk[];
  markers: readonly CastMarker[];
  title?: string;
}

// v2: one header object, then one [seconds, code, data] array per line. Code "m" (marker) is read by asciinema-player 3.
export function toAsciicast(input: CastInput): string {
  const header = {
    version: 2,
    width: input.cols,
    height: input.rows,
    timestamp: Math.floor(input.start / 1000),
    env: { TERM: "xterm-256color", SHELL: "/bin/bash" },
    ...(input.title === undefined ? {} : { title: input.title }),
  };
  // Output keeps its recorded order (reordering terminal output would garble the screen); each marker goes before the
  // first chunk recorded after it, so on equal times output comes first and a seek to a marker shows that screen.
  const markers = [...input.markers].sort((a, b) => a.t - b.t);
  const events: { t: number; code: "o" | "m"; data: string }[] = [];
  let next = 0;
  for (const chunk of input.chunks) {
    for (; next < markers.length && markers[next]!.t < chunk.t; next++) events.push({ t: markers[next]!.t, code: "m", data: markers[next]!.label });
    events.push({ t: chunk.t, code: "o", data: chunk.data });
  }
  for (const m of markers.slice(next)) events.push({ t: m.t, code: "m", data: m.label });
  // Times are offsets from the start in seconds, never before it (a marker can precede the spawn) and never going
  // back, which the format forbids (a clock step backwards would otherwise break playback).
  let last = 0;
  const lines = events.map((e) => {
    last = Math.max(last, Math.round(Math.max(0, e.t - input.start)) / 1000);
    return JSON.stringify([last, e.code, e.data]);
  });
  return [JSON.stringify(header), ...lines].join("\n") + "\n";
}

// Kinds whose moment is their end (something awaited showed); every other kind acts at its start (a key, a command).
const AWAITED = new Set(["screen-wait", "watch", "wait", "daemon-exit", "pause"]);

type StepTimes = Pick<StepRecord, "index" | "kind" | "label" | "startedAt" | "endedAt">;

// The moment a step stands for: when it acted, or when what it waited for showed.
export function stepMoment(step: StepTimes): number {
  return AWAITED.has(step.kind) ? step.endedAt : step.startedAt;
}

// One marker per step that overlapped the terminal's life: `3 type ui`, at the moment the step acted or saw.
// The report seeks the player with the same times, so the cast and the timeline agree.
export function stepMarkers(steps: readonly StepTimes[], window: { start: number; end: number | null }): CastMarker[] {
  // Overlap, not containment: the step that starts the UI begins just before its spawn, and the wait that sees it
  // exit ends just after.
  return steps
    .filter((s) => s.endedAt >= window.start && s.startedAt <= (window.end ?? Infinity))
    .map((s) => ({ t: stepMoment(s), label: `${s.index + 1} ${s.label}` }));
}

const chunkSchema = z.object({ t: z.number(), data: z.string() });

// The .cast text of a terminal session of a run directory; null for a session that has no terminal output (a headless
// one). Size is not in the files, so the caller passes what it spawned with.
export function sessionCast(runDir: string, label: string, size: { cols: number; rows: number }, steps: readonly StepTimes[]): string | null {
  const run = runLayout(runDir);
  const files = terminalFiles(run, label);
  if (!fs.existsSync(files.output)) return null;
  const chunks = readJsonLines(files.output).map((value) => chunkSchema.parse(value));
  const sessionJson = sessionLayout(run, label).sessionJson;
  const process = fs.existsSync(sessionJson) ? sessionProcessSchema.parse(JSON.parse(fs.readFileSync(sessionJson, "utf8"))) : null;
  const start = process?.startedAt ?? chunks[0]?.t ?? 0;
  const markers = stepMarkers(steps, { start, end: process?.endedAt ?? null });
  return toAsciicast({ ...size, start, chunks, markers, title: label });
}

// Writes casts/<label>.cast (see sessionCast) and returns its path; null when the session has no terminal output.
export function writeSessionCast(runDir: string, label: string, size: { cols: number; rows: number }, steps: readonly StepRecord[]): string | null {
  const cast = sessionCast(runDir, label, size, steps);
  if (cast === null) return null;
  const run = runLayout(runDir);
  const file = castFile(run, label);
  fs.mkdirSync(run.casts, { recursive: true });
  fs.writeFileSync(file, cast);
  return file;
}

// After the run: one .cast per terminal session that ran, at the size it was spawned with. Returns the files written.
export function writeTerminalCasts(runDir: string, terminals: Iterable<TerminalSession>, steps: readonly StepRecord[]): string[] {
  return [...terminals].flatMap((t) => writeSessionCast(runDir, t.process.label, { cols: t.cols, rows: t.rows }, steps) ?? []);
}
