/** Whether `root`'s dist/ is the build of its sources: always in an installed package, by mtimes in a checkout. */
export function builtIsCurrent(root: URL): boolean;
