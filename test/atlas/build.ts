// Atlas files built from state tables through the search, for the advise and site tests.
import type { AtlasEntry, AtlasFile } from "../../atlas/atlas-file.ts";
import { withCells } from "../../atlas/run-atlas.ts";
import { searchTable, type Row } from "./tables.ts";

export async function entryFrom(scenario: string, versions: readonly string[], table: (version: string) => Row, stride = 4): Promise<AtlasEntry> {
  const { result } = await searchTable(versions, table, { stride });
  const empty: AtlasEntry = { scenario, params: {}, driver: "headless", sdk: null, versions: [...versions], stride, repeat: 1, cells: [], intervals: [], boundaries: [], verify: { ran: [], disagreed: [] }, runs: result.cells.size, reused: 0, complete: true };
  return withCells(empty, result.cells);
}

export const atlasOf = (entries: AtlasEntry[]): AtlasFile => ({ kind: "atlas", entries, startedAt: "2026-12-02T00:00:00.000Z", updatedAt: "2026-12-02T00:00:00.000Z" });
