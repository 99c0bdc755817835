/** The worker-thread pool an offline run's trials run in, so a virtual-time run uses every core. */

import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { PackageError } from "../package/load";
import type { RunRequest } from "./request";
import type { StoredTrial } from "./store-trial";
import type { FromWorker, ToWorker, WorkerRun } from "./worker";

/** A trial handed to the pool comes back stored, or lost with why (its worker died or could not start). */
export type PooledTrial = { stored: StoredTrial } | { lost: string };

interface Slot {
  worker: Worker;
  ready: boolean;
  running: Map<string, (result: PooledTrial) => void>;
  /** The uncaught error that ended the worker, when one did. */
  fault: Error | null;
}

/**
 * Worker threads running an offline run's trials, so a virtual-time run uses every core. Each worker
 * loads the package itself and runs the trials it is handed, up to `perWorker` at once; a free worker gets
 * the next trial (the run loop asks for trials in order). A worker that dies loses only the trials it was
 * running — each is reported lost with the worker's error — and a fresh worker takes its place.
 */
export class TrialPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Array<{ trial_id: string; done: (result: PooledTrial) => void }> = [];
  private closing: Promise<void> | undefined;
  /** Why the last replacement worker could not start: with no worker left, queued trials are lost with it. */
  private startFailure: string | null = null;
  private current: WorkerRun | null = null;

  private constructor(
    private readonly entry: URL,
    private readonly setup: RunRequest,
    private readonly perWorker: number,
    private readonly onLine: (text: string) => void,
  ) {}

  /** Start `size` workers and wait until each has loaded the package; a package no worker can load is the user's error. */
  static async start(entry: URL, setup: RunRequest, size: number, perWorker: number, onLine: (text: string) => void): Promise<TrialPool> {
    const pool = new TrialPool(entry, setup, perWorker, onLine);
    const started = await Promise.all(Array.from({ length: size }, () => pool.spawn()));
    const failed = started.find((s): s is string => typeof s === "string");
    if (failed !== undefined) {
      await pool.close();
      throw new PackageError(
        `${setup.package.file} loads in the main thread but not in a worker thread (${failed}). Offline runs above --concurrency 1 load the package once per worker; run with --concurrency 1 to keep every trial in one thread, or fix what the package needs from the main thread.`,
      );
    }
    return pool;
  }

  /** The run folder and git state, once the folder exists: every trial handed out carries them. */
  begin(run: WorkerRun): void {
    this.current = run;
  }

  /** Run one trial on the next free worker. */
  run(trial_id: string): Promise<PooledTrial> {
    if (!this.current) throw new Error("TrialPool.run before begin");
    return new Promise((done) => {
      this.queue.push({ trial_id, done });
      this.pump();
    });
  }

  /** Stop every worker (trials still running in them are abandoned: only after an abandon, or at the end). */
  /** Stop every worker; every call resolves once they have all stopped. */
  close(): Promise<void> {
    this.closing ??= Promise.all([...this.slots].map((s) => s.worker.terminate())).then(() => this.slots.clear());
    return this.closing;
  }

  /** A new worker; resolves once it is ready (true) or with why it could not start. */
  private spawn(): Promise<true | string> {
    const worker = startWorker(this.entry, this.setup);
    const slot: Slot = { worker, ready: false, running: new Map(), fault: null };
    this.slots.add(slot);
    return new Promise((started) => {
      worker.on("message", (message: FromWorker) => {
        switch (message.type) {
          case "ready":
            slot.ready = true;
            this.startFailure = null;
            started(true);
            this.pump();
            return;
          case "load_failed":
            slot.fault = new Error(message.message);
            void worker.terminate();
            return;
          case "line":
            this.onLine(message.text);
            return;
          case "done":
          case "lost": {
            const id = message.type === "done" ? message.stored.trial_id : message.trial_id;
            const done = slot.running.get(id);
            slot.running.delete(id);
            done?.(message.type === "done" ? { stored: message.stored } : { lost: `the worker thread could not finish it: ${message.message}` });
            this.pump();
            return;
          }
        }
      });
      worker.on("error", (error) => (slot.fault ??= error));
      worker.on("exit", (code) => {
        this.slots.delete(slot);
        const why = slot.fault ? slot.fault.message : `it exited with code ${code}`;
        if (!slot.ready) {
          started(why);
          if (this.closing) return;
          this.startFailure = why;
        } else if (this.closing) return;
        for (const done of slot.running.values()) done({ lost: `the worker thread running this trial stopped: ${why}` });
        slot.running.clear();
        // A worker that died mid-run is replaced; one that could not start is not retried (the next would fail alike).
        if (slot.ready) void this.spawn();
        this.pump();
      });
    });
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const free = [...this.slots].filter((s) => s.ready && s.running.size < this.perWorker).sort((a, b) => a.running.size - b.running.size)[0];
      if (!free) break;
      const { trial_id, done } = this.queue.shift()!;
      free.running.set(trial_id, done);
      free.worker.postMessage({ type: "trial", trial_id, run: this.current! } satisfies ToWorker);
    }
    // No worker left, none starting: what waits cannot run.
    if (this.slots.size === 0 && this.startFailure !== null)
      for (const { done } of this.queue.splice(0)) done({ lost: `no worker thread could be started to run this trial: ${this.startFailure}` });
  }
}

/**
 * A worker on the built entry (dist/worker.js); from the sources (tests), on src/worker.ts through tsx's
 * loader, registered inside the worker, since a worker thread cannot import TypeScript by itself.
 */
function startWorker(entry: URL, setup: RunRequest): Worker {
  if (!entry.pathname.endsWith(".ts")) return new Worker(entry, { workerData: setup });
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx/package.json").replace(/package\.json$/, "dist/esm/api/index.mjs")).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(boot, { eval: true, workerData: setup });
}
