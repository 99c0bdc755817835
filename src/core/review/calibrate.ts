/**
 * Is the semantic judge calibrated against people? For each clause, the judge's verdict on a trial
 * (its `semantic.<clause>` assessment) is paired with people's verdict on the same verifier id, and the
 * pairs give raw agreement and Cohen's kappa with a 95% interval (src/core/stats/kappa.ts). Verdicts that
 * cannot be paired are counted apart, never dropped silently: people unsure (or split evenly), and a judge
 * with no passed/failed verdict (inconclusive, error, not run, not applicable, or absent).
 */
import type { HumanVerdicts } from "../gate/human";
import type { ResultsFile } from "../record/results";
import { cohensKappa, type PairTable } from "../stats/kappa";

/** One run's part of a calibration: its trials (with the judge's assessments) and people's verdicts. */
export interface CalibrationRun {
  run_id: string;
  /** The run folder as the user named it, for links to its report. */
  run_dir: string;
  trials: ReadonlyArray<Pick<ResultsFile["trials"][number], "trial_id" | "assessments">>;
  verdicts: HumanVerdicts;
}

export interface Disagreement {
  run_id: string;
  trial_id: string;
  judge: "passed" | "failed";
  human: "passed" | "failed";
  /** The trial in the run's report: `<run-dir>/report.html#trial=<id>`. */
  link: string;
}

export interface ClauseCalibration {
  verifier: string;
  /** Trials with a passed/failed verdict from both. */
  n: number;
  agreement: number | null;
  kappa: number | null;
  kappa_ci95: [number, number] | null;
  /** Rows the judge, columns people. */
  confusion: { judge_passed_human_passed: number; judge_passed_human_failed: number; judge_failed_human_passed: number; judge_failed_human_failed: number };
  /** Trials people reviewed on this clause but were unsure about (or split evenly on). */
  unsure: number;
  /** Trials people gave a verdict on but the judge did not (inconclusive, error, not run, not applicable, absent). */
  judge_inconclusive: number;
  disagreements: Disagreement[];
}

export interface Calibration {
  clauses: ClauseCalibration[];
}

/** The report's address of a trial (its URL hash holds `trial=<id>`). */
export function trialLink(runDir: string, trialId: string): string {
  const dir = runDir.replace(/\/+$/, "");
  return `${dir ? `${dir}/` : ""}report.html#trial=${encodeURIComponent(trialId)}`;
}

/**
 * Calibrate the judge's clauses against people's verdicts, pooling the runs. A clause appears when
 * people gave any verdict on it (`semantic.*` verifier ids only: human dimensions have no judge). Pure.
 */
export function calibrate(runs: readonly CalibrationRun[]): Calibration {
  const clauses = new Map<string, { table: PairTable; unsure: number; judge_inconclusive: number; disagreements: Disagreement[] }>();
  for (const run of runs) {
    for (const trial of run.trials) {
      for (const [verifier, human] of run.verdicts.get(trial.trial_id) ?? []) {
        if (!verifier.startsWith("semantic.")) continue;
        const c = clauses.get(verifier) ?? clauses.set(verifier, { table: { pp: 0, pf: 0, fp: 0, ff: 0 }, unsure: 0, judge_inconclusive: 0, disagreements: [] }).get(verifier)!;
        if (human === "unsure") {
          c.unsure++;
          continue;
        }
        const judge = trial.assessments.find((a) => a.verifier === verifier)?.status;
        if (judge !== "passed" && judge !== "failed") {
          c.judge_inconclusive++;
          continue;
        }
        const key = `${judge === "passed" ? "p" : "f"}${human === "passed" ? "p" : "f"}` as keyof PairTable;
        c.table[key]++;
        if (judge !== human) c.disagreements.push({ run_id: run.run_id, trial_id: trial.trial_id, judge, human, link: trialLink(run.run_dir, trial.trial_id) });
      }
    }
  }
  return {
    clauses: [...clauses.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([verifier, c]) => {
        const k = cohensKappa(c.table);
        return {
          verifier,
          n: k.n,
          agreement: k.agreement,
          kappa: k.kappa,
          kappa_ci95: k.ci95,
          confusion: { judge_passed_human_passed: c.table.pp, judge_passed_human_failed: c.table.pf, judge_failed_human_passed: c.table.fp, judge_failed_human_failed: c.table.ff },
          unsure: c.unsure,
          judge_inconclusive: c.judge_inconclusive,
          disagreements: c.disagreements,
        };
      }),
  };
}
