/**
 * A test-only hook: `CRASHLAB_TEST_SIGNAL_AT=<signal>@<point>` makes the process send itself a signal the
 * first time (in a thread) it reaches a named point, so a fault test stops or kills it exactly there, at any
 * load, instead of polling for a moment that a fast run passes unseen (docs/architecture.md, "Test hooks").
 * Unset, every point is one comparison. It is not a user setting: nothing documents it for users.
 */

/** Where a process can be stopped (docs/architecture.md lists them). */
export type TestPoint =
  /** A file being written whole: half its bytes are in its temporary file, which is not renamed yet. */
  | "mid-write"
  /** A file written whole has been renamed into place. */
  | "after-write"
  /** The journal has this many rows appended by this process. */
  | "journal"
  /** The run folder's lock is taken. */
  | "locked";

interface Armed {
  signal: NodeJS.Signals;
  point: TestPoint;
  /** mid-write / after-write: a part of the file's path; journal: the row count. */
  detail: string;
}

function parse(spec: string | undefined): Armed | null {
  if (!spec) return null;
  const m = /^(SIG[A-Z]+)@(mid-write|after-write|journal|locked)(?::(.*))?$/.exec(spec);
  if (!m) throw new Error(`CRASHLAB_TEST_SIGNAL_AT=${JSON.stringify(spec)} is not <SIGNAL>@<point>[:<detail>] (a test-only hook, docs/architecture.md)`);
  return { signal: m[1] as NodeJS.Signals, point: m[2] as TestPoint, detail: m[3] ?? "" };
}

const armed = parse(process.env.CRASHLAB_TEST_SIGNAL_AT);
let fired = false;

/** Whether any point is armed (a writer then splits its write in two, so a temporary file can be caught half-written). */
export const testHookArmed = armed !== null;

/**
 * The process reached `point` (for mid-write and after-write `detail` is the file's path, for journal the
 * row count). When it is the armed point, the signal is sent to this process; after SIGKILL nothing more
 * runs, after SIGSTOP the process goes on where it stopped once it is continued.
 */
export function reachedTestPoint(point: TestPoint, detail: string | number = ""): void {
  if (armed === null || fired || armed.point !== point) return;
  const matches = point === "journal" ? String(detail) === armed.detail : armed.detail === "" || String(detail).includes(armed.detail);
  if (!matches) return;
  fired = true;
  process.kill(process.pid, armed.signal);
  // A signal to oneself may be delivered an instant after kill() returns: wait for SIGKILL here, so not one
  // more byte is written after the point.
  if (armed.signal === "SIGKILL") for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
}
