/** What a trial is run from: a case (scenario, world, input kind, tools, limits) and the trial's id, repetition and seed. */

import type { Scenario } from "../dataset/schema";
import type { Limits } from "../record/trial-record";
import type { Json, WorldDefinition } from "../world/types";

/** What a trial is run from: its case (built into the plan) and its own identity, repetition and seed. */

/** A case binds one scenario to its world, input kind, authorized tools and limits (architecture, "The model"). */
export interface CaseDefinition {
  id: string;
  kind: "crawl" | "walk" | "run";
  scenario: Scenario;
  /** The dataset file the scenario came from (for error messages and provenance). */
  dataset_file: string;
  world: WorldDefinition;
  /** World operations the target may call as tools; default: all of them. */
  tools?: string[];
  /** WALK: the recording replayed as the caller (validated when the case was built). */
  recording?: CaseRecording;
  limits?: Partial<Limits>;
  tags: string[];
}

export interface CaseRecording {
  id: string;
  /** Absolute path of the WAV file (where it is read from on this machine). */
  path: string;
  /** The path as the dataset declares it, relative to the dataset file: what records say, so results move between machines. */
  declared_path: string;
  condition: string;
  metadata: Record<string, Json>;
}

/** A trial: one execution of one case. Its id and seed are fixed when the plan is built. */
export interface TrialSpec {
  trial_id: string;
  case: CaseDefinition;
  repetition: number;
  seed: number;
}
