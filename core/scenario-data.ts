// The data files a scenario file reads while it loads (a recording beside it, through the kit's `recording()`), so a
// run directory keeps them next to its copy of the file and can judge the run again alone. The slot is on globalThis:
// a scenario file's import of the kit may be another instance of the kit's modules than the loader's.
const SLOT = Symbol.for("ccrepro.scenario-data-files");

type Slot = { [SLOT]?: Set<string> };

/** Notes that the scenario file being loaded read `file` (an absolute path); outside a load, nothing happens. */
export function noteScenarioDataFile(file: string): void {
  (globalThis as Slot)[SLOT]?.add(file);
}

/** Runs `load` and returns what it returned with every data file it noted, in the order first read. */
export async function withScenarioDataFiles<T>(load: () => Promise<T>): Promise<{ value: T; files: string[] }> {
  const slot = globalThis as Slot;
  const outer = slot[SLOT];
  const files = new Set<string>();
  slot[SLOT] = files;
  try {
    const value = await load();
    return { value, files: [...files] };
  } finally {
    if (outer) for (const file of files) outer.add(file);
    slot[SLOT] = outer;
  }
}
