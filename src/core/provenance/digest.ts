/** Digests behind a trial's provenance: of the package, the git state, the inputs and the settings. */

import type { Provenance } from "../record/trial-record";
import { packageRoot, repositoriesState, type GitState } from "./package-files";

export { canonicalJson, sha256 } from "./hash";
import { canonicalJson, sha256 } from "./hash";

export type { GitState } from "./package-files";

/** Git commit and dirty flag of a folder alone (a library run that names only its package folder); nulls without git. */
export function gitState(dir: string): GitState {
  return repositoriesState(dir, [], packageRoot(dir));
}

/** A target's configuration as the digest reads it: its descriptor and what its sessions start with. */
export interface TargetConfiguration {
  descriptor: { kind: string; model?: string; backend_model?: string; instructions: string; backend_instructions?: string; voice?: string; delegation?: string; endpoint?: string; settings?: unknown };
  session: { instructions: string; voice: string; delegation: string; tools: ReadonlyArray<{ name: string; description: string; parameters: unknown }> };
}

/** The parts of a target's digest, each a sha256: what `crashlab compare` names when two targets differ. */
export interface TargetParts {
  /** The voice frontend's instructions as sessions start with them, and the backend's. */
  instructions: string;
  /** Every tool declaration, in order: name, description and parameter schema, as sent. */
  tools: string;
  /** The voice model and the backend model asked for. */
  model: string;
  voice: string;
  delegation: string;
  endpoint: string;
  /** Everything else that defines the target: its kind, mode, policy, faults or variant, secondary endpoints (never a key). */
  settings: string;
}

const targetParts = new WeakMap<object, { digest: string; parts: TargetParts }>();

/**
 * The digest of everything a target sends or is configured with (docs/results.md, "Provenance"). Once per
 * adapter: every trial of a run shares its target, so the hashing is done for the first and remembered.
 */
export function targetDigest(adapter: object, configuration: () => TargetConfiguration): { digest: string; parts: TargetParts } {
  const known = targetParts.get(adapter);
  if (known) return known;
  const { descriptor: d, session: s } = configuration();
  const h = (value: unknown) => sha256(canonicalJson(value ?? null));
  const parts: TargetParts = {
    instructions: h({ frontend: s.instructions, backend: d.backend_instructions ?? null, described: d.instructions }),
    tools: h(s.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))),
    model: h({ model: d.model ?? null, backend_model: d.backend_model ?? null }),
    voice: h(s.voice),
    delegation: h(s.delegation),
    endpoint: h(d.endpoint ?? null),
    settings: h({ kind: d.kind, settings: d.settings ?? {} }),
  };
  const result = { digest: h(parts), parts };
  targetParts.set(adapter, result);
  return result;
}

export interface ProvenanceInputs {
  package_digest: string;
  crashlab_version: string;
  target: { digest: string; parts: TargetParts };
  scenario: unknown;
  /** The exact input delivered: caller audio bytes, or the text for text-level targets. */
  input: string | Uint8Array;
  seed: number;
  limits: unknown;
  git: GitState;
  models: Provenance["models"];
}

/** The per-trial provenance digest (architecture, "Identity, provenance, reproducibility"). */
export function provenanceDigest(inputs: ProvenanceInputs): Provenance {
  const parts = {
    package: inputs.package_digest,
    crashlab_version: inputs.crashlab_version,
    target: inputs.target.digest,
    scenario: sha256(canonicalJson(inputs.scenario)),
    input: sha256(inputs.input),
    seed: inputs.seed,
    limits: sha256(canonicalJson(inputs.limits)),
  };
  return {
    digest: sha256(canonicalJson(parts)),
    parts,
    target_parts: { ...inputs.target.parts },
    git: { commit: inputs.git.commit, dirty: inputs.git.dirty, repositories: (inputs.git.repositories ?? []).map((r) => ({ ...r, changed: [...r.changed] })) },
    models: inputs.models,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}
