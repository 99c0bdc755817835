/** Reading and validating a dataset file, every problem named by file, scenario and field. */

import { fileURLToPath } from "node:url";
import { z } from "zod";
import { formatBytes, InputFileError, readInputFile } from "./input-file";
import { estimateTokens } from "../language/tokens";
import { parseJsonText } from "./json-text";
import { Dataset, type Scenario } from "./schema";
import { UserError } from "../user-error";

/** The largest dataset file read (checked before reading): far above any real dataset, far below trouble. */
export const MAX_DATASET_BYTES = 32 * 1024 * 1024;

/** One fault in a dataset, located precisely. */
export interface DatasetProblem {
  /** JSON path, e.g. `scenarios[2].expected.tools.required[0].name`. */
  path: string;
  scenario_id?: string;
  message: string;
}

/** A user-causable dataset fault: names the file, the scenario and the field, and how to fix it. */
export class DatasetError extends UserError {
  constructor(
    readonly file: string,
    readonly problems: DatasetProblem[],
    readonly hint = "Fix the field(s) named above; `crashlab validate <dataset>` re-checks the file.",
  ) {
    super(formatProblems(file, problems, hint));
    this.name = "DatasetError";
  }
}

function formatProblems(file: string, problems: DatasetProblem[], hint: string): string {
  const shown = problems.slice(0, 8).map((p) => {
    if (p.scenario_id) return `scenario "${p.scenario_id}", field ${p.path}: ${p.message}`;
    return p.path ? `field ${p.path}: ${p.message}` : p.message;
  });
  const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : "";
  return `Invalid dataset ${file}: ${shown.join("; ")}${more}. ${hint}`;
}

/** `a.b[2].c` from a zod issue path. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function scenarioIdAt(raw: unknown, path: ReadonlyArray<PropertyKey>): string | undefined {
  if (path[0] !== "scenarios" || typeof path[1] !== "number") return undefined;
  const scenarios = (raw as { scenarios?: unknown })?.scenarios;
  if (!Array.isArray(scenarios)) return undefined;
  const id = (scenarios[path[1]] as { id?: unknown } | undefined)?.id;
  return typeof id === "string" ? id : `#${path[1]}`;
}

function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  if (issue.code === "unrecognized_keys") return `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(", ")} (remove or rename)`;
  if (issue.code !== "invalid_type" && issue.code !== "invalid_value") return issue.message;
  // zod does not say whether the value was absent or of another type: look at what the file holds.
  const found = valueAt(raw, issue.path);
  const expected = issue.code === "invalid_type" ? issue.expected : issue.values.map((v) => JSON.stringify(v)).join(" or ");
  if (!found.present) return `missing (expected ${expected})`;
  if (issue.code === "invalid_type") return `wrong type: expected ${expected}, got ${jsonType(found.value)}`;
  return `expected ${expected}, got ${jsonType(found.value)}`;
}

function valueAt(raw: unknown, path: ReadonlyArray<PropertyKey>): { present: boolean; value?: unknown } {
  let at = raw;
  for (const key of path) {
    if (at === null || typeof at !== "object" || !Object.hasOwn(at, key)) return { present: false };
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return { present: at !== undefined, value: at };
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `a string (${JSON.stringify(value.length > 30 ? `${value.slice(0, 30)}…` : value)})`;
  // A literal such as 1e999 parses to Infinity: say why a number is not a number here.
  if (typeof value === "number" && !Number.isFinite(value)) return `a number too large to hold (${String(value)}; write a finite number)`;
  return `a ${typeof value} (${String(value)})`;
}

/** The rules of docs/datasets.md that a schema cannot express alone. */
function crossFieldProblems(dataset: Dataset): DatasetProblem[] {
  const problems: DatasetProblem[] = [];
  const seen = new Map<string, number>();
  dataset.scenarios.forEach((s, i) => {
    const at = (p: string) => `scenarios[${i}]${p}`;
    const add = (p: string, message: string) => problems.push({ path: at(p), scenario_id: s.id, message });
    const key = s.id.toLowerCase();
    if (seen.has(key)) add(".id", `duplicate id (ids are unique case-insensitively; also used by scenarios[${seen.get(key)}])`);
    else seen.set(key, i);

    const { expected } = s;
    if (expected.delegation === "forbidden" && expected.tools.required.length > 0)
      add(".expected.delegation", "a scenario cannot forbid delegation and require a tool");

    if (s.interaction === "single_turn") {
      if (s.simulation_parameters) add(".simulation_parameters", "single-turn scenarios have no simulation_parameters");
      if (expected.procedure) add(".expected.procedure", "single-turn scenarios have no procedure");
    } else {
      if (!s.simulation_parameters) add(".simulation_parameters", "multi-turn scenarios need simulation_parameters");
      if (s.input.recordings?.length) add(".input.recordings", "multi-turn scenarios have no recordings");
      const substantive = s.simulation_parameters?.agenda.filter((a) => a.required && a.action !== "backchannel" && a.action !== "wait") ?? [];
      if (s.simulation_parameters && substantive.length < 2)
        add(".simulation_parameters.agenda", "multi-turn scenarios need at least two substantive required agenda objectives");
      if ((expected.golden_path?.turns ?? 0) < 7) add(".expected.golden_path.turns", "multi-turn scenarios need golden_path.turns >= 7");
      s.simulation_parameters?.agenda.forEach((a, j) => {
        const earlier = new Set(s.simulation_parameters!.agenda.slice(0, j).map((x) => x.id));
        a.after.forEach((dep, k) => {
          if (!earlier.has(dep)) add(`.simulation_parameters.agenda[${j}].after[${k}]`, `"${dep}" is not an earlier agenda item`);
        });
      });
    }

    const history = s.input.context?.history ?? [];
    const tokens = history.reduce((n, m) => n + estimateTokens(`${m.role}: ${m.text}`), 0);
    if (tokens > 8192) add(".input.context.history", `history is about ${tokens} tokens; at most 8,192 are allowed`);

    const recordingIds = new Set<string>();
    s.input.recordings?.forEach((r, j) => {
      const k = r.id.toLowerCase();
      if (recordingIds.has(k)) add(`.input.recordings[${j}].id`, "duplicate recording id within the scenario");
      recordingIds.add(k);
    });

    expected.procedure?.steps.forEach((step, j) => {
      const earlier = new Set(expected.procedure!.steps.slice(0, j).map((x) => x.id));
      step.after.forEach((dep, k) => {
        if (!earlier.has(dep)) add(`.expected.procedure.steps[${j}].after[${k}]`, `"${dep}" is not an earlier step`);
      });
      if (step.kind === "tool" && !step.tool) add(`.expected.procedure.steps[${j}].tool`, "a tool step names its tool");
      const args = step.arguments ?? {};
      const named = (key: string) => typeof args[key] === "string" && (args[key] as string).trim() !== "";
      if (step.kind === "clarification" && !named("field"))
        add(`.expected.procedure.steps[${j}].arguments.field`, 'a clarification step names the detail the assistant must ask for, e.g. "arguments": {"field": "party_size"}');
      if (step.kind === "correction" && (!named("field") || !("value" in args)))
        add(`.expected.procedure.steps[${j}].arguments`, 'a correction step names the corrected field and its new value, e.g. "arguments": {"field": "date", "value": "2026-08-08"}');
      if (step.kind === "state" && Object.keys(args).length === 0)
        add(`.expected.procedure.steps[${j}].arguments`, 'a state step lists the fields the final state must hold, e.g. "arguments": {"reservation_count": 1}');
    });
  });
  return problems;
}

