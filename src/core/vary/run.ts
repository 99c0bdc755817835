/**
 * Running a variation matrix: the base assistant once per case and delegation mode, then each generated
 * variant (an operator with its own seed, on a case it can act on) in every mode, each a real trial of the
 * package's own target with its offline policy wrapped; every cell read into a verdict against the base's.
 */
import { emptyRecording, recorder, type BaseRecording, type Operator, type OperationInfo, type OperatorContext } from "./operators";
import { rewritingPolicy, type Rewriter } from "./rewriting";
import { hash, shuffled } from "./seeded";
import { run, type RunOptions } from "../run/run";
import type { Plan } from "../run/plan";
import type { CaseDefinition } from "../trial/case";
import type { TrialRecord } from "../record/trial-record";
import { DEFAULT_TARGET_SETTINGS, instantiateTarget, type TargetSettings } from "../target/settings";
import type { AssistantPolicy } from "../target/policy";
import type { DelegationMode } from "../target/types";
import { toolDeclarations } from "../world/world";
import { UserError } from "../user-error";

export class VaryError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = "VaryError";
  }
}

export type Verdict = "ok" | "false_fail" | "miss" | "not_acted" | "awaiting_check" | "base_fails";

/** One trial's verdict as vary reads it: its status and the checks and verifiers that failed. */
export interface TrialVerdict {
  status: TrialRecord["status"];
  /** Required checks and required verifiers that failed (what decides the trial), sorted. */
  failed: string[];
  /** Checks that failed without deciding the trial (advisory ones), sorted. */
  advisory_failed: string[];
  /** Every check and verifier the trial was graded with (whatever its status). */
  known: string[];
  /** Each failed check's rationale, by check id (what to read when a cell is not `ok`). */
  reasons: Record<string, string>;
  /** What the assistant said, line by line. */
  said: string[];
}

export interface BaseCell extends TrialVerdict {
  case_id: string;
  case_kind: CaseDefinition["kind"];
  mode: DelegationMode;
  recording: BaseRecording;
  wall_ms: number;
}

export interface Cell extends TrialVerdict {
  variant: string;
  operator: string;
  kind: "correct" | "fault";
  seed: number;
  case_id: string;
  case_kind: CaseDefinition["kind"];
  mode: DelegationMode;
  /** The check a fault must fail on here. */
  intended?: string;
  /** How often the variant changed something in this trial. */
  acted: number;
  /** The first few changes it made, each in a few words ("7 p.m. → 7 a.m."). */
  changes: string[];
  verdict: Verdict;
  /** Why the verdict is what it is, in a few words. */
  note: string;
  base: { status: TrialRecord["status"]; failed: string[] };
  wall_ms: number;
}

export interface OperatorSummary {
  id: string;
  kind: "correct" | "fault";
  intended?: { crawl: string; run: string; why: string };
  /** Cases (of those selected) where the base gave the operator something to act on. */
  applicable_cases: number;
  cells: number;
  ok: number;
  false_fails: number;
  misses: number;
  not_acted: number;
  awaiting_check: number;
  base_fails: number;
}

export interface Summary {
  correct_counted: number;
  false_fails: number;
  false_fail_rate: number;
  fault_counted: number;
  misses: number;
  miss_rate: number;
  not_acted: number;
  awaiting_check: number;
  base_fails: number;
  /** Checks faults were meant for that the grader does not have (yet). */
  awaiting_checks: string[];
  variants: number;
  cells: number;
  base_trials: number;
  wall_ms: number;
}

export interface VaryResult {
  plan: string;
  target: string;
  seed: number;
  modes: DelegationMode[];
  operators: OperatorSummary[];
  base: Array<Omit<BaseCell, "recording">>;
  cells: Cell[];
  summary: Summary;
}

export interface VaryOptions {
  plan: Plan;
  /** The PLAN target whose offline policy is varied. */
  target: string;
  /** The engine's options as `crashlab run` would use them (speech, conversations, audio, limits, package). */
  engine: RunOptions;
  /** The trials' seed (the same for the base and every variant, so a variant differs only by its change). */
  seed: number;
  variants: number;
  cases: CaseDefinition[];
  modes: DelegationMode[];
  operators: readonly Operator[];
  /** Trials run at once (each has its own world, session and virtual clock, so verdicts do not depend on it). */
  concurrency?: number;
  onBase?: (cell: BaseCell, done: number, total: number) => void;
  onCell?: (cell: Cell, done: number, total: number) => void;
  signal?: AbortSignal;
}

