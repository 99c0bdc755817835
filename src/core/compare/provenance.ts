/**
 * What differs between what ran in two runs: the package's files, each part of the target's digest, the
 * crashlab version, and the models the services reported — or that nothing did, so the comparison
 * measures noise (docs/compare.md). Pure: the provenance both runs recorded in, a statement out.
 */

/** What one trial's provenance says ran (a results.json row's `provenance`, reduced). */
export interface TrialProvenance {
  package: string;
  crashlab_version: string;
  target: string;
  /** Each target digest part's hash; null in records older than the field. */
  target_parts: Record<string, string> | null;
  models: { requested: { model: string | null; backend_model: string | null }; observed: { model: string[]; backend_model: string[] }; mismatches: string[] } | null;
}

/** What a run's folder says of its package: every file that ran with its hash (run.json); null when it does not say. */
export interface RunProvenance {
  package_files: ReadonlyArray<{ path: string; sha256: string }> | null;
}

export interface ProvenanceComparison {
  /** Package and target digests are the same in both runs: nothing in the target changed, so differences are noise. */
  identical: boolean;
  /** Which parts differ: `package files`, `instructions`, `tools`, `model`, `voice`, `delegation`, `endpoint`, `settings`, `crashlab version`. */
  differs: string[];
  /** Package files changed, added or removed between the runs (paths relative to the repository root). */
  package_files: { changed: string[]; added: string[]; removed: string[] } | null;
  /** Per run: the trials whose service reported another model than asked for, and what it reported. */
  observed: { base: ObservedModels; head: ObservedModels };
  /** The observed models differ between the runs (voice or backend), as sentences; empty when they agree. */
  model_changes: string[];
}

export interface ObservedModels {
  model: string[];
  backend_model: string[];
  mismatched_trials: number;
  mismatches: string[];
}

/** The runs' trials of the shared cases, enough to read their provenance. */
interface Side {
  trials: ReadonlyArray<{ provenance: TrialProvenance | null }>;
  provenance: RunProvenance;
}

function observed(side: Side): ObservedModels {
  const model = new Set<string>();
  const backend = new Set<string>();
  const mismatches = new Set<string>();
  let mismatched = 0;
  for (const t of side.trials) {
    const m = t.provenance?.models;
    if (!m) continue;
    m.observed.model.forEach((x) => model.add(x));
    m.observed.backend_model.forEach((x) => backend.add(x));
    if (m.mismatches.length > 0) mismatched++;
    m.mismatches.forEach((x) => mismatches.add(x));
  }
  return { model: [...model].sort(), backend_model: [...backend].sort(), mismatched_trials: mismatched, mismatches: [...mismatches] };
}

const distinct = (xs: ReadonlyArray<string>) => [...new Set(xs)].sort();
const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function compareProvenance(base: Side, head: Side): ProvenanceComparison {
  const of = (side: Side) => side.trials.flatMap((t) => (t.provenance ? [t.provenance] : []));
  const b = of(base);
  const h = of(head);
  const differs: string[] = [];
  const packages = { base: distinct(b.map((p) => p.package)), head: distinct(h.map((p) => p.package)) };
  if (!same(packages.base, packages.head)) differs.push("package files");
  const parts = new Set([...b, ...h].flatMap((p) => Object.keys(p.target_parts ?? {})));
  for (const part of [...parts]) {
    const values = (ps: TrialProvenance[]) => distinct(ps.map((p) => p.target_parts?.[part] ?? "unknown"));
    if (!same(values(b), values(h))) differs.push(part);
  }
  // Records without the parts still carry the target's whole digest.
  const targets = { base: distinct(b.map((p) => p.target)), head: distinct(h.map((p) => p.target)) };
  if (!same(targets.base, targets.head) && !differs.some((d) => d !== "package files")) differs.push("target");
  if (!same(distinct(b.map((p) => p.crashlab_version)), distinct(h.map((p) => p.crashlab_version)))) differs.push("crashlab version");
  let files: ProvenanceComparison["package_files"] = null;
  if (base.provenance.package_files && head.provenance.package_files) {
    const bf = new Map(base.provenance.package_files.map((f) => [f.path, f.sha256]));
    const hf = new Map(head.provenance.package_files.map((f) => [f.path, f.sha256]));
    files = {
      changed: [...hf].filter(([p, sha]) => bf.has(p) && bf.get(p) !== sha).map(([p]) => p),
      added: [...hf.keys()].filter((p) => !bf.has(p)),
      removed: [...bf.keys()].filter((p) => !hf.has(p)),
    };
  }
  const ob = observed(base);
  const oh = observed(head);
  const model_changes: string[] = [];
  if (ob.model.length && oh.model.length && !same(ob.model, oh.model)) model_changes.push(`the voice model the service reported: base ${ob.model.join(", ")}, head ${oh.model.join(", ")}`);
  if (ob.backend_model.length && oh.backend_model.length && !same(ob.backend_model, oh.backend_model))
    model_changes.push(`the backend model the service reported: base ${ob.backend_model.join(", ")}, head ${oh.backend_model.join(", ")}`);
  return { identical: b.length > 0 && h.length > 0 && differs.length === 0, differs, package_files: files, observed: { base: ob, head: oh }, model_changes };
}
