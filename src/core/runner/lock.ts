/**
 * The run folder's lock, `run.lock`: one writer at a time. It holds the writer's pid, host and start; a
 * second `crashlab run --resume` of the same folder is refused while that process lives. A lock whose
 * process is gone (killed, the machine restarted) is stale and taken over, and the take-over is said.
 */
import { hostname } from "node:os";
import { join } from "node:path";
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { reachedTestPoint } from "../files/test-hook";
import { UserError } from "../user-error";

export const LOCK_FILE = "run.lock";

/** A run folder another live process is writing (exit 2: wait for it, or stop it). */
export class RunFolderBusyError extends UserError {
  override readonly name = "RunFolderBusyError";
}

interface Holder {
  pid: number;
  host: string;
  since: string;
}

export interface FolderLock {
  /** Set when a stale lock was taken over: whose it was. */
  recovered: Holder | null;
  release(): void;
}

function readHolder(path: string): Holder | null {
  try {
    const h = JSON.parse(readFileSync(path, "utf8")) as Holder;
    return Number.isSafeInteger(h?.pid) && typeof h.host === "string" ? h : null;
  } catch {
    return null; // gone, or torn by a kill between create and write: nobody holds it
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Take the folder's lock. The lock file appears whole or not at all (written beside it, then hard-linked
 * into place, which fails if a lock exists), so two processes never both believe they hold it.
 */
export function lockRunFolder(dir: string): FolderLock {
  const path = join(dir, LOCK_FILE);
  const me: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const mine = `${path}.tmp-${process.pid}`;
  // Made exclusively: a link planted at this name would otherwise carry the write out of the run folder.
  rmSync(mine, { force: true });
  writeFileSync(mine, JSON.stringify(me) + "\n", { mode: 0o600, flag: "wx" });
  let recovered: Holder | null = null;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(mine, path);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw busyOr(error, path);
      }
      const holder = readHolder(path);
      if (holder && (holder.host !== me.host || alive(holder.pid))) throw busy(path, holder);
      // Stale: move it aside (only one taker's rename succeeds), check it is the one judged stale, retry once.
      const aside = `${path}.stale-${process.pid}`;
      try {
        renameSync(path, aside);
      } catch {
        continue; // another process took it over first: the retry meets its lock
      }
      const moved = readHolder(aside);
      if (moved && holder && moved.pid !== holder.pid) {
        renameSync(aside, path);
        throw busy(path, moved);
      }
      rmSync(aside, { force: true });
      recovered = holder ?? { pid: 0, host: me.host, since: "" };
    }
  } finally {
    rmSync(mine, { force: true });
  }
  reachedTestPoint("locked");
  return {
    recovered,
    release: () => {
      if (readHolder(path)?.pid === me.pid) rmSync(path, { force: true });
    },
  };
}

function busy(path: string, holder: Holder): RunFolderBusyError {
  const where = holder.host === hostname() ? `process ${holder.pid}` : `process ${holder.pid} on ${holder.host}`;
  return new RunFolderBusyError(
    `${path}: this run folder is being written by ${where} (since ${holder.since}); two writers would journal the same trials twice — wait for that run to end or stop it, then resume again (if no crashlab is running there, delete ${path})`,
  );
}

function busyOr(error: unknown, path: string): unknown {
  if ((error as NodeJS.ErrnoException).code !== "EEXIST") return error;
  const holder = readHolder(path);
  return holder ? busy(path, holder) : error;
}
