/**
 * results.json read a trial at a time. A run of thousands of trials has a results.json of tens of
 * megabytes; parsing it whole (and validating the copy) took more memory than the run itself. This
 * reader scans the bytes once, keeps the small top-level parts (run, gates, summary) and hands each
 * element of `trials` to the caller as soon as it is complete. It reads any valid JSON layout, not only
 * the one crashlab writes.
 */
import { readSync } from "node:fs";
import type { RunFile } from "../run-folder/files";

const CHUNK = 1 << 20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A scan failure: the byte offset and what was wrong (the caller turns it into a RunFolderError). */
export class ResultsScanError extends Error {
  override readonly name = "ResultsScanError";
}

/**
 * Walk a results.json, opened through the run folder's checks (`openRunFile`): yields every element of the
 * top-level `trials` array (its JSON text) as soon as it is read, and returns every other top-level member,
 * parsed. The file is closed when the walk ends.
 */
export function* scanResultsFile(file: RunFile): Generator<string, { header: Record<string, unknown>; has_trials: boolean }, void> {
  const fd = file.fd;
  const header: Record<string, unknown> = {};
  const buffer = Buffer.allocUnsafe(CHUNK);
  let depth = 0;
  let inString = false;
  let escaped = false;
  // Top-level members: reading a key, then its value.
  let keyParts: Buffer[] | null = null;
  let key: string | null = null;
  let valueParts: Buffer[] | null = null;
  let valueFrom = -1;
  let inTrials = false;
  let trialParts: Buffer[] | null = null;
  let trialFrom = -1;
  let keyFrom = -1;
  let expectKey = false;
  let position = 0;
  let sawRoot = false;
  let hasTrials = false;
  const text = (parts: Buffer[]) => Buffer.concat(parts).toString("utf8");
  try {
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, position);
      if (n === 0) break;
      for (let i = 0; i < n; i++) {
        const b = buffer[i]!;
        if (inString) {
          if (escaped) escaped = false;
          else if (b === BACKSLASH) escaped = true;
          else if (b === QUOTE) {
            inString = false;
            if (keyParts) {
              keyParts.push(buffer.subarray(keyFrom, i + 1));
              key = JSON.parse(text(keyParts)) as string;
              keyParts = null;
            }
          }
          continue;
        }
        if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) continue;
        if (depth === 1 && !expectKey && key !== null && valueParts === null && !inTrials) {
          // The first byte of a top-level value.
          if (key === "trials" && b === 0x5b) {
            inTrials = true;
            hasTrials = true;
            depth++;
            continue;
          }
          valueParts = [];
          valueFrom = i;
        }
        if (depth === 2 && inTrials && trialParts === null && b !== 0x2c && b !== 0x5d) {
          trialParts = [];
          trialFrom = i;
        }
        if (b === QUOTE) {
          inString = true;
          if (depth === 1 && expectKey) {
            keyParts = [];
            keyFrom = i;
          }
        } else if (b === 0x7b || b === 0x5b) {
          if (depth === 0) {
            if (b !== 0x7b) throw new ResultsScanError("the top level is not an object");
            sawRoot = true;
            expectKey = true;
          }
          depth++;
        } else if (b === 0x7d || b === 0x5d) {
          depth--;
          if (depth === 2 && trialParts) {
            trialParts.push(buffer.subarray(trialFrom, i + 1));
            yield text(trialParts);
            trialParts = null;
          } else if (depth === 1 && inTrials && b === 0x5d) {
            if (trialParts) throw new ResultsScanError("a trial is not an object");
            inTrials = false;
            key = null;
          } else if (depth === 0) {
            finishValue(i);
          }
        } else if (b === 0x2c) {
          if (depth === 1) {
            finishValue(i);
            expectKey = true;
          } else if (depth === 2 && inTrials && trialParts) {
            throw new ResultsScanError("a trial is not an object");
          }
        } else if (b === 0x3a && depth === 1) {
          expectKey = false;
        }
      }
      // Carry the unfinished parts of this chunk over to the next.
      if (keyParts) keyParts.push(Buffer.from(buffer.subarray(keyFrom, n)));
      if (valueParts) valueParts.push(Buffer.from(buffer.subarray(valueFrom, n)));
      if (trialParts) trialParts.push(Buffer.from(buffer.subarray(trialFrom, n)));
      keyFrom = valueFrom = trialFrom = 0;
      position += n;
    }
  } finally {
    file.close();
  }
  if (!sawRoot || depth !== 0 || inString) throw new ResultsScanError("the file ends before its JSON does");
  return { header, has_trials: hasTrials };

  function finishValue(at: number): void {
    if (valueParts && key !== null) {
      valueParts.push(buffer.subarray(valueFrom, at));
      header[key] = JSON.parse(text(valueParts));
    }
    valueParts = null;
    key = null;
  }
}
