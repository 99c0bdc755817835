/** The judge stage: every verifier's assessment of the drafted record, the semantic ones first. */

import { semanticQuality, taskUnderstandingOutcome } from "../../judge/verifiers";
import type { Assessment } from "../../record/assessment";
import { grade } from "../../verify/deterministic";
import { runVerifier } from "../../verify/verifier";
import { definitionSite } from "../../verify/source";
import { existsSync, readFileSync } from "node:fs";
import { relative, sep } from "node:path";
import { sha256 } from "../../provenance/digest";
import { packageRoot } from "../../provenance/package-files";

const hashIfFile = (path: string) => (existsSync(path) ? sha256(readFileSync(path)) : null);
import type { TrialState } from "../state";
import type { DraftRecord } from "./record";
import type { Verification } from "./verify";

/**
 * Judge: every verifier's assessment of the drafted record. After an infrastructure error none runs
 * (each is `not_run`, naming the stage). Otherwise the semantic layer runs first: its task_understanding
 * feeds the semantic_outcome check, which the deterministic outcome verifier then reads — so the
 * draft's checks and task metrics are updated here. Partial credit never overrides a deterministic failure.
 */
export async function judge(trial: TrialState, draft: DraftRecord, verification: Verification): Promise<Assessment[]> {
  const sourced = (assessments: Assessment[]) => assessments.map((a, i) => ({ ...a, source: sourceOf(byId.get(a.verifier) ?? verifiers[i]!.verifier, trial.ctx) }));
  const { verifiers } = trial.ctx;
  const byId = new Map(verifiers.map((v) => [v.verifier.id, v.verifier]));
  const scenario = trial.scenario;
  const error = draft.error;
  if (error) {
    return sourced(verifiers.map(({ verifier, required }) => ({
      verifier: verifier.id,
      version: verifier.version,
      kind: verifier.kind,
      status: "not_run" as const,
      required,
      rationale: `not run: infrastructure error at ${error.stage}`,
      evidence_ids: [],
    })));
  }
  const semantic: Assessment[] = [];
  for (const { verifier, required } of verifiers.filter((v) => v.verifier.kind === "semantic")) semantic.push(await runVerifier(verifier, { record: draft, scenario }, required));
  const understanding = taskUnderstandingOutcome(semantic);
  if (understanding !== undefined) {
    const required = semantic.find((a) => a.verifier === "semantic.task_understanding")!.required;
    draft.checks = grade({ ...verification.input, semantic_task_understanding: understanding, semantic_task_understanding_required: required }).checks;
  }
  draft.metrics.task.semantic_quality = semanticQuality(semantic);
  draft.metrics.task.task_completed = draft.checks.every((ch) => !ch.required || ch.status !== "failed");
  const deterministic: Assessment[] = [];
  for (const { verifier, required } of verifiers.filter((v) => v.verifier.kind !== "semantic")) deterministic.push(await runVerifier(verifier, { record: draft, scenario }, required));
  return sourced([...deterministic, ...semantic]);
}

const sources = new WeakMap<object, Map<object, NonNullable<Assessment["source"]>>>();

/**
 * Where a verifier's code came from, for its assessment: crashlab's own, or the package file that defined
 * it with that file's hash from the run's package identity (hashed once per run, never per trial).
 */
function sourceOf(verifier: object, ctx: TrialState["ctx"]): NonNullable<Assessment["source"]> {
  const identity = ctx.package_identity;
  // One answer per verifier per run: the identity, or (a library run) the run's verifier list, is the run.
  const run: object = identity ?? ctx.verifiers;
  const memo = sources.get(run) ?? sources.set(run, new Map()).get(run)!;
  const known = memo.get(verifier);
  if (known) return known;
  const site = definitionSite(verifier);
  let source: NonNullable<Assessment["source"]>;
  if (site === null) source = { origin: "crashlab", file: null, sha256: null };
  else if (site === undefined) source = { origin: "unknown", file: null, sha256: null };
  else {
    // A library run has no package identity: the same root rule, and the file hashed here, once.
    const root = identity?.root ?? (ctx.package_dir ? packageRoot(ctx.package_dir) : process.cwd());
    const file = relative(root, site).split(sep).join("/");
    const listed = identity?.files.find((f) => f.path === file)?.sha256;
    source = { origin: "package", file, sha256: listed ?? (identity ? null : hashIfFile(site)) };
  }
  memo.set(verifier, source);
  return source;
}
