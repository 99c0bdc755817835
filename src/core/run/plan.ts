/** The PLAN: its run defaults checked, `definePlan`, cases from datasets (CRAWL, WALK, RUN), case selection and trial seeds. */

import { createHash } from "node:crypto";
import { z } from "zod";
import { DatasetError, type LoadedDataset } from "../dataset/load";
import { matchesWhere, parseWhere } from "../walk/breakdown";
import { resolveRecording, validateRecordings } from "../walk/recordings";
import type { Json, ReadonlyJson } from "../world/types";
import { SAFE_ID, type Scenario } from "../dataset/schema";
import type { GateRule } from "../gate/gates";
import { humanGateIds, isHumanGate, isKnownHumanGate } from "../gate/human";
import type { TargetEntry } from "../target/settings";
import { BUILTIN_CLAUSES, type BehaviorClause } from "../judge/clauses";
import type { Verifier } from "../verify/verifier";
import type { WorldDefinition } from "../world/types";
import type { Limits } from "../record/trial-record";
import { planDefaultsProblems, type RunDefaults } from "../settings/plan-defaults";
import { describeValue } from "../settings/resolve";
import { DEFAULT_LIMITS as SETTING_DEFAULT_LIMITS, MAX_TRIALS_CEILING, SETTING_RANGES } from "../settings/schema";
import type { CaseDefinition, TrialSpec } from "../trial/case";
import { UserError } from "../user-error";

export type { CaseDefinition, CaseRecording, TrialSpec } from "../trial/case";

export type { RunDefaults, ServiceDefault, ServicesDefaults } from "../settings/plan-defaults";
export { DEFAULT_MAX_TRIALS, MAX_TRIALS_CEILING, SETTING_RANGES } from "../settings/schema";

export interface PlanDefinition {
  name: string;
  /** Named targets; `--target NAME` picks one, so a baseline and a candidate run on the same cases. */
  targets: Record<string, TargetEntry>;
  default_target?: string;
  cases: CaseDefinition[];
  /** Package verifiers, run after the built-in outcome assessment. */
  verifiers?: Verifier[];
  /** Extra behavior clauses for the semantic judge (`defineClause`); the five of docs/verifiers-and-clauses.md are built in. */
  clauses?: BehaviorClause[];
  /** Public business facts, offered to the judge as `fact.<key>` evidence (never evaluator-only data). */
  facts?: Readonly<Record<string, ReadonlyJson>>;
  /** Gate rules per verifier id; anything unspecified takes the verifier's default (required → min pass rate 1). */
  gates?: Record<string, Partial<GateRule>>;
  limits?: Partial<Limits>;
  defaults?: RunDefaults;
}

export type Plan = Readonly<PlanDefinition> & { readonly __crashlab_plan: 1 };

export class PlanError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = "PlanError";
  }
}

export const DEFAULT_LIMITS: Limits = { ...SETTING_DEFAULT_LIMITS };

const whole = (name: keyof typeof SETTING_RANGES) =>
  z.number({ error: `expected a whole number from ${SETTING_RANGES[name].min} to ${SETTING_RANGES[name].max}` })
    .int(`expected a whole number from ${SETTING_RANGES[name].min} to ${SETTING_RANGES[name].max}`)
    .min(SETTING_RANGES[name].min, `expected a whole number from ${SETTING_RANGES[name].min} to ${SETTING_RANGES[name].max}`)
    .max(SETTING_RANGES[name].max, `expected a whole number from ${SETTING_RANGES[name].min} to ${SETTING_RANGES[name].max}`);
const flag = z.boolean({ error: "expected true or false" });

const LimitsSetting = z.strictObject({
  time_ms: whole("time_ms").optional(),
  turns: whole("turns").optional(),
  tool_calls: whole("tool_calls").optional(),
  provider_requests: whole("provider_requests").optional(),
});
const GateSetting = z.strictObject({
  required: flag.optional(),
  min_pass_rate: z.number({ error: "expected a number from 0 to 1" }).min(0, "expected a number from 0 to 1").max(1, "expected a number from 0 to 1").optional(),
  wilson: flag.optional(),
});
/** A human gate (`human.*`) also says how many trials people must have reviewed before it can pass. */
const HumanGateSetting = GateSetting.extend({
  min_reviewed: z.number({ error: "expected a whole number >= 0" }).int("expected a whole number >= 0").min(0, "expected a whole number >= 0").max(MAX_TRIALS_CEILING, "expected a whole number >= 0").optional(),
  min_reviewed_share: z.number({ error: "expected a number from 0 to 1" }).min(0, "expected a number from 0 to 1").max(1, "expected a number from 0 to 1").optional(),
});

