/**
 * What a dataset says about its world, checked against the world before any trial runs (and by
 * `crashlab validate --package`): the initial state builds, and every tool the scenario expects,
 * prohibits or names in its procedure is an operation of the world, called with arguments it takes.
 * Without this a typo in `expected.tools` (`book_appt`) passes validation and then fails every trial.
 */
import { DatasetError, type DatasetProblem } from "../dataset/load";
import type { Json, WorldDefinition } from "../world/types";
import { createWorld } from "../world/world";
import type { CaseDefinition } from "./plan";

/** Every problem of every selected case, grouped by dataset; throws a DatasetError for the first dataset with any. */
export function checkCasesAgainstWorlds(cases: ReadonlyArray<CaseDefinition>): void {
  const byFile = new Map<string, DatasetProblem[]>();
  const seen = new Set<string>();
  for (const c of cases) {
    // One check per scenario and world (WALK makes a case per recording of one scenario).
    const key = `${c.dataset_file}\u0000${c.scenario.id}\u0000${c.world.name}\u0000${(c.tools ?? []).join(",")}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const problems = caseProblems(c);
    if (problems.length > 0) byFile.set(c.dataset_file, [...(byFile.get(c.dataset_file) ?? []), ...problems]);
  }
  for (const [file, problems] of byFile) {
    const world = cases.find((c) => c.dataset_file === file)!.world;
    throw new DatasetError(file, problems, `Fix the dataset to match world "${world.name}" (its operations: ${Object.keys(world.operations).join(", ")}); \`crashlab validate --package <package>\` re-checks it.`);
  }
}

function caseProblems(c: CaseDefinition): DatasetProblem[] {
  const problems: DatasetProblem[] = [];
  const scenario_id = c.scenario.id;
  const add = (path: string, message: string) => problems.push({ path, scenario_id, message });
  try {
    createWorld(c.world, { seed: 0, trial: "preflight", initialState: structuredClone(c.scenario.application.initial_state), now: () => 0 });
  } catch (error) {
    add("application.initial_state", (error as Error).message);
  }
  const world = c.world;
  const { tools, procedure } = c.scenario.expected;
  const checkCall = (path: string, name: string, args: Record<string, Json> | undefined, required: boolean) => {
    if (!Object.hasOwn(world.operations, name)) {
      add(`${path}`, `"${name}" is not an operation of world "${world.name}" (it has: ${Object.keys(world.operations).join(", ")})`);
      return;
    }
    if (required && c.tools && !c.tools.includes(name)) add(`${path}`, `"${name}" is expected, but case "${c.id}" does not authorize it as a tool (authorized: ${c.tools.join(", ") || "none"})`);
    const accepted = argumentNames(world, name);
    if (!accepted || !args) return;
    for (const arg of Object.keys(args))
      if (!accepted.includes(arg)) add(`${path.replace(/\.name$|\.tool$/, "")}.arguments.${arg}`, `${name} takes no argument "${arg}" (it takes: ${accepted.join(", ") || "none"})`);
  };
  tools.required.forEach((call, i) => checkCall(`expected.tools.required[${i}].name`, call.name, call.arguments, true));
  tools.prohibited.forEach((call, i) => checkCall(`expected.tools.prohibited[${i}].name`, call.name, call.arguments, false));
  procedure?.steps.forEach((step, i) => {
    if (step.kind === "tool" && step.tool !== undefined) checkCall(`expected.procedure.steps[${i}].tool`, step.tool, step.arguments, false);
  });
  return problems;
}

/**
 * The argument names an operation declares, when its schema is an object that refuses or drops other
 * keys (so an expected argument outside it could never be observed); undefined when that cannot be told.
 */
function argumentNames(world: WorldDefinition, operation: string): string[] | undefined {
  let schema = (world.operations[operation]!.args as unknown as ZodLike)._zod?.def;
  // A transform wraps the object it reads first.
  while (schema?.type === "pipe") schema = schema.in?._zod?.def;
  if (schema?.type !== "object" || !schema.shape) return undefined;
  const catchall = schema.catchall?._zod?.def?.type;
  if (catchall !== undefined && catchall !== "never") return undefined; // a loose object keeps any key
  return Object.keys(schema.shape);
}

/** The parts of a zod 4 schema read above (duck-typed: a package may bring its own copy of zod). */
interface ZodLike {
  _zod?: { def?: ZodDef };
}
interface ZodDef {
  type?: string;
  shape?: Record<string, unknown>;
  catchall?: ZodLike;
  in?: ZodLike;
}
