/** The world's types: JSON values, patches, causes, operations, events and the world definition. */

import type { Draft } from "immer";
import type { z } from "zod";
import type { Effect, Vocabulary } from "../language/vocabulary";

export type { Effect, Vocabulary } from "../language/vocabulary";

/**
 * The words of one operation (docs/worlds.md "Vocabulary"): what it does to the records (`effect`), the
 * record it acts on (`entity`, a noun such as "reservation"), and verbs of its own ("rebook"). The grader
 * and the offline caller read claims, go-aheads and outcomes with them.
 */
export interface OperationVocabulary {
  /** create, update, cancel, read or other. A read's is "read" (the default); a write without one is read from its name's verbs. */
  effect?: Effect;
  /** The noun for the record it acts on ("reservation", "booking"): it names records in speech and cues their ids ("reservation 2040"). */
  entity?: string;
  /** Verbs that name this operation's effect besides the vocabulary's ("rebook"). */
  verbs?: readonly string[];
}

/** A JSON-compatible value: what crosses every boundary of a world (args, results, state). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** JSON that may be read-only all the way down: what `as const` objects are. */
export type ReadonlyJson = null | boolean | number | string | readonly ReadonlyJson[] | { readonly [key: string]: ReadonlyJson };

/**
 * RFC 6902 operation, as produced by immer patches converted to JSON-Pointer paths, and by
 * fast-json-patch `compare` (which never emits its private `_get`): exactly what the record stores.
 */
export type JsonPatch =
  | { op: "add" | "replace" | "test"; path: string; value: Json }
  | { op: "remove"; path: string }
  | { op: "move" | "copy"; path: string; from: string };

/** Why a world operation ran: set by the harness, never by the target. */
export interface Cause {
  trial: string;
  delegation_id?: string;
  call_id?: string;
}

/** A typed business-rule refusal. Recorded like a success (outcome "error"), never thrown past the world. */
export class OperationError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Json,
  ) {
    super(message);
    this.name = "OperationError";
  }
}

/** Deterministic randomness and ids derived from the trial seed. */
export interface WorldRandom {
  /** Uniform in [0, 1). */
  next(): number;
  /** A fresh id such as `R-7F3A21`; the sequence depends only on the seed and the call order. */
  id(prefix: string): string;
}

export interface ReadContext<S, A> {
  readonly state: S;
  readonly args: A;
  readonly now_ms: number;
}

export interface WriteContext<S, A> {
  /**
   * A draft of the state: mutate it; the engine records the patches. It behaves as an immer draft and
   * gives immer's next state and patches (a fast copy-on-write draft for plain objects, immer itself
   * for anything more), but immer's helpers (`original`, `current`, `isDraft`) may not recognise it:
   * read `base` instead.
   */
  readonly state: Draft<S>;
  /**
   * The frozen state as it was when this write began. Reading it is cheap (no draft proxies), so check
   * business rules against it and mutate `state` only to make the change.
   */
  readonly base: S;
  readonly args: A;
  readonly now_ms: number;
  readonly random: WorldRandom;
}

export type OperationDefinition<S, A = any, R = any> = OperationVocabulary &
  (
  | {
      kind: "read";
      description: string;
      args: z.ZodType<A>;
      run: (ctx: ReadContext<S, A>) => R;
    }
  | {
      kind: "write";
      description: string;
      args: z.ZodType<A>;
      /**
       * May run twice for one call: when it does something the fast draft leaves to immer (writing to
       * an array, say), the engine discards the first run, rewinds `random` and runs it again on immer.
       * So apart from the draft and `random` it must have no side effects.
       */
      run: (ctx: WriteContext<S, A>) => R;
      /**
       * Set only when everything `run` writes is valid against the state schema by construction (say, a
       * record assembled from arguments parsed with the state's own field schemas): the engine then skips
       * re-validating this operation's changes against `state`. Invariants still run. Keep a test that
       * checks every accepted write against the full schema.
       */
      writesValidState?: boolean;
    }
  );

/** What one write changed: given to invariants after a write so they may check only the touched parts. */
export interface StateChange<S> {
  /** The state before the write. */
  readonly previous: S;
  /** The write's patches (RFC 6902, JSON-Pointer paths). */
  readonly patches: readonly JsonPatch[];
}

/**
 * An invariant returns true when it holds, or a message saying what is wrong. It is checked on the
 * initial state (without `change`) and after every write (with `change`); an invariant may use `change`
 * to look only at what the write touched, as long as it stays exact.
 */
export type Invariant<S> = (state: S, change?: StateChange<S>) => true | string;

export interface WorldDefinition<S = any, V = any> {
  name: string;
  version: string;
  /** The zod schema of the whole state: validated on initialisation and after every write. */
  state: z.ZodType<S>;
  /**
   * Turn a scenario's `application.initial_state` (portable JSON, possibly `{}`) into a full state.
   * Defaults to parsing it with `state`.
   */
  initialState?: (portable: Record<string, unknown>) => S;
  operations: Record<string, OperationDefinition<S>>;
  /** A projection for verifiers (for example flat expectations). Gets the initial and final state. */
  view?: (state: S, initial: S) => Record<string, Json>;
  invariants?: Record<string, Invariant<S>>;
  /** The domain's words (verbs, record nouns, field names and aliases), added to the generic English the engine reads speech with (docs/worlds.md "Vocabulary"). */
  vocabulary?: Vocabulary;
  /**
   * Who may read which records (docs/grading.md, "Disclosure"): the same authorization the operations
   * enforce, declared once so grading can tell when the assistant spoke a value only a record the caller
   * may not read holds (`no_disclosure`).
   */
  access?: WorldAccess<S>;
}

/** A world's read authorization: its records by id, and whether this trial's caller may read one. */
export interface WorldAccess<S = any> {
  /** The records a caller could be told about, by id (say, the reservations map). */
  records: (state: S) => Record<string, unknown>;
  /** Whether the caller of this trial may read the record (say, its id is among the caller's verified ones). */
  readable: (state: S, id: string) => boolean;
}

export interface WorldEvent {
  seq: number;
  at_ms: number;
  operation: string;
  kind: "read" | "write";
  args: Json;
  outcome: "ok" | "error";
  result?: Json;
  error?: { code: string; message: string; details?: Json };
  patches: JsonPatch[];
  cause: Cause;
  /** "target": derived from what the target reported (docs/remote-assistant.md), not performed by this world. */
  reported_by?: "target";
}

export interface OperationOutcome {
  outcome: "ok" | "error";
  result?: Json;
  error?: { code: string; message: string; details?: Json };
  /** The world event this operation appended. */
  seq: number;
}

/** A live world for one trial. Only the harness holds it; the target never sees it. */
export interface World<S = any> {
  readonly definition: WorldDefinition<S>;
  readonly initial: S;
  /** The current frozen state. */
  state(): S;
  /** Run an operation. Unknown operations, invalid arguments and business-rule refusals all
   *  come back as outcome "error" and are recorded; only bugs in the world itself throw. */
  perform(operation: string, args: unknown, cause: Cause): OperationOutcome;
  events(): readonly WorldEvent[];
  /** JSON-Patch from the initial to the current state (fast-json-patch `compare`). */
  diff(): JsonPatch[];
  view(): Record<string, Json>;
}

export interface WorldOptions {
  seed: number;
  trial: string;
  initialState: Record<string, unknown>;
  /** Trial-timeline time source for event stamps. */
  now: () => number;
}

/** A tool the target may call, as declared to its backend (OpenAI function-tool shape). */
export interface ToolDeclaration {
  type: "function";
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
