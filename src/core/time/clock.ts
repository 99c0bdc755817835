/**
 * One clock for both time modes (architecture, "Time"). Every timestamp in a trial record is
 * `clock.now()` on the trial's own timeline: milliseconds since the trial started.
 *
 * - RealClock: wall-clock time; `sleep` really waits.
 * - VirtualClock: time moves only when every participant is idle, so an offline run is fast and
 *   reproducible. "Idle" means: no pending microtasks/immediates and no `hold()` outstanding. A
 *   participant that awaits I/O the clock cannot see (a socket round trip on loopback) takes a hold
 *   for the duration, so virtual time cannot jump past it.
 */
export interface Clock {
  readonly virtual: boolean;
  /** Milliseconds since the start of the trial timeline. */
  now(): number;
  /** Resolve once the timeline reaches `now() + ms` (never earlier). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Resolve once the timeline reaches the absolute time `atMs`. */
  sleepUntil(atMs: number, signal?: AbortSignal): Promise<void>;
  /** Keep virtual time from advancing until the returned release function is called. No-op for real time. */
  hold(reason?: string): () => void;
}

export class RealClock implements Clock {
  readonly virtual = false;
  private readonly origin = performance.now();

  now(): number {
    return performance.now() - this.origin;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.sleepUntil(this.now() + ms, signal);
  }

  sleepUntil(atMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const timer = setTimeout(done, Math.max(0, atMs - this.now()));
      function done() {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }
      function onAbort() {
        clearTimeout(timer);
        reject(abortReason(signal!));
      }
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  hold(): () => void {
    return () => {};
  }
}

interface Sleeper {
  at: number;
  order: number;
  resolve: () => void;
}

export class VirtualClock implements Clock {
  readonly virtual = true;
  private time = 0;
  private order = 0;
  private holds = 0;
  private readonly sleepers: Sleeper[] = [];
  private scheduled = false;

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.sleepUntil(this.time + Math.max(0, ms), signal);
  }

  sleepUntil(atMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const sleeper: Sleeper = {
        at: Math.max(atMs, this.time),
        order: this.order++,
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const i = this.sleepers.indexOf(sleeper);
        if (i >= 0) this.sleepers.splice(i, 1);
        reject(abortReason(signal!));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.sleepers.push(sleeper);
      this.schedule();
    });
  }

  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.schedule();
    };
  }

  /**
   * Advance to the earliest sleeper once the process has gone quiet. Two rounds of setImmediate let
   * promise chains and already-queued I/O callbacks run first, so "idle" is observed, not assumed.
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const step = (round: number) => {
      if (round < 2) return void setImmediate(() => step(round + 1));
      this.scheduled = false;
      if (this.holds > 0 || this.sleepers.length === 0) return;
      this.sleepers.sort((a, b) => a.at - b.at || a.order - b.order);
      const next = this.sleepers[0]!;
      this.time = Math.max(this.time, next.at);
      // Wake everyone due at this instant, in the order they went to sleep.
      while (this.sleepers.length > 0 && this.sleepers[0]!.at <= this.time) this.sleepers.shift()!.resolve();
      this.schedule();
    };
    setImmediate(() => step(1));
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error("aborted");
}
