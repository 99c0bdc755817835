/**
 * The tool-path rule (docs/grading.md, "The tool-path rule"): one reading of the calls a trial made, the
 * same in CRAWL, WALK and RUN. Required calls are an ordered subsequence of what ran; extra calls to
 * operations the world declares read-only pass; an extra write, a repeated write, or a write after the
 * caller withheld their go-ahead is a fault.
 */
import type { ExpectedCall } from "../dataset/schema";
import type { ToolExecution } from "../record/trial-record";
import type { WorldEvent } from "../world/types";
import { callMatches, jsonEqual, maximumAssignment } from "./match";

export type OperationKind = "read" | "write";

/** One caller line with its acts, as the offline caller records them (a live caller records none). */
export interface ToolPathCallerLine {
  start_ms: number;
  end_ms: number | null;
  acts?: ReadonlyArray<{ kind: string }> | undefined;
}

export interface ToolPathInput {
  /** The calls the case requires, in order (`expected.tools.required`). */
  required: readonly ExpectedCall[];
  /** Other calls the case expects, in any order (a conversation's procedure tool steps): a write one of them names is no extra write. */
  expected?: readonly ExpectedCall[];
  tools: readonly ToolExecution[];
  /** The world's events: each call's operation kind as the world recorded it. */
  events: readonly WorldEvent[];
  /** The kind each operation of the world declares; wins over the events. */
  operation_kinds?: Readonly<Record<string, OperationKind>>;
  /** RUN: the caller's lines with their acts; a write after a withheld go-ahead is unauthorized. */
  caller?: readonly ToolPathCallerLine[];
}

export interface UnauthorizedWrite {
  call: ToolExecution;
  /** The caller line that withheld the go-ahead, the last before the call was requested. */
  declined: ToolPathCallerLine;
}

export interface ToolPath {
  /** For each required call, the index of the execution it matched (in order), or -1. */
  matched: number[];
  /** Calls beyond the required ones that are completed reads: they pass. */
  reads: ToolExecution[];
  /** Calls beyond the required ones that are not completed reads (writes, failed calls, calls of no known kind). */
  unexpected: ToolExecution[];
  /** Completed writes that no expected call accounts for and that repeat nothing. */
  extra_writes: ToolExecution[];
  /** Writes (tried or done) with the operation and arguments of an earlier completed write that no expected call accounts for. */
  repeated_writes: Array<{ call: ToolExecution; earlier: ToolExecution }>;
  /** Writes requested after the caller withheld their go-ahead, before they gave anything again. */
  unauthorized_writes: UnauthorizedWrite[];
  /** Failed calls no required call expects to be refused. */
  failed: ToolExecution[];
  /** The calls the case asked for: those matched to a required call, and writes an expected call accounts for. */
  asked: ToolExecution[];
}

/**
 * An execution's operation kind: as the world declares the operation, else as its event recorded it; a
 * call of no known kind counts as a write (the strict reading).
 */
export function operationKind(t: ToolExecution, events: readonly WorldEvent[], kinds?: Readonly<Record<string, OperationKind>>): OperationKind {
  const declared = kinds && Object.hasOwn(kinds, t.name) ? kinds[t.name] : undefined;
  if (declared) return declared;
  const event = events.find((e) => e.seq === t.world_seq || e.cause.call_id === t.call_id);
  return event?.kind ?? "write";
}

/** Acts that ask for or agree to something: after a withheld go-ahead they give the caller's say again. */
const GIVING = new Set(["confirm", "give", "correct", "request"]);

/**
 * Whether the caller's go-ahead was withheld when a call was requested: the last caller line that ended
 * by then and either declined (with nothing it asked for or agreed to) or gave something; the decline, or
 * null.
 */
function withheldAt(at_ms: number, caller: readonly ToolPathCallerLine[]): ToolPathCallerLine | null {
  let withheld: ToolPathCallerLine | null = null;
  for (const line of caller) {
    if (line.end_ms === null || line.end_ms > at_ms) continue;
    const acts = line.acts ?? [];
    const gives = acts.some((a) => GIVING.has(a.kind));
    if (gives) withheld = null;
    else if (acts.some((a) => a.kind === "decline")) withheld = line;
  }
  return withheld;
}

/** Read a trial's calls by the tool-path rule. Pure. */
export function readToolPath(input: ToolPathInput): ToolPath {
  const { required, tools } = input;
  const kind = (t: ToolExecution) => operationKind(t, input.events, input.operation_kinds);
  // Required calls as an ordered subsequence: each takes the first fitting call after the previous one's.
  const matched: number[] = [];
  let from = 0;
  for (const expected of required) {
    const j = tools.findIndex((t, k) => k >= from && callMatches(expected, t));
    matched.push(j);
    if (j !== -1) from = j + 1;
  }
  const taken = new Set(matched);
  const beyond = tools.filter((_, k) => !taken.has(k));
  const reads = beyond.filter((t) => t.status === "completed" && kind(t) === "read");
  const unexpected = beyond.filter((t) => !reads.includes(t));
  // A failed call matched to a required one is a refusal the case expects (a completed one matches no failure).
  const failed = tools.filter((t, k) => t.status === "failed" && !taken.has(k));

  // Writes: which ones the case accounts for, one expected call each, in any order.
  const writes = tools.filter((t) => kind(t) === "write");
  const expected = [...required, ...(input.expected ?? [])];
  const owner = maximumAssignment(expected.length, writes.length, (i, j) => callMatches(expected[i]!, writes[j]!));
  const extra_writes: ToolExecution[] = [];
  const repeated_writes: ToolPath["repeated_writes"] = [];
  writes.forEach((t, j) => {
    if (owner[j] !== -1) return;
    const earlier = writes.find((w, i) => i < j && w.status === "completed" && w.name === t.name && jsonEqual(w.arguments, t.arguments));
    if (earlier) repeated_writes.push({ call: t, earlier });
    else if (t.status === "completed") extra_writes.push(t);
  });
  const unauthorized_writes: UnauthorizedWrite[] = [];
  for (const t of writes) {
    const declined = withheldAt(t.requested_ms, input.caller ?? []);
    if (declined) unauthorized_writes.push({ call: t, declined });
  }
  const asked = tools.filter((t, k) => taken.has(k) || (kind(t) === "write" && owner[writes.indexOf(t)] !== -1));
  return { matched, reads, unexpected, extra_writes, repeated_writes, unauthorized_writes, failed, asked };
}

const callText = (t: ToolExecution) => `${t.name} ${t.raw_arguments}`;
const at = (ms: number) => `${Math.round(ms)} ms`;

/** The write faults, each said once: extra, repeated, after a withheld go-ahead. */
export function writeFaults(path: ToolPath): string[] {
  return [
    ...path.extra_writes.map((t) => `extra write ${callText(t)}`),
    ...path.repeated_writes.map(({ call, earlier }) => `repeated write ${callText(call)} (${call.status}; already done by ${earlier.call_id})`),
    ...path.unauthorized_writes.map(({ call, declined }) => `${callText(call)} requested at ${at(call.requested_ms)} after the caller withheld the go-ahead at ${at(declined.start_ms)}`),
  ];
}

/** The executions a path's write faults rest on. */
export function writeFaultCalls(path: ToolPath): ToolExecution[] {
  return [...new Set([...path.extra_writes, ...path.repeated_writes.map((r) => r.call), ...path.unauthorized_writes.map((u) => u.call)])];
}
