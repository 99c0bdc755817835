/**
 * A PLAN's `defaults`: run settings by their own names (any setting a PLAN may set), plus the nested
 * `services` form (`services.live.endpoint`, …) that names the same settings by service. Checked once, by
 * `definePlan`, each fault named with the value found; read as one source of the resolution.
 */
import type { Setting, SettingValue } from "./field";
import { describeValue, layerOf, problemWith, type Layer } from "./resolve";
import { settingEntries, settingOf, type RunSettings, type SETTINGS } from "./schema";

/** One service's place in a PLAN's `defaults.services`: where it is and which variable holds its key. */
export interface ServiceDefault {
  endpoint?: string;
  api_key_env?: string;
}

/** `PLAN.defaults.services`: the service settings by service. Keys are named, never written. */
export interface ServicesDefaults {
  live?: ServiceDefault;
  responses?: ServiceDefault;
  speech?: ServiceDefault & { provider?: "espeak" | "openai" | "cache" };
  judge?: ServiceDefault;
  caller?: ServiceDefault;
  completion?: ServiceDefault;
  /** Every custom endpoint is Azure OpenAI: keys go in the `api-key` header, `?api-version=` is allowed. */
  azure?: boolean;
}

/** The settings of one invocation (`plan: false` in schema.ts: package, data, live, …), which a PLAN cannot set. */
type InvocationSetting = { [K in keyof typeof SETTINGS]: (typeof SETTINGS)[K] extends { plan: false } ? K : never }[keyof typeof SETTINGS];

/** Run settings a PLAN may carry as its own defaults (every setting but those of one invocation); flags, the environment and crashlab.toml override them. */
export type RunDefaults = Partial<Omit<RunSettings, InvocationSetting>> & {
  /** The service settings by service (`services.live.endpoint` is `endpoint`): the older form, still read. */
  services?: ServicesDefaults;
};

const planned = (setting: Setting) => setting.plan !== false;

/** Each nested name (`services.live.endpoint`) and the setting it is. */
function aliases(): Map<string, string> {
  return new Map(settingEntries().flatMap(([key, s]) => (s.plan_alias && planned(s) ? [[s.plan_alias, key] as const] : [])));
}

/** Every fault of a PLAN's `defaults`, each naming the setting (`PLAN.defaults.seed`) and the value found. */
export function planDefaultsProblems(defaults: unknown): string[] {
  if (defaults === undefined) return [];
  if (typeof defaults !== "object" || defaults === null || Array.isArray(defaults)) return [`PLAN.defaults: expected an object (got ${describeValue(defaults)})`];
  const problems: string[] = [];
  const given = defaults as Record<string, unknown>;
  const unknown = Object.keys(given).filter((k) => k !== "services" && !(settingOf(k) && planned(settingOf(k)!)));
  if (unknown.length > 0)
    problems.push(`PLAN.defaults: unknown setting(s) ${unknown.map((k) => `"${k}"`).join(", ")} (known: ${settingEntries().filter(([, s]) => planned(s)).map(([k]) => k).join(", ")}, services)`);
  for (const [key, value] of Object.entries(given)) {
    const setting = settingOf(key);
    if (key === "services" || value === undefined || !setting || !planned(setting)) continue;
    const problem = problemWith(setting, value);
    if (problem) problems.push(`PLAN.defaults.${key}: ${problem} (got ${describeValue(value)})`);
  }
  if (given.services !== undefined) problems.push(...nestedProblems("services", given.services, aliases()));
  for (const [alias, key] of aliases()) if (nestedValue(given, alias) !== undefined && given[key] !== undefined) problems.push(`PLAN.defaults: ${key} and ${alias} are the same setting; give it once`);
  return problems;
}

/** The faults of one level of the nested form, `path` deep. */
function nestedProblems(path: string, value: unknown, names: Map<string, string>): string[] {
  const where = `PLAN.defaults.${path}`;
  const leaf = names.get(path);
  if (leaf !== undefined) {
    const problem = problemWith(settingOf(leaf)!, value);
    return problem ? [`${where}: ${problem} (got ${describeValue(value)})`] : [];
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${where}: expected an object (got ${describeValue(value)})`];
  const children = new Set([...names.keys()].filter((n) => n.startsWith(`${path}.`)).map((n) => n.slice(path.length + 1).split(".")[0]!));
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  const unknown = entries.filter(([k]) => !children.has(k)).map(([k]) => k);
  return [
    ...(unknown.length > 0 ? [`${where}: unknown setting(s) ${unknown.map((k) => `"${k}"`).join(", ")} (known: ${[...children].join(", ")})`] : []),
    ...entries.filter(([k]) => children.has(k)).flatMap(([k, v]) => nestedProblems(`${path}.${k}`, v, names)),
  ];
}

function nestedValue(root: Record<string, unknown>, path: string): unknown {
  return path.split(".").reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), root);
}

/** The PLAN's defaults as a source of the resolution (checked by definePlan already). */
export function planLayer(defaults: RunDefaults | undefined): Layer {
  const values: Record<string, SettingValue | undefined> = {};
  const labels: Record<string, string> = {};
  const given = (defaults ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(given)) {
    if (key === "services" || value === undefined) continue;
    values[key] = value as SettingValue;
    labels[key] = `PLAN defaults.${key}`;
  }
  for (const [alias, key] of aliases()) {
    const value = nestedValue(given, alias);
    if (value === undefined) continue;
    values[key] = value as SettingValue;
    labels[key] = `PLAN defaults.${alias}`;
  }
  return layerOf("plan", values, (k) => labels[k]!);
}
