// The mock's expected failures: UserErrors told apart by a stable code, so the CLI prints them without a stack.
import { UserError } from "../core/errors.ts";

export type MockApiErrorCode = "PORT_IN_USE" | "SCRIPT_NOT_FOUND" | "SCRIPT_NOT_JSON" | "SCRIPT_INVALID";

export class MockApiError extends UserError {
  override readonly name = "MockApiError";

  constructor(
    override readonly code: MockApiErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, code, options);
  }
}
