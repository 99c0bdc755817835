/** `--data`: a PLAN whose cases are replaced by the given datasets' scenarios. */

import { relative, resolve } from "node:path";
import { loadDataset } from "../dataset/load";
import { datasetCases, definePlan, PlanError, type Plan } from "../run/plan";
import type { CaseDefinition } from "../trial/case";
import type { WorldDefinition } from "../world/types";

/*
 * `--data <file>` (repeatable): run datasets against the package's world and targets without writing a
 * package. The package's own cases are replaced by the datasets' scenarios, each as the case its shape
 * calls for (RUN, WALK or CRAWL); targets, verifiers, clauses, facts, gates and limits stay the PLAN's.
 */

/**
 * The plan with its cases replaced by the given datasets' (paths relative to `cwd`). `packageFile` names
 * the PLAN in messages; a PLAN handed to the library's `run()` may have none.
 */
export function planWithDatasets(plan: Plan, files: readonly string[], cwd: string, packageFile?: string): Plan {
  const world = packageWorld(plan.cases, packageFile);
  const cases: CaseDefinition[] = [];
  const from = new Map<string, string>();
  for (const given of files) {
    const loaded = loadDataset(resolve(cwd, given));
    for (const c of datasetCases(loaded, { world })) {
      const earlier = from.get(c.id.toLowerCase());
      if (earlier !== undefined)
        throw new PlanError(`--data: case id "${c.id}" of ${given} is also a case of ${earlier} (case ids are unique case-insensitively across the datasets of one run); run the datasets one at a time, or rename one of the scenarios`);
      from.set(c.id.toLowerCase(), given);
      cases.push(c);
    }
  }
  const { __crashlab_plan: _brand, ...definition } = plan;
  return definePlan({ ...definition, cases });
}

/** The one world the package's cases run against: `--data` scenarios run against it too. */
function packageWorld(cases: readonly CaseDefinition[], packageFile: string | undefined): WorldDefinition {
  const worlds = [...new Map(cases.map((c) => [c.world, c.world.name])).keys()];
  const thePlan = packageFile === undefined ? "the PLAN given to run()" : `the PLAN of ${relative(process.cwd(), packageFile) || packageFile}`;
  if (worlds.length === 0)
    throw new PlanError(`--data needs a world to run the datasets against, and ${thePlan} has no cases to take it from; add at least one case built with your world (for example \`crawl(loadDataset(...), {world})\`)`);
  if (worlds.length > 1)
    throw new PlanError(`--data runs datasets against the package's world, and ${thePlan} uses ${worlds.length} worlds (${worlds.map((w) => `"${w.name}"`).join(", ")}); write a package whose cases use one world, or add the dataset to the PLAN with the world it needs`);
  return worlds[0]!;
}
