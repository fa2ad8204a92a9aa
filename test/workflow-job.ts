// One job's lines of a GitHub workflow file: from its key to the next job's (two spaces, a name, a colon), for the
// tests that hold a workflow to the tool without a YAML parser.
export function workflowJob(yaml: string, name: string): string {
  const from = yaml.indexOf(`\n  ${name}:\n`);
  if (from < 0) throw new Error(`the workflow has no job "${name}"`);
  const next = yaml.slice(from + 1).search(/\n {2}[A-Za-z][\w-]*:\n/);
  return next < 0 ? yaml.slice(from) : yaml.slice(from, from + 1 + next);
}
