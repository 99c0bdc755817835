/** A world for one trial: its state, operations run through it, the event log, the diff, the tools it declares. */

import jsonpatch from "fast-json-patch";
import { Immer, enablePatches, type Draft, type Patch } from "immer";
import { z } from "zod";
import type { ToolDeclaration } from "./types";
import { DraftSession, freezeState } from "./draft";
import { describeIssues, issuesFrom, WorldSetupError } from "./errors";
import { freezeJson, toJson, toPointer } from "./json";
import { createWorldRandom, type EngineRandom } from "./random";
import { checkWrite } from "./state-check";
import {
  OperationError,
  type Cause,
  type Invariant,
  type Json,
  type JsonPatch,
  type OperationDefinition,
  type OperationOutcome,
  type World,
  type WorldDefinition,
  type WorldEvent,
  type WorldOptions,
} from "./types";

export { WorldSetupError, type WorldIssue } from "./errors";

enablePatches();
// Our own instance: a global `setAutoFreeze(false)` elsewhere must not unfreeze world state.
// Stryker disable next-line ObjectLiteral: equivalent, immer freezes by default; the option guards against a global switch
const immer = new Immer({ autoFreeze: true });

type ErrorBody = NonNullable<WorldEvent["error"]>;

/** Start a world for one trial: fresh state from the scenario's portable initial state, empty event log. */
export function createWorld<S>(def: WorldDefinition<S>, options: WorldOptions): World<S> {
  return new LiveWorld(def, options);
}

/** Operations the fast draft cannot follow; they go straight to immer (the outcome is the same). */
const immerOnly = new WeakSet<WriteOperation<any>>();

type WriteOperation<S> = Extract<OperationDefinition<S>, { kind: "write" }>;

interface Written<S> {
  next: S;
  /** immer-shaped patches; none when the write changed nothing. */
  patches: Patch[];
  result: Json;
}

interface Entry {
  operation: string;
  kind: "read" | "write";
  args: Json;
  outcome: "ok" | "error";
  result?: Json;
  error?: ErrorBody;
  patches: JsonPatch[];
}

class LiveWorld<S> implements World<S> {
  readonly initial: S;
  private current: S;
  private readonly log: WorldEvent[] = [];
  private frozenEvents = 0;
  private readonly random: EngineRandom;

  constructor(
    readonly definition: WorldDefinition<S>,
    private readonly options: WorldOptions,
  ) {
    this.initial = initialStateOf(definition, options.initialState);
    this.current = this.initial;
    this.random = createWorldRandom(options.seed, options.trial);
  }

  state(): S {
    return this.current;
  }

  events(): readonly WorldEvent[] {
    // Events are frozen when they are first handed out: until then nobody else can reach them.
    // Stryker disable next-line EqualityOperator: equivalent, one step past the end freezes undefined, which is nothing
    for (; this.frozenEvents < this.log.length; this.frozenEvents++) freezeJson(this.log[this.frozenEvents]);
    return this.log.slice();
  }

  diff(): JsonPatch[] {
    // compare() emits add, remove and replace only, with JSON values: the narrower JsonPatch type holds.
    return jsonpatch.compare(this.initial as object, this.current as object) as JsonPatch[];
  }

  view(): Record<string, Json> {
    return toJson(this.definition.view?.(this.current, this.initial) ?? {}) as Record<string, Json>;
  }

  perform(operation: string, rawArgs: unknown, cause: Cause): OperationOutcome {
    const def = this.definition;
    const at_ms = this.options.now();
    const op: OperationDefinition<S> | undefined = Object.hasOwn(def.operations, operation)
      ? def.operations[operation]
      : undefined;
    if (!op) {
      // Nothing ran and nothing was written, so the event is recorded as a read.
      const error = {
        code: "unknown_operation",
        message: `world "${def.name}" has no operation ${JSON.stringify(operation)}; it has: ${Object.keys(def.operations).join(", ")}`,
      };
      return this.append({ operation, kind: "read", args: toJson(rawArgs), outcome: "error", error, patches: [] }, at_ms, cause);
    }

    const parsed = op.args.safeParse(rawArgs);
    if (!parsed.success) {
      const issues = issuesFrom(parsed.error.issues);
      const error = {
        code: "invalid_arguments",
        message: `invalid arguments for ${operation}: ${describeIssues(issues)}`,
        details: { issues: issues as unknown as Json },
      };
      return this.append({ operation, kind: op.kind, args: toJson(rawArgs), outcome: "error", error, patches: [] }, at_ms, cause);
    }
    const args: unknown = parsed.data;
    const argsJson = toJson(args);

    if (op.kind === "read") {
      let result: Json;
      try {
        result = toJson(synchronous(operation, op.run({ state: this.current, args, now_ms: at_ms })));
      } catch (e) {
        if (e instanceof OperationError) return this.append(refusal(operation, "read", argsJson, e), at_ms, cause);
        throw e; // a bug in the world: the runner records it as an infrastructure error
      }
      return this.append({ operation, kind: "read", args: argsJson, outcome: "ok", result, patches: [] }, at_ms, cause);
    }

    const written = this.write(operation, op, args, rawArgs, at_ms);
    if (written instanceof OperationError) return this.append(refusal(operation, "write", argsJson, written), at_ms, cause);
    const { next, patches: immerPatches, result } = written;
    // Stryker disable next-line ConditionalExpression,BlockStatement: speed only, an unchanged state passes every check and records no patches anyway
    if (immerPatches.length === 0) {
      return this.append({ operation, kind: "write", args: argsJson, outcome: "ok", result, patches: [] }, at_ms, cause);
    }
    const patches = immerPatches.map(toJsonPatch);
    const violation = violationOf(def, op, this.current, next, immerPatches, patches);
    if (violation) {
      return this.append({ operation, kind: "write", args: argsJson, outcome: "error", error: violation, patches: [] }, at_ms, cause);
    }
    this.current = next;
    return this.append(
      { operation, kind: "write", args: argsJson, outcome: "ok", result, patches: patches.map(recordedPatch) },
      at_ms,
      cause,
    );
  }

