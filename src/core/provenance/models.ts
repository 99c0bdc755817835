/**
 * Observed provenance: the models a trial asked for beside the ones the service reported serving (in its
 * session start and its backend responses), and where they differ (docs/results.md, "Provenance").
 */

/** The events this reads, structurally: a session start and backend responses, as the target reported them. */
export type ModelEvent =
  | { type: "session.started"; model?: string; backend_model?: string; served_by?: string }
  | { type: "backend.response"; model?: string }
  | { type: string };

export interface ModelProvenance {
  requested: { model: string | null; backend_model: string | null; endpoint: string | null };
  /** Distinct values in the order they were first reported; empty when the service reported none. */
  observed: { model: string[]; backend_model: string[]; served_by: string[] };
  /** One sentence per difference between what was asked for and what was reported; empty when none. */
  mismatches: string[];
}

/**
 * Whether a reported model is the one asked for: the same name, or a dated snapshot of it (asked for
 * `gpt-5.1`, served `gpt-5.1-2025-11-13`): services report the snapshot an alias resolved to.
 */
export function sameModel(requested: string, reported: string): boolean {
  return reported === requested || (reported.startsWith(`${requested}-`) && /^\d/.test(reported.slice(requested.length + 1)));
}

export function modelProvenance(requested: { model?: string | undefined; backend_model?: string | undefined; endpoint?: string | undefined }, events: readonly ModelEvent[]): ModelProvenance {
  const observed = { model: new Set<string>(), backend_model: new Set<string>(), served_by: new Set<string>() };
  for (const e of events) {
    if (e.type === "session.started") {
      const s = e as Extract<ModelEvent, { type: "session.started" }>;
      if (typeof s.model === "string") observed.model.add(s.model);
      if (typeof s.backend_model === "string") observed.backend_model.add(s.backend_model);
      if (typeof s.served_by === "string") observed.served_by.add(s.served_by);
    } else if (e.type === "backend.response") {
      const r = e as Extract<ModelEvent, { type: "backend.response" }>;
      if (typeof r.model === "string") observed.backend_model.add(r.model);
    }
  }
  const asked = { model: requested.model ?? null, backend_model: requested.backend_model ?? null, endpoint: requested.endpoint ?? null };
  const mismatches: string[] = [];
  for (const [key, label] of [["model", "model"], ["backend_model", "backend model"]] as const) {
    const want = asked[key];
    const other = [...observed[key]].filter((m) => want !== null && !sameModel(want, m));
    if (want !== null && other.length > 0) mismatches.push(`${label}: asked for ${want}, the service reported ${other.join(", ")}`);
  }
  return { requested: asked, observed: { model: [...observed.model], backend_model: [...observed.backend_model], served_by: [...observed.served_by] }, mismatches };
}