/** `PLAN.defaults`, `PLAN.limits`, `PLAN.gates.<id>`, a case's `limits`: checked once, each fault named with the value found. */
function checkSetting(where: string, schema: z.ZodType, value: unknown): void {
  if (value === undefined) return;
  const parsed = schema.safeParse(value);
  if (parsed.success) return;
  const problems = parsed.error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys" && issue.path.length > 0) return `${where}.${issue.path.join(".")}: unknown setting(s) ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
    if (issue.code === "unrecognized_keys") return `${where}: unknown setting(s) ${issue.keys.map((k) => `"${k}"`).join(", ")} (known: ${Object.keys((schema as z.ZodObject).shape).join(", ")})`;
    const at = issue.path.reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined), value);
    const path = issue.path.length ? `${where}.${issue.path.join(".")}` : where;
    return `${path}: ${issue.path.length === 0 ? "expected an object" : issue.message} (got ${describeValue(at)})`;
  });
  throw new PlanError(`${problems.join("; ")}. Fix the PLAN in evaluations.ts.`);
}

/** Validate and freeze a plan. Errors name the offending case, target or verifier. */
export function definePlan(def: PlanDefinition): Plan {
  if (!def || typeof def !== "object") throw new PlanError("definePlan expects an object {name, targets, cases}");
  if (!def.name) throw new PlanError("the plan needs a name");
  const targetNames = Object.keys(def.targets ?? {});
  if (targetNames.length === 0) throw new PlanError("the plan declares no targets: add at least one under `targets`");
  if (def.default_target && !targetNames.includes(def.default_target))
    throw new PlanError(`default_target "${def.default_target}" is not one of the plan's targets (${targetNames.join(", ")})`);
  if (!Array.isArray(def.cases)) throw new PlanError("`cases` must be a list of cases (for example `crawl(dataset, {world})`)");
  const defaultsProblems = planDefaultsProblems(def.defaults);
  if (defaultsProblems.length > 0) throw new PlanError(`${defaultsProblems.join("; ")}. Fix the PLAN in evaluations.ts.`);
  checkSetting("PLAN.limits", LimitsSetting, def.limits);
  if (def.defaults?.target !== undefined && !targetNames.includes(def.defaults.target))
    throw new PlanError(`PLAN.defaults.target "${def.defaults.target}" is not one of the plan's targets (${targetNames.join(", ")})`);
  const seen = new Map<string, string>();
  for (const c of def.cases) {
    checkSetting(`case "${c.id}": limits`, LimitsSetting, c.limits);
    if (!SAFE_ID.test(c.id) || c.id.includes("..")) throw new PlanError(`case id "${c.id}" is not a safe path component (letters, digits, '_', '-', '.')`);
    const key = c.id.toLowerCase();
    if (seen.has(key)) throw new PlanError(`duplicate case id "${c.id}" (case ids are unique case-insensitively; also "${seen.get(key)}")`);
    seen.set(key, c.id);
    for (const tool of c.tools ?? []) {
      if (!(tool in c.world.operations)) throw new PlanError(`case "${c.id}" authorizes tool "${tool}", which world "${c.world.name}" does not implement`);
    }
  }
  const verifierIds = new Set<string>(["outcome", ...BUILTIN_CLAUSES.map((c) => `semantic.${c.id}`), ...(def.clauses ?? []).map((c) => `semantic.${c.id}`)]);
  if (def.verifiers !== undefined && !Array.isArray(def.verifiers)) throw new PlanError(`PLAN.verifiers: expected a list of verifiers (got ${describeValue(def.verifiers)})`);
  for (const [i, v] of (def.verifiers ?? []).entries()) {
    if (!v || typeof v !== "object" || typeof v.id !== "string" || typeof v.assess !== "function" || typeof v.required !== "boolean")
      throw new PlanError(`PLAN.verifiers[${i}] is not a verifier (got ${describeValue(v)}): build it with \`defineVerifier({id, version, kind, description, required, assess})\``);
    if (verifierIds.has(v.id)) throw new PlanError(`duplicate verifier id "${v.id}"`);
    verifierIds.add(v.id);
  }
  if (def.gates !== undefined && (typeof def.gates !== "object" || def.gates === null || Array.isArray(def.gates)))
    throw new PlanError(`PLAN.gates: expected an object of gate rules per verifier id (got ${describeValue(def.gates)})`);
  const semanticIds = [...verifierIds].filter((id) => id.startsWith("semantic."));
  for (const id of Object.keys(def.gates ?? {})) {
    if (isHumanGate(id)) {
      if (!isKnownHumanGate(id, semanticIds)) throw new PlanError(`gate for unknown human verdict "${id}" (human gates: ${humanGateIds(semanticIds).join(", ")})`);
      checkSetting(`PLAN.gates.${id}`, HumanGateSetting, def.gates![id]);
      continue;
    }
    if (!verifierIds.has(id)) throw new PlanError(`gate for unknown verifier "${id}" (verifiers: ${[...verifierIds].join(", ")}; human gates: ${humanGateIds(semanticIds).join(", ")})`);
    checkSetting(`PLAN.gates.${id}`, GateSetting, def.gates![id]);
  }
  return Object.freeze({ ...def, __crashlab_plan: 1 as const });
}

