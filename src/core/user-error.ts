/**
 * The base of every error the user can fix: a flag, a file, a field, a folder. The CLI prints its message
 * as one paragraph and exits 2, never with a stack trace; anything else is our own bug (exit 3, with the
 * stack). Recognised by a brand under `Symbol.for`, not by `instanceof` alone, so an error thrown by a second
 * copy of crashlab (a package that resolves `crashlab/alpha` to its own install) is still the user's.
 */
const USER_ERROR = Symbol.for("crashlab.user-error");

export class UserError extends Error {
  readonly [USER_ERROR] = true;
}

/** Whether `error` is one the user can fix (see UserError). */
export function isUserError(error: unknown): error is Error {
  return error instanceof Error && (error as unknown as Record<symbol, unknown>)[USER_ERROR] === true;
}
