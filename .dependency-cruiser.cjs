// The floor plan, executable: each folder may import only folders on a lower floor (and itself). Data flows one
// way: scenario → mock + driver → run directory → checker → verdict → report. test/architecture.test.ts runs it.
const FLOORS = [
  ["core"],
  ["releases", "mock-api"],
  ["harness"],
  ["checker"],
  ["kit"],
  ["scenarios", "examples"],
  ["pipeline"],
  ["bisect", "sweep"],
  // The atlas searches with bisect's pieces and the sweep's version words, so it sits one floor above them.
  ["atlas"],
  // A nightly runs sweeps (and a bisect where a cell changed) over its matrix, and may extend an atlas: above them.
  ["nightly"],
  ["report"],
  ["cli", "scripts"],
  ["bin"],
];

const floorOf = new Map(FLOORS.flatMap((folders, floor) => folders.map((folder) => [folder, floor])));
const above = (floor) => FLOORS.slice(floor + 1).flat();
const sameFloorOthers = (folder) => FLOORS[floorOf.get(folder)].filter((other) => other !== folder);

const forbidden = [
  ...[...floorOf.keys()].flatMap((folder) => {
    const banned = [...above(floorOf.get(folder)), ...sameFloorOthers(folder)];
    return banned.length === 0
      ? []
      : [
          {
            name: `${folder}-imports-only-lower-floors`,
            comment: `${folder}/ sits on floor ${floorOf.get(folder)}: it may not import ${banned.join(", ")}`,
            severity: "error",
            from: { path: `^${folder}/` },
            to: { path: `^(${banned.join("|")})/` },
          },
        ];
  }),
  {
    name: "command-imports-command",
    comment: "a command parses, calls one function and prints: what two commands share lives in cli/ beside them, or lower",
    severity: "error",
    from: { path: "^cli/commands/" },
    to: { path: "^cli/commands/" },
  },
  {
    name: "no-circular",
    comment: "modules import each other in a cycle",
    severity: "error",
    from: {},
    to: { circular: true },
  },
];

module.exports = {
  FLOORS,
  forbidden,
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|test|runs|test-output)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".mjs", ".js"] },
  },
};
