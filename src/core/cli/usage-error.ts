import { UserError } from "../user-error";

/** A bad command line: exit 2 with the message and a pointer to --help. */
export class UsageError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
