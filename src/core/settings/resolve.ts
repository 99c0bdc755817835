/**
 * One resolution for every run setting, in one place: each setting takes the value of the highest source
 * that gives it — in code (the library's `run()`), a command-line flag, the environment, crashlab.toml,
 * the PLAN's `defaults` — else its built-in default; each with where it came from (`--explain-settings`).
 */
import { SettingsError } from "./errors";
import { flagOf, type Setting, type SettingValue } from "./field";
import { settingEntries, settingOf, type RunSettings } from "./schema";

export type SourceKind = "code" | "flag" | "stored" | "env" | "config" | "plan" | "default";

/** Where a value came from, as the user wrote it: `--chunk-ms`, `OPENAI_LIVE_MODEL`, `crashlab.toml line 12 ([audio] chunk_ms)`. */
export interface Source {
  kind: SourceKind;
  label: string;
}

/** The values one source gives (each already checked against its setting), with how each was written. */
export interface Layer {
  kind: Exclude<SourceKind, "default">;
  values: ReadonlyMap<string, { value: SettingValue; label: string }>;
}

export interface Resolution {
  settings: RunSettings;
  sources: Readonly<Record<string, Source>>;
}

/** How a setting is named when no source gave it: its flag, else its config key, else its name. */
export function displayName(key: string): string {
  const setting = settingOf(key);
  if (!setting) return key;
  const flag = flagOf(key, setting) ?? setting.negation;
  if (flag) return `--${flag}`;
  return setting.config ? `[${setting.config.split(".")[0]}] ${setting.config.split(".")[1]}` : key;
}

/**
 * Resolve every setting from `layers`, highest first. The settings of one group (an endpoint and the
 * variable naming its key) come together from the highest layer that gives any of them, so a key named
 * in one place never goes to an endpoint named in another. A computed default reads the other settings.
 */
export function resolveSettings(layers: readonly Layer[]): Resolution {
  const entries = settingEntries();
  const declared = new Map(entries);
  const values: Record<string, SettingValue | undefined> = {};
  const sources: Record<string, Source> = {};
  const computing = new Set<string>();
  const groupLayers = new Map<string, Layer | null>();
  const groupLayer = (group: string) => {
    if (!groupLayers.has(group)) groupLayers.set(group, layers.find((l) => entries.some(([k, s]) => s.group === group && l.values.has(k))) ?? null);
    return groupLayers.get(group)!;
  };
  const resolveOne = (key: string, setting: Setting): void => {
    if (key in sources) return;
    const candidates = setting.group ? [groupLayer(setting.group)].filter((l): l is Layer => l !== null) : layers;
    for (const layer of candidates) {
      const given = layer.values.get(key);
      if (!given) continue;
      values[key] = given.value;
      sources[key] = { kind: layer.kind, label: given.label };
      return;
    }
    const d = setting.default;
    if (typeof d === "function") {
      computing.add(key);
      values[key] = d(get);
      computing.delete(key);
    } else values[key] = d;
    sources[key] = { kind: "default", label: displayName(key) };
  };
  const get = (key: string): SettingValue | undefined => {
    const setting = declared.get(key);
    if (!setting || computing.has(key)) return undefined;
    resolveOne(key, setting);
    return values[key];
  };
  for (const [key, setting] of entries) resolveOne(key, setting);
  const settings = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as unknown as RunSettings;
  return { settings, sources };
}

/** A layer from values already checked, all written the same way (`label(key)`). */
export function layerOf(kind: Layer["kind"], values: Readonly<Record<string, SettingValue | undefined>>, label: (key: string) => string): Layer {
  return { kind, values: new Map(Object.entries(values).flatMap(([k, v]) => (v === undefined ? [] : [[k, { value: v, label: label(k) }] as const]))) };
}

/**
 * A layer from settings given as an object (in code, or stored in run.json): every key must be a setting
 * and every value right for it; a fault names `where` and the key, with the value found. `only` limits the
 * keys this source may give (a PLAN's `defaults` cannot set every setting).
 */
export function checkedLayer(kind: Layer["kind"], given: Readonly<Record<string, unknown>>, where: string, fix: string, only?: (key: string, setting: Setting) => boolean): Layer {
  const problems: string[] = [];
  const values: Record<string, SettingValue> = {};
  const unknown = Object.keys(given).filter((k) => given[k] !== undefined && !settingOf(k));
  if (unknown.length > 0) problems.push(`${where}: unknown setting(s) ${unknown.map((k) => `"${k}"`).join(", ")} (docs/configuration.md lists every setting)`);
  for (const [key, value] of Object.entries(given)) {
    const setting = settingOf(key);
    if (value === undefined || !setting) continue;
    if (only && !only(key, setting)) problems.push(`${where}.${key}: cannot be set here`);
    else {
      const problem = problemWith(setting, value);
      if (problem) problems.push(`${where}.${key}: ${problem} (got ${describeValue(value)})`);
      else values[key] = value as SettingValue;
    }
  }
  if (problems.length > 0) throw new SettingsError(`${problems.join("; ")}. ${fix}`);
  return layerOf(kind, values, (k) => `${where}.${k}`);
}

/** What is wrong with `value` for a setting, as the setting's expected text; null when it is fine. */
export function problemWith(setting: Setting, value: unknown): string | null {
  const parsed = setting.schema.safeParse(value);
  return parsed.success ? null : `expected ${setting.expected}`;
}

/** How a value found in a file or object is shown in a message. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) return String(value);
  if (typeof value === "bigint") return `${value}`;
  return Array.isArray(value) ? "an array" : value instanceof Date ? "a date" : typeof value === "object" ? "an object" : typeof value;
}
