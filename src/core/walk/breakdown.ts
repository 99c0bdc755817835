/**
 * Reading WALK results by recording: pass rates per acoustic condition (rates with a 95% Wilson
 * interval) and `--where key=value` filters over recording metadata.
 */
import { wilsonInterval, type Interval } from "../stats/rates";
import { CONDITION_PRESETS } from "./conditions";
import { UserError } from "../user-error";

export interface ConditionRate {
  condition: string;
  trials: number;
  passes: number;
  /** passes / trials; null without trials. Infrastructure errors count as trials that did not pass (docs/results.md). */
  pass_rate: number | null;
  wilson_95: Interval | null;
  /** Reported beside the rate, never dropped (docs/gates.md). */
  infrastructure_errors: number;
}

/** Per-condition pass rates, in preset order (clean, noisy, …), then any other condition alphabetically. */
export function conditionBreakdown(rows: ReadonlyArray<{ condition: string; status: string }>): ConditionRate[] {
  const groups = new Map<string, { trials: number; passes: number; infrastructure_errors: number }>();
  for (const row of rows) {
    const group = groups.get(row.condition) ?? { trials: 0, passes: 0, infrastructure_errors: 0 };
    group.trials++;
    if (row.status === "passed") group.passes++;
    if (row.status === "infrastructure_error") group.infrastructure_errors++;
    groups.set(row.condition, group);
  }
  const rank = (condition: string) => {
    const i = (CONDITION_PRESETS as readonly string[]).indexOf(condition);
    return i < 0 ? CONDITION_PRESETS.length : i;
  };
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([condition, g]) => ({
      condition,
      trials: g.trials,
      passes: g.passes,
      pass_rate: g.trials === 0 ? null : g.passes / g.trials,
      wilson_95: wilsonInterval(g.passes, g.trials),
      infrastructure_errors: g.infrastructure_errors,
    }));
}

/** A `--where` filter that cannot be read. */
export class WhereError extends UserError {
  override readonly name = "WhereError";
}

export interface WhereFilter {
  key: string;
  value: string;
}

/** `accent=scottish` → {key: "accent", value: "scottish"}; the key may be a dotted path into nested metadata. */
export function parseWhere(expression: string): WhereFilter {
  const at = expression.indexOf("=");
  const key = at < 0 ? "" : expression.slice(0, at).trim();
  const value = at < 0 ? "" : expression.slice(at + 1).trim();
  if (at < 0 || key === "" || value === "") {
    throw new WhereError(`--where takes key=value (for example accent=scottish or microphone=headset), got "${expression}"`);
  }
  return { key, value };
}

/**
 * Whether recording metadata matches `key=value`: the key exactly (or as a dotted path), the value
 * compared case-insensitively with the metadata value as text; an array matches when any element does.
 */
export function matchesWhere(metadata: Record<string, unknown> | undefined, where: string | WhereFilter): boolean {
  const { key, value } = typeof where === "string" ? parseWhere(where) : where;
  if (!metadata) return false;
  const found = key in metadata ? metadata[key] : lookupPath(metadata, key.split("."));
  const wanted = value.toLowerCase();
  const matches = (v: unknown): boolean => {
    if (Array.isArray(v)) return v.some(matches);
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return String(v).toLowerCase() === wanted;
    return false;
  };
  return matches(found);
}

function lookupPath(value: unknown, path: string[]): unknown {
  let at = value;
  for (const part of path) {
    if (!at || typeof at !== "object" || Array.isArray(at) || !(part in at)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}
