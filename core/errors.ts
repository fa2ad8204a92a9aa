// The one base class for errors a user can fix: the CLI prints the message on one line and exits 3.
export class UserError extends Error {
  constructor(
    message: string,
    // A short machine id such as "UNKNOWN_VERSION", stable for scripts and tests.
    readonly code: string,
  ) {
    super(message);
    this.name = "UserError";
  }
}
