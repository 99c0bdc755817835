/** `defineWorld`: declaring a world, checked when its module loads rather than mid-trial. */

import { vocabularyProblems } from "../language/vocabulary";
import { WorldDefinitionError } from "./errors";
import type { OperationDefinition, WorldDefinition } from "./types";

export { WorldDefinitionError } from "./errors";

/** Operation names become tool names: lower snake case, like `create_reservation`. */
const OPERATION_NAME = /^[a-z][a-z0-9_]*$/;

/** The operations of a world, each one's `args` typed by its own schema (`A` maps operation names to argument types). */
export type OperationsOf<S, A> = { [K in keyof A]: OperationDefinition<S, A[K]> };

/**
 * Declare a world. Returns the definition unchanged; throws `WorldDefinitionError` when it cannot work,
 * so a broken world fails when its module loads rather than in the middle of a trial.
 *
 * TypeScript infers the state's type from `state` and each operation's `args` from that operation's
 * schema, so `run({ state, args })` is typed without annotations. Giving the state type explicitly
 * (`defineWorld<State>(…)`) still works but turns that inference off: the arguments are then `any`.
 */
export function defineWorld<S, A extends Record<string, unknown> = Record<string, any>, V = any>(
  def: Omit<WorldDefinition<S, V>, "operations"> & { operations: OperationsOf<S, A> },
): WorldDefinition<S, V> {
  const where = `defineWorld(${typeof def?.name === "string" && def.name ? JSON.stringify(def.name) : "…"})`;
  const fail = (what: string): never => {
    throw new WorldDefinitionError(`${where}: ${what}`);
  };
  if (typeof def !== "object" || def === null) fail("expected a world definition object");
  if (typeof def.name !== "string" || def.name.trim() === "") fail("`name` must be a non-empty string");
  if (typeof def.version !== "string" || def.version.trim() === "") fail("`version` must be a non-empty string, such as \"1.0.0\"");
  if (!isZodSchema(def.state)) fail("`state` must be a zod schema of the whole state");
  if (def.initialState !== undefined && typeof def.initialState !== "function") fail("`initialState` must be a function");
  if (def.view !== undefined && typeof def.view !== "function") fail("`view` must be a function");
  if (typeof def.operations !== "object" || def.operations === null) fail("`operations` must be an object of named operations");
  const names = Object.keys(def.operations);
  if (names.length === 0) fail("`operations` is empty: a world needs at least one operation");
  for (const name of names) {
    if (!OPERATION_NAME.test(name)) {
      fail(`operation name ${JSON.stringify(name)} must match ${OPERATION_NAME} (lower snake case, it becomes a tool name)`);
    }
    const op = def.operations[name]!;
    if (op.kind !== "read" && op.kind !== "write") fail(`operation "${name}": \`kind\` must be "read" or "write"`);
    if (typeof op.description !== "string" || op.description.trim() === "") {
      fail(`operation "${name}": \`description\` must be a non-empty string (the model reads it)`);
    }
    if (!isZodSchema(op.args)) fail(`operation "${name}": \`args\` must be a zod schema`);
    if (typeof op.run !== "function") fail(`operation "${name}": \`run\` must be a function`);
    if (op.kind === "write" && op.writesValidState !== undefined && typeof op.writesValidState !== "boolean") {
      fail(`operation "${name}": \`writesValidState\` must be true or false`);
    }
  }
  if (def.access !== undefined) {
    if (typeof def.access !== "object" || def.access === null) fail("`access` must be an object `{ records, readable }`");
    if (typeof def.access.records !== "function") fail("`access.records` must be a function from the state to its records by id");
    if (typeof def.access.readable !== "function") fail("`access.readable` must be a function (state, id) saying whether the caller may read that record");
  }
  for (const [name, invariant] of Object.entries(def.invariants ?? {})) {
    if (typeof invariant !== "function") fail(`invariant "${name}" must be a function returning true or a message`);
  }
  // The words of the world and of its operations (effect, entity, verbs): docs/worlds.md "Vocabulary".
  const problems = vocabularyProblems(def as WorldDefinition<S, V>);
  if (problems.length > 0) fail(problems[0]!);
  return def;
}

function isZodSchema(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { safeParse?: unknown }).safeParse === "function";
}