  /**
   * Run a write on a draft of the current state: on the fast draft when it can follow the operation
   * (it gives what immer would), otherwise on immer. A refusal comes back as the OperationError.
   */
  private write(operation: string, op: WriteOperation<S>, args: unknown, rawArgs: unknown, at_ms: number): Written<S> | OperationError {
    const base = this.current;
    const random = this.random;
    // Stryker disable next-line BooleanLiteral,ConditionalExpression,BlockStatement: speed only, immer gives the same outcome (the fast-draft tests compare them)
    if (!immerOnly.has(op)) {
      const session = new DraftSession(base);
      random.mark();
      // Stryker disable next-line BlockStatement: speed only, without the fast run the write reruns on immer with the same outcome
      try {
        const result = toJson(synchronous(operation, op.run({ state: session.root as Draft<S>, base, args, now_ms: at_ms, random })));
        const done = session.finish();
        // Stryker disable next-line ConditionalExpression,BlockStatement: speed only, a write the draft cannot finish reruns on immer with the same outcome
        if (done) return { next: done.next, patches: done.patches, result };
        // Stryker disable next-line BlockStatement: speed only, a fast run's error is raised again when the write reruns on immer
      } catch (e) {
        session.discard();
        // Stryker disable next-line ConditionalExpression,BlockStatement: speed only, rerun on immer the operation refuses or fails the same way
        if (!session.unsupported) {
          if (e instanceof OperationError) return e;
          throw e; // a bug in the world: the runner records it as an infrastructure error
        }
      }
      // The operation did something only immer follows: forget this run (the ids it drew, arguments it
      // may have touched) and run it again on immer, and go to immer directly from now on.
      immerOnly.add(op);
      random.rewind();
      args = op.args.parse(rawArgs);
    }
    let result: Json = null;
    try {
      const [next, patches] = immer.produceWithPatches(base, (draft) => {
        // Copy inside the recipe: a result may point into the draft, which is revoked afterwards.
        result = toJson(synchronous(operation, op.run({ state: draft, base, args, now_ms: at_ms, random })));
      }) as unknown as [S, Patch[], Patch[]];
      return { next, patches, result };
    } catch (e) {
      if (e instanceof OperationError) return e;
      throw e;
    }
  }

  /** Append the one event of this perform and hand the caller its own copy of the outcome. */
  private append(entry: Entry, at_ms: number, cause: Cause): OperationOutcome {
    const seq = this.log.length + 1;
    const { operation, kind, args, outcome, patches } = entry;
    const causeCopy = toJson(cause) as unknown as Cause;
    const event: WorldEvent =
      outcome === "ok"
        ? { seq, at_ms, operation, kind, args, outcome, result: entry.result ?? null, patches, cause: causeCopy }
        : { seq, at_ms, operation, kind, args, outcome, error: entry.error!, patches, cause: causeCopy };
    this.log.push(event);
    // The caller gets its own copy: mutating it must not reach the log or the state.
    return outcome === "ok"
      ? { outcome, result: toJson(entry.result), seq }
      : { outcome, error: toJson(entry.error) as unknown as ErrorBody, seq };
  }
}

/** Operations run to completion inside one perform; a promise would write to a draft that is already gone. */
function synchronous(operation: string, value: unknown): unknown {
  if (typeof (value as { then?: unknown } | null)?.then === "function") {
    throw new TypeError(`world operation "${operation}" returned a promise: operations must be synchronous`);
  }
  return value;
}

function refusal(operation: string, kind: "read" | "write", args: Json, e: OperationError): Entry {
  const error: ErrorBody = { code: e.code, message: e.message };
  if (e.details !== undefined) error.details = toJson(e.details);
  return { operation, kind, args, outcome: "error", error, patches: [] };
}