/** A trial's verdict: status, failed required checks and verifiers, failed advisory checks, every id graded. */
export function trialVerdict(record: TrialRecord): TrialVerdict {
  const failed = [
    ...record.checks.filter((c) => c.status === "failed" && c.required).map((c) => c.id),
    ...record.assessments.filter((a) => a.verifier !== "outcome" && a.status === "failed" && a.required).map((a) => a.verifier),
  ];
  const advisory = [
    ...record.checks.filter((c) => c.status === "failed" && !c.required).map((c) => c.id),
    ...record.assessments.filter((a) => a.verifier !== "outcome" && a.status === "failed" && !a.required).map((a) => a.verifier),
  ];
  const known = [...record.checks.map((c) => c.id), ...record.assessments.map((a) => a.verifier), ...Object.keys(record.dimensions)];
  const sorted = (ids: string[]) => [...new Set(ids)].sort();
  const reasons = Object.fromEntries(record.checks.filter((c) => c.status === "failed").map((c) => [c.id, c.rationale]));
  const said = record.turns.filter((t) => t.role === "assistant").map((t) => t.text);
  return { status: record.status, failed: sorted(failed), advisory_failed: sorted(advisory), known: sorted(known), reasons, said };
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** A cell's verdict against its base (docs/vary.md "Reading the matrix"). */
export function judgeCell(op: Pick<Operator, "kind">, intended: string | undefined, acted: number, trial: TrialVerdict, base: TrialVerdict): { verdict: Verdict; note: string } {
  if (acted === 0) return { verdict: "not_acted", note: "the variant changed nothing in this trial: not counted" };
  if (op.kind === "correct") {
    if (trial.status === base.status && sameSet(trial.failed, base.failed)) return { verdict: "ok", note: `same verdict as the base (${base.status})` };
    const extra = trial.failed.filter((f) => !base.failed.includes(f));
    const gone = base.failed.filter((f) => !trial.failed.includes(f));
    return {
      verdict: "false_fail",
      note: `${trial.status} where the base ${base.status}${extra.length ? `; also failed ${extra.join(", ")}` : ""}${gone.length ? `; no longer failed ${gone.join(", ")}` : ""}`,
    };
  }
  if (!intended) return { verdict: "awaiting_check", note: "no intended check for this kind of case" };
  if (!trial.known.includes(intended)) return { verdict: "awaiting_check", note: `the grader has no ${intended} check yet: not counted` };
  if (base.failed.includes(intended)) return { verdict: "base_fails", note: `the base already fails ${intended}: proves nothing, not counted` };
  if (trial.status === "failed" && trial.failed.includes(intended)) return { verdict: "ok", note: `failed on ${intended}` };
  const advisory = trial.advisory_failed.includes(intended) ? ` (${intended} failed, but only as advisory)` : "";
  return { verdict: "miss", note: `${trial.status}${trial.failed.length ? ` on ${trial.failed.join(", ")}` : ""}, not on ${intended}${advisory}` };
}

/** The operations a case lets the target call: declared to it, with kind, parameters and an argument check. */
export function caseOperations(c: CaseDefinition, declared: readonly string[]): Record<string, OperationInfo> {
  const names = (c.tools ?? Object.keys(c.world.operations)).filter((n) => declared.includes(n) && Object.hasOwn(c.world.operations, n));
  const out: Record<string, OperationInfo> = {};
  for (const tool of toolDeclarations(c.world, names)) {
    const op = c.world.operations[tool.name]!;
    const properties = (tool.parameters as { properties?: Record<string, unknown> }).properties ?? {};
    out[tool.name] = { name: tool.name, kind: op.kind, parameters: Object.keys(properties), accepts: (args) => op.args.safeParse(args).success };
  }
  return out;
}

/** The world's initial state for a case: application data only (what `SessionIO.fixture` may also hand a target). */
export function caseInitialState(c: CaseDefinition): unknown {
  const portable = c.scenario.application.initial_state as Record<string, unknown>;
  try {
    return c.world.initialState ? c.world.initialState(portable) : c.world.state.parse(portable);
  } catch {
    return portable;
  }
}

/** `work` over `items`, at most `n` at once; results in the items' order. */
async function inPool<T, R>(items: readonly T[], n: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

const notWrapped = (target: string) =>
  `target "${target}" does not let crashlab wrap its offline policy, so no variant of it can be run: build it with gptLiveTarget({ settings, offline: { policy } }) from the settings its factory is given (docs/vary.md)`;

/** Run the matrix. */
export async function runVary(options: VaryOptions): Promise<VaryResult> {
  const started = Date.now();
  const { plan, target, engine, seed, modes } = options;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const entry = plan.targets[target];
  if (!entry) throw new VaryError(`unknown target "${target}"; the plan declares: ${Object.keys(plan.targets).join(", ")}`);
  const settings: TargetSettings = { ...DEFAULT_TARGET_SETTINGS, ...engine.target_settings, delegation: modes[0]! };
  // The target built once as every cell builds it: its declared tools, and whether it lets its policy be wrapped.
  let wraps = false;
  let declared: string[];
  try {
    declared = instantiateTarget(entry, { ...settings, wrap_policy: (p) => ((wraps = true), p) })
      .session()
      .tools.map((t) => t.name);
  } catch (error) {
    throw new VaryError(`target "${target}" could not be built offline: ${(error as Error).message}`);
  }
  if (!wraps) throw new VaryError(notWrapped(target));

  /** One trial of `c` in `mode` with the target's offline policy wrapped. */
  const trial = async (c: CaseDefinition, mode: DelegationMode, label: string, rewriter: Rewriter): Promise<TrialRecord> => {
    let wrapped = false;
    const wrap = (policy: AssistantPolicy) => {
      wrapped = true;
      return rewritingPolicy(policy, label, rewriter);
    };
    const cellPlan = { ...plan, targets: { [target]: (s: TargetSettings) => instantiateTarget(entry, { ...s, wrap_policy: wrap }) } } as Plan;
    const result = await run(cellPlan, {
      ...engine,
      target,
      seed,
      repetitions: 1,
      concurrency: 1,
      selection: { ids: [c.id] },
      target_settings: { ...engine.target_settings, delegation: mode },
      keep_records: true,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!wrapped) throw new VaryError(notWrapped(target));
    const record = result.records[0];
    if (!record) throw new VaryError(`case ${c.id} did not run (${result.interruption ? `interrupted by ${result.interruption.signal}` : "no record"})`);
    return record;
  };

  // The base: once per case and mode, through the same wrapper (recording, changing nothing).
  const base = new Map<string, BaseCell>();
  const key = (caseId: string, mode: string) => `${caseId}|${mode}`;
  const baseRuns = options.cases.flatMap((c) => modes.map((mode) => ({ c, mode })));
  let baseDone = 0;
  const baseCells = await inPool(baseRuns, concurrency, async ({ c, mode }) => {
    const t0 = Date.now();
    const recording = emptyRecording();
    const record = await trial(c, mode, "base", recorder(recording, caseOperations(c, declared)));
    const cell: BaseCell = { case_id: c.id, case_kind: c.kind, mode, recording, ...trialVerdict(record), wall_ms: Date.now() - t0 };
    options.onBase?.(cell, ++baseDone, baseRuns.length);
    return cell;
  });
  for (const cell of baseCells) base.set(key(cell.case_id, cell.mode), cell);

  // Which cases each operator can act on (in at least one mode), from what the base did there.
  const applicable = new Map<string, CaseDefinition[]>();
  for (const op of options.operators) {
    const list = options.cases.filter((c) =>
      modes.some((mode) => op.applies(base.get(key(c.id, mode))!.recording, { case_kind: c.kind, operations: caseOperations(c, declared), initial_state: caseInitialState(c) })),
    );
    applicable.set(op.id, list);
  }

  // Variants dealt round-robin over the operators that have a case, each operator's cases in a seeded order.
  const usable = options.operators.filter((op) => applicable.get(op.id)!.length > 0);
  const planned: Array<{ op: Operator; index: number; seed: number; case: CaseDefinition }> = [];
  for (let i = 0; usable.length > 0 && i < options.variants; i++) {
    const op = usable[i % usable.length]!;
    const index = Math.floor(i / usable.length);
    const cases = shuffled(applicable.get(op.id)!, seed, op.id);
    planned.push({ op, index, seed: hash(`${seed}|${op.id}|${index}`), case: cases[index % cases.length]! });
  }

  const runs = planned.flatMap((v) => modes.map((mode) => ({ v, mode })));
  let done = 0;
  const cells = await inPool(runs, concurrency, async ({ v, mode }): Promise<Cell> => {
      const t0 = Date.now();
      const b = base.get(key(v.case.id, mode))!;
      let acted = 0;
      const changes: string[] = [];
      const context: OperatorContext = {
        seed: v.seed,
        case_kind: v.case.kind,
        operations: caseOperations(v.case, declared),
        initial_state: caseInitialState(v.case),
        base: b.recording,
        acted: (what) => {
          acted++;
          if (changes.length < 5 && !changes.includes(what)) changes.push(what);
        },
      };
      const variant = `${v.op.id}#${v.index + 1}`;
      const record = await trial(v.case, mode, variant, v.op.rewriter(context));
      const verdict = trialVerdict(record);
      const intended = v.op.intended ? (v.case.kind === "run" ? v.op.intended.run : v.op.intended.crawl) : undefined;
      const judged = judgeCell(v.op, intended, acted, verdict, b);
      const cell: Cell = {
        variant,
        operator: v.op.id,
        kind: v.op.kind,
        seed: v.seed,
        case_id: v.case.id,
        case_kind: v.case.kind,
        mode,
        ...(intended ? { intended } : {}),
        acted,
        changes,
        ...verdict,
        ...judged,
        base: { status: b.status, failed: b.failed },
        wall_ms: Date.now() - t0,
      };
      options.onCell?.(cell, ++done, runs.length);
      return cell;
  });

  const operators = options.operators.map((op): OperatorSummary => {
    const mine = cells.filter((c) => c.operator === op.id);
    const count = (v: Verdict) => mine.filter((c) => c.verdict === v).length;
    return {
      id: op.id,
      kind: op.kind,
      ...(op.intended ? { intended: op.intended } : {}),
      applicable_cases: applicable.get(op.id)!.length,
      cells: mine.length,
      ok: count("ok"),
      false_fails: count("false_fail"),
      misses: count("miss"),
      not_acted: count("not_acted"),
      awaiting_check: count("awaiting_check"),
      base_fails: count("base_fails"),
    };
  });
  const counted = (kind: "correct" | "fault") => cells.filter((c) => c.kind === kind && ["ok", "false_fail", "miss"].includes(c.verdict)).length;
  const falseFails = cells.filter((c) => c.verdict === "false_fail").length;
  const misses = cells.filter((c) => c.verdict === "miss").length;
  const rate = (n: number, of: number) => (of === 0 ? 0 : Math.round((n / of) * 10000) / 10000);
  const summary: Summary = {
    correct_counted: counted("correct"),
    false_fails: falseFails,
    false_fail_rate: rate(falseFails, counted("correct")),
    fault_counted: counted("fault"),
    misses,
    miss_rate: rate(misses, counted("fault")),
    not_acted: cells.filter((c) => c.verdict === "not_acted").length,
    awaiting_check: cells.filter((c) => c.verdict === "awaiting_check").length,
    base_fails: cells.filter((c) => c.verdict === "base_fails").length,
    awaiting_checks: [...new Set(cells.filter((c) => c.verdict === "awaiting_check" && c.intended).map((c) => c.intended!))].sort(),
    variants: planned.length,
    cells: cells.length,
    base_trials: base.size,
    wall_ms: Date.now() - started,
  };
  return {
    plan: plan.name,
    target,
    seed,
    modes,
    operators,
    base: [...base.values()].map(({ recording: _recording, ...rest }) => rest),
    cells,
    summary,
  };
}

/** Whether a vary run is clean: something was counted, and neither a false fail nor a miss. */
export function varyPassed(summary: Summary): boolean {
  return summary.correct_counted + summary.fault_counted > 0 && summary.false_fails === 0 && summary.misses === 0;
}
