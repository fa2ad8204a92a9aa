// The GitHub workflow `ccrepro init ci` writes into a user's repository: the action on each of their scenarios, one
// job each (a failing scenario fails only its own job), every night and on demand. Pure: words in, YAML out.

// One job of the matrix: a scenario file (or built-in name) and the name its artefact and ledger go by.
export interface WorkflowScenario {
  name: string;
  scenario: string;
}

export interface CiWorkflowOptions {
  scenarios: readonly WorkflowScenario[];
  // `owner/repo@ref` of a ccrepro checkout to use; null: the installed package's own action, after npm ci.
  action: string | null;
  // The ccrepro that wrote it, said in the header.
  version: string;
  // Whether the repository has a lockfile, so `npm ci` can install its dependencies.
  npmCi: boolean;
}

// A YAML string that cannot be read as anything but itself.
const quoted = (text: string) => JSON.stringify(text);

// Job and artefact names: what the file name says, made unique.
export function workflowScenarios(words: readonly string[]): WorkflowScenario[] {
  const taken = new Set<string>();
  return words.map((scenario) => {
    const base = (scenario.split(/[\\/]/).at(-1) ?? scenario).replace(/\.(ts|mts|js|mjs)$/, "").replace(/[^A-Za-z0-9._-]+/g, "-") || "scenario";
    let name = base;
    for (let i = 2; taken.has(name); i += 1) name = `${base}-${i}`;
    taken.add(name);
    return { name, scenario };
  });
}

export function renderCiWorkflow(options: CiWorkflowOptions): string {
  const uses = options.action ?? "./node_modules/ccrepro";
  const include = options.scenarios.flatMap((s) => [`          - name: ${quoted(s.name)}`, `            scenario: ${quoted(s.scenario)}`]);
  return [
    `# Written by \`ccrepro init ci\` (ccrepro ${options.version}): your ccrepro scenarios on claude releases, every night`,
    "# and on demand, one job per scenario. A job fails on a new RED or a GREEN that was RED; a RED the scenario's",
    "# `known` list or the previous night already holds is reported in the job summary, not failed. A new scenario",
    "# file: add it to the matrix below (or run `npx ccrepro init ci --force` again).",
    "name: ccrepro",
    "",
    "on:",
    "  schedule:",
    '    - cron: "23 4 * * *"',
    "  workflow_dispatch:",
    "    inputs:",
    "      claude:",
    '        description: "claude releases, separated by commas: latest, 2.1.280, a semver range, since:YYYY-MM-DD"',
    "        required: false",
    '        default: "latest, since:previous"',
    "",
    "permissions:",
    "  contents: read",
    "",
    "# One run at a time on a branch: a scheduled and a manual run would each save a ledger from the same one.",
    "concurrency:",
    "  group: ccrepro-${{ github.ref }}",
    "  cancel-in-progress: false",
    "",
    "jobs:",
    "  scenario:",
    "    name: ${{ matrix.name }}",
    "    runs-on: ubuntu-latest",
    "    timeout-minutes: 60",
    "    strategy:",
    "      fail-fast: false",
    "      matrix:",
    "        include:",
    ...include,
    "    steps:",
    "      - uses: actions/checkout@v4",
    "      - uses: actions/setup-node@v4",
    "        with:",
    '          node-version: "20"',
    ...(options.npmCi ? ["          cache: npm", "      - run: npm ci"] : []),
    `      - uses: ${uses}`,
    "        with:",
    "          scenarios: ${{ matrix.scenario }}",
    "          claude: ${{ inputs.claude || 'latest, since:previous' }}",
    "          name: ${{ matrix.name }}",
    "",
  ].join("\n");
}