/** A write's new state against the state schema, then every invariant; the first failure wins. */
function violationOf<S>(
  def: WorldDefinition<S>,
  op: WriteOperation<S>,
  previous: S,
  next: S,
  immerPatches: Patch[],
  patches: JsonPatch[],
): ErrorBody | undefined {
  const issues = op.writesValidState === true ? [] : checkWrite(def.state, next, immerPatches);
  if (issues.length > 0) {
    const located = issuesFrom(issues);
    return {
      code: "invariant_violated",
      message: `write rolled back: the new state would not match the state schema of world "${def.name}": ${describeIssues(located)}`,
      details: { invariant: "state", issues: located as unknown as Json },
    };
  }
  const change = { previous, patches };
  for (const [name, invariant] of invariantsOf(def)) {
    const verdict = invariant(next, change);
    if (verdict !== true) {
      return {
        code: "invariant_violated",
        message: `write rolled back: invariant "${name}" would be violated: ${String(verdict)}`,
        details: { invariant: name, message: String(verdict) },
      };
    }
  }
  return undefined;
}

/**
 * A patch as the event keeps it. Values immer froze into the new state are shared (nobody can change
 * them); anything else is copied.
 */
function recordedPatch(patch: JsonPatch): JsonPatch {
  if (patch.op === "remove") return { op: "remove", path: patch.path };
  const value = (patch as { value?: unknown }).value;
  const shared = typeof value !== "object" || value === null || Object.isFrozen(value);
  return { op: patch.op, path: patch.path, value: shared ? value : toJson(value) } as JsonPatch;
}

const invariantLists = new WeakMap<WorldDefinition, Array<[string, Invariant<any>]>>();

/** A definition's invariants as a list, built once per definition rather than once per write. */
function invariantsOf<S>(def: WorldDefinition<S>): Array<[string, Invariant<S>]> {
  let list = invariantLists.get(def);
  // Stryker disable next-line ConditionalExpression: speed only, rebuilding the list gives the same list
  if (!list) invariantLists.set(def, (list = Object.entries(def.invariants ?? {})));
  return list;
}

function toJsonPatch(patch: Patch): JsonPatch {
  const path = toPointer(patch.path);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: equivalent, immer's remove patch has no value either
  return patch.op === "remove" ? { op: "remove", path } : { op: patch.op, path, value: patch.value };
}

/** `application.initial_state` → validated, frozen state; anything wrong is a WorldSetupError (docs/datasets.md). */
function initialStateOf<S>(def: WorldDefinition<S>, portableInput: Record<string, unknown>): S {
  const where = `world "${def.name}"`;
  // A private JSON copy: the scenario object can change later without reaching the world.
  const portable = toJson(portableInput ?? {});
  if (typeof portable !== "object" || portable === null || Array.isArray(portable)) {
    throw new WorldSetupError(`${where}: application.initial_state must be an object (use {} for the defaults)`);
  }
  let built: unknown = portable;
  if (def.initialState) {
    try {
      built = def.initialState(portable);
    } catch (e) {
      if (e instanceof z.core.$ZodError) {
        const issues = issuesFrom(e.issues, "application.initial_state");
        throw new WorldSetupError(`${where}: ${describeIssues(issues)}`, issues);
      }
      throw e;
    }
  }
  const parsed = def.state.safeParse(built);
  if (!parsed.success) {
    if (def.initialState) {
      const issues = issuesFrom(parsed.error.issues, "state");
      throw new WorldSetupError(
        `${where}: the state built from application.initial_state is invalid: ${describeIssues(issues)}`,
        issues,
      );
    }
    const issues = issuesFrom(parsed.error.issues, "application.initial_state");
    throw new WorldSetupError(`${where}: ${describeIssues(issues)}`, issues);
  }
  const state = freezeState(parsed.data as S);
  for (const [name, invariant] of invariantsOf(def)) {
    const verdict = invariant(state);
    if (verdict !== true) {
      throw new WorldSetupError(`${where}: application.initial_state breaks invariant "${name}": ${String(verdict)}`, [
        { path: "application.initial_state", message: String(verdict) },
      ]);
    }
  }
  return state;
}

/** The operations a case authorizes, declared as function tools for the target (OpenAI shape). */
export function toolDeclarations(def: WorldDefinition, names?: readonly string[]): ToolDeclaration[] {
  return (names ?? Object.keys(def.operations)).map((name) => {
    const op = Object.hasOwn(def.operations, name) ? def.operations[name] : undefined;
    if (!op) {
      throw new WorldSetupError(
        `world "${def.name}" has no operation ${JSON.stringify(name)} to declare as a tool; it has: ${Object.keys(def.operations).join(", ")}`,
      );
    }
    // The target writes the arguments, so declare the input side (fields with defaults are optional).
    const { $schema: _dialect, ...parameters } = z.toJSONSchema(op.args, { io: "input" }) as Record<string, unknown>;
    return { type: "function", name, description: op.description, parameters };
  });
}
