/**
 * A timeline input the caller can fix (an inverted interval, overlapping utterance windows, a
 * lifecycle event for an unknown delegation). `field` names the offending input so the message can
 * say what to change.
 */
export class TimelineInputError extends Error {
  override readonly name = "TimelineInputError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}