export function isPlan(value: unknown): value is Plan {
  return typeof value === "object" && value !== null && (value as { __crashlab_plan?: unknown }).__crashlab_plan === 1;
}

export interface CrawlOptions {
  world: WorldDefinition;
  tools?: string[];
  limits?: Partial<Limits>;
}

/** One case of `kind` per scenario of the dataset with that interaction: what CRAWL and RUN cases share. */
function scenarioCases(loaded: LoadedDataset, options: CrawlOptions, interaction: Scenario["interaction"], kind: "crawl" | "run"): CaseDefinition[] {
  return loaded.dataset.scenarios
    .filter((s) => s.interaction === interaction)
    .map((scenario) => ({
      id: scenario.id,
      kind,
      scenario,
      dataset_file: loaded.file,
      world: options.world,
      ...(options.tools ? { tools: options.tools } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      tags: scenario.tags,
    }));
}

/** CRAWL cases: one per single-turn scenario of the dataset, the caller's words synthesized as speech. */
export function crawl(loaded: LoadedDataset, options: CrawlOptions): CaseDefinition[] {
  return scenarioCases(loaded, options, "single_turn", "crawl");
}

/**
 * RUN cases: one per multi-turn scenario of the dataset: a simulated caller holds one continuous
 * full-duplex conversation with the target, pursuing the scenario's private goal.
 */
export function converse(loaded: LoadedDataset, options: CrawlOptions): CaseDefinition[] {
  return scenarioCases(loaded, options, "multi_turn", "run");
}

/**
 * WALK cases: one per recording of each single-turn scenario, replayed as it is. Every recording is validated
 * here, before any session can start; all problems are reported together. The case id is the scenario id,
 * or `<scenario>.<recording>` when a scenario has several recordings.
 */
export function walk(loaded: LoadedDataset, options: CrawlOptions): CaseDefinition[] {
  const problems = validateRecordings(loaded.dataset, loaded.file);
  if (problems.length > 0) {
    throw new DatasetError(
      loaded.file,
      problems.map((p) => {
        const i = loaded.dataset.scenarios.findIndex((s) => s.id === p.scenario_id);
        const j = loaded.dataset.scenarios[i]?.input.recordings?.findIndex((r) => r.id === p.recording_id) ?? -1;
        return { path: `scenarios[${i}].input.recordings[${j}]`, scenario_id: p.scenario_id, message: `recording "${p.recording_id}" (${p.declared_path}): ${p.problem}; ${p.fix}` };
      }),
      "WALK replays recordings exactly: fix or convert the files named above, then run `crashlab validate` again.",
    );
  }
  return loaded.dataset.scenarios
    .filter((s) => s.interaction === "single_turn" && (s.input.recordings?.length ?? 0) > 0)
    .flatMap((scenario) =>
      scenario.input.recordings!.map((recording) => ({
        id: scenario.input.recordings!.length === 1 ? scenario.id : `${scenario.id}.${recording.id}`,
        kind: "walk" as const,
        scenario,
        dataset_file: loaded.file,
        world: options.world,
        recording: { id: recording.id, path: resolveRecording(loaded.file, scenario, recording), declared_path: recording.path, condition: recording.condition, metadata: recording.metadata as Record<string, Json> },
        ...(options.tools ? { tools: options.tools } : {}),
        ...(options.limits ? { limits: options.limits } : {}),
        tags: scenario.tags,
      })),
    );
}

/**
 * Every scenario of a dataset as the case its shape calls for: a multi-turn scenario becomes a RUN
 * conversation (`converse`), a single-turn scenario with recordings one WALK case per recording (`walk`),
 * any other single-turn scenario a CRAWL case (`crawl`). Dataset order is kept.
 */
export function datasetCases(loaded: LoadedDataset, options: CrawlOptions): CaseDefinition[] {
  const recorded = loaded.dataset.scenarios.some((s) => s.interaction === "single_turn" && (s.input.recordings?.length ?? 0) > 0);
  const byScenario = new Map<Scenario, CaseDefinition[]>();
  const add = (c: CaseDefinition) => byScenario.set(c.scenario, [...(byScenario.get(c.scenario) ?? []), c]);
  const walked = recorded ? walk(loaded, options) : [];
  walked.forEach(add);
  crawl(loaded, options).filter((c) => !byScenario.has(c.scenario)).forEach(add);
  converse(loaded, options).forEach(add);
  return loaded.dataset.scenarios.flatMap((s) => byScenario.get(s) ?? []);
}

/** Trial seed = first 32 bits of sha256(run seed, trial id): independent of order, concurrency and filters. */
export function trialSeed(runSeed: number, trialId: string): number {
  return createHash("sha256").update(`${runSeed}\u0000${trialId}`).digest().readUInt32BE(0);
}

export interface CaseSelection {
  /** Scenario/case ids to keep (case-insensitive); empty keeps all. */
  ids?: string[];
  tags?: string[];
  /** WALK: keep recordings with one of these acoustic conditions (cases without a recording are dropped). */
  conditions?: string[];
  /** WALK: `key=value` filters on recording metadata, all of which must match (`accent=scottish`). */
  where?: string[];
  max_examples?: number;
}

/** Filter cases; unknown ids are a usage error naming what exists. */
export function selectCases(cases: CaseDefinition[], selection: CaseSelection): CaseDefinition[] {
  let selected = cases;
  if (selection.ids && selection.ids.length > 0) {
    const wanted = selection.ids.map((id) => id.toLowerCase());
    const known = new Set(cases.map((c) => c.id.toLowerCase()));
    const unknown = selection.ids.filter((id) => !known.has(id.toLowerCase()));
    if (unknown.length > 0) {
      const sample = cases.slice(0, 6).map((c) => c.id).join(", ");
      throw new PlanError(`unknown scenario id(s): ${unknown.join(", ")}. Known ids include ${sample}${cases.length > 6 ? ", …" : ""} (\`crashlab list\` shows all)`);
    }
    selected = selected.filter((c) => wanted.includes(c.id.toLowerCase()));
  }
  if (selection.tags && selection.tags.length > 0) {
    const tags = selection.tags.map((t) => t.toLowerCase());
    selected = selected.filter((c) => c.tags.some((t) => tags.includes(t.toLowerCase())) || tags.includes(c.kind));
  }
  if (selection.conditions && selection.conditions.length > 0) {
    const wanted = selection.conditions.map((c) => c.toLowerCase());
    // WALK recordings are chosen by their condition; RUN conversations stay, their caller is degraded by it.
    selected = selected.filter((c) => c.kind === "run" || (c.recording && wanted.includes(c.recording.condition.toLowerCase())));
  }
  if (selection.where && selection.where.length > 0) {
    const filters = selection.where.map((w) => parseWhere(w));
    selected = selected.filter((c) => c.recording && filters.every((f) => matchesWhere({ condition: c.recording!.condition, ...c.recording!.metadata }, f)));
  }
  if (selection.max_examples && selection.max_examples > 0) selected = selected.slice(0, selection.max_examples);
  return selected;
}

export function buildTrials(cases: CaseDefinition[], repetitions: number, runSeed: number): TrialSpec[] {
  const trials: TrialSpec[] = [];
  for (const c of cases)
    for (let rep = 1; rep <= repetitions; rep++) {
      const trial_id = `${c.id}#${rep}`;
      trials.push({ trial_id, case: c, repetition: rep, seed: trialSeed(runSeed, trial_id) });
    }
  return trials;
}