/** Validate parsed JSON as a dataset (docs/datasets.md). Throws DatasetError with every problem found. */
export function parseDataset(raw: unknown, file: string): Dataset {
  const parsed = Dataset.safeParse(raw);
  if (!parsed.success) {
    throw new DatasetError(
      file,
      parsed.error.issues.map((issue) => ({
        path: formatPath(issue.path),
        scenario_id: scenarioIdAt(raw, issue.path),
        message: describeIssue(issue, raw),
      })),
    );
  }
  const problems = crossFieldProblems(parsed.data);
  if (problems.length > 0) throw new DatasetError(file, problems);
  return parsed.data;
}

export interface LoadedDataset {
  file: string;
  dataset: Dataset;
}

/**
 * Read and validate a dataset file (synchronously, so an evaluation package can build its PLAN at import
 * time). Every failure is a DatasetError naming the file. Accepts a path or a `file:` URL
 * (`new URL("./data/crawl.json", import.meta.url)`).
 */
export function loadDataset(location: string | URL): LoadedDataset {
  const file = location instanceof URL ? fileURLToPath(location) : location;
  return { file, dataset: parseDataset(readDatasetJson(file), file) };
}

/**
 * A dataset file's JSON, before schema validation: a regular file of at most MAX_DATASET_BYTES, UTF-8
 * (a byte-order mark is skipped), valid JSON, nested at most MAX_JSON_DEPTH levels, without duplicate
 * keys or keys like `__proto__`. Every failure is a DatasetError naming the file and, where it applies,
 * the scenario and field.
 */
export function readDatasetJson(file: string): unknown {
  let bytes: Uint8Array;
  try {
    bytes = readInputFile(file, MAX_DATASET_BYTES);
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    const hint =
      error.problem === "too_large" ? `Datasets may be at most ${formatBytes(MAX_DATASET_BYTES)}; split it into several files.`
      : error.problem === "not_a_file" ? "Point at the dataset's JSON file."
      : "Check the path.";
    throw new DatasetError(file, [{ path: "", message: error.problem === "missing" ? "file not found" : error.detail }], hint);
  }
  const parsed = parseJsonText(bytes);
  if (parsed.ok) return parsed.value;
  const root = parsed.problems.some((p) => p.path.length === 0);
  const raw = root ? undefined : safeParse(bytes);
  throw new DatasetError(
    file,
    parsed.problems.map((p) => ({ path: formatPath(p.path.length > 12 ? [...p.path.slice(0, 10), `…${p.path.length - 10} more levels`] : p.path), scenario_id: scenarioIdAt(raw, p.path), message: p.message })),
    root ? "Fix the file (JSON, UTF-8); `crashlab validate <dataset>` re-checks it." : "Fix the field(s) named above; `crashlab validate <dataset>` re-checks the file.",
  );
}

/** The parsed value for naming scenarios in a structural problem (JSON.parse itself never nests on the stack). */
function safeParse(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

export function findScenario(dataset: Dataset, id: string): Scenario | undefined {
  return dataset.scenarios.find((s) => s.id.toLowerCase() === id.toLowerCase());
}
