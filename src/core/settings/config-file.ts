/**
 * crashlab.toml: run settings in TOML sections (`[dataset]`, `[execution]`, `[audio]`, `[assistant]`, and
 * crashlab's own), read with smol-toml and checked against the same settings as every other source. A
 * fault — not TOML, an unknown section or key, a wrong type, a value out of range — names the file, the
 * line and the key with what is accepted; nothing is run or written. docs/configuration.md lists the keys.
 */
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { parse, TomlError } from "smol-toml";
import { SettingsError } from "./errors";
import type { Setting, SettingValue } from "./field";
import { describeValue, layerOf, problemWith, type Layer } from "./resolve";
import { settingEntries } from "./schema";
import { readSettingsFile } from "./settings-file";

export const CONFIG_FILE = "crashlab.toml";

/**
 * Where crashlab.toml and .env are looked for by default, "beside the package": the folder that holds
 * `crashlab/` for a package at `crashlab/evaluations.ts` (where `.audio_cache/` goes too), else the folder
 * of the evaluations file itself.
 */
export function projectDir(packageFile: string): string {
  const dir = dirname(packageFile);
  return basename(dir) === "crashlab" ? dirname(dir) : dir;
}

/** Every crashlab.toml key (`audio.chunk_ms`) and the setting it is. */
export function configKeys(): Map<string, [string, Setting]> {
  return new Map(settingEntries().flatMap(([key, s]) => (s.config ? [[s.config, [key, s]] as const] : [])));
}

export interface ConfigFile {
  /** The file as messages name it. */
  shown: string;
  layer: Layer;
}

/**
 * Read and check a config file. `shown` is how messages name it. Relative paths in it (`[dataset] path`)
 * are relative to its folder. An empty string leaves a setting unset (TOML has no null).
 */
export function readConfigFile(file: string, shown: string): ConfigFile {
  const source = readSettingsFile(file, shown, "config file", `give --config the path of a TOML file such as ${CONFIG_FILE} (docs/configuration.md)`);
  let document: Record<string, unknown>;
  try {
    document = parse(source) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const first = error.message.split("\n")[0]!.replace(/^Invalid TOML document:\s*/, "");
    throw new SettingsError(`${shown} line ${error.line}, column ${error.column}: not valid TOML (${first}); fix that line (docs/configuration.md shows the format)`);
  }
  const keys = configKeys();
  const sections = new Set([...keys.keys()].map((k) => k.split(".")[0]!));
  const problems: string[] = [];
  const values: Record<string, SettingValue> = {};
  const labels: Record<string, string> = {};
  const at = (section: string, key?: string) => `${shown} line ${lineOf(source, section, key)}`;
  for (const [section, table] of Object.entries(document)) {
    if (!sections.has(section)) {
      problems.push(
        typeof table === "object" && table !== null && !Array.isArray(table)
          ? `${at(section)}: unknown section [${section}] (sections: ${[...sections].map((s) => `[${s}]`).join(", ")})`
          : `${at(section, section)}: ${section} is outside any section; settings go in a section (${[...sections].map((s) => `[${s}]`).join(", ")})`,
      );
      continue;
    }
    if (typeof table !== "object" || table === null || Array.isArray(table) || table instanceof Date) {
      problems.push(`${at(section, section)}: ${section} must be a section ([${section}]), got ${describeValue(table)}`);
      continue;
    }
    const known = [...keys.keys()].filter((k) => k.startsWith(`${section}.`)).map((k) => k.slice(section.length + 1));
    for (const [name, raw] of Object.entries(table as Record<string, unknown>)) {
      const entry = keys.get(`${section}.${name}`);
      const where = `${at(section, name)}: [${section}] ${name}`;
      if (!entry) {
        const near = closest(name, known);
        problems.push(`${where} is not a setting${near ? ` (did you mean ${near}?)` : ""} (the keys of [${section}]: ${known.join(", ")})`);
        continue;
      }
      const [key, setting] = entry;
      const value = normalize(setting, raw, file);
      if (value === undefined) continue;
      const problem = problemWith(setting, value);
      if (problem) problems.push(`${where} takes ${setting.expected} (got ${describeValue(raw)})`);
      else {
        values[key] = value as SettingValue;
        labels[key] = `${shown} line ${lineOf(source, section, name)} ([${section}] ${name})`;
      }
    }
  }
  if (problems.length > 0) throw new SettingsError(`${problems.join("; ")}. Fix ${shown} (docs/configuration.md lists every key and what it takes); nothing was run`);
  return { shown, layer: layerOf("config", values, (k) => labels[k]!) };
}

/** A value as the setting takes it: an empty string is unset, one name is a list of one, a path is the file's. */
function normalize(setting: Setting, raw: unknown, file: string): unknown {
  const here = (p: unknown) => (setting.path && typeof p === "string" && p.trim() !== "" && !isAbsolute(p) ? resolve(dirname(file), p) : p);
  if (raw === "") return undefined;
  if (setting.kind === "list") return (Array.isArray(raw) ? raw : [raw]).map(here);
  return here(raw);
}

/** The known name one or two edits away from `name`, when exactly one is: a typo's likely meaning. */
function closest(name: string, known: readonly string[]): string | null {
  const distance = (a: string, b: string) => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row = next;
    }
    return row[b.length]!;
  };
  const near = known.filter((k) => distance(name, k) <= 2);
  return near.length === 1 ? near[0]! : null;
}

/**
 * The line a key is written on (or its section's header), for messages: the parser gives values, not
 * places. A key may also be written dotted (`audio.chunk_ms = 20`) or in an inline table before any header.
 */
function lineOf(source: string, section: string, key?: string): number {
  const lines = source.split(/\r?\n/);
  const quoted = (name: string) => `(?:${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}|"${name}"|'${name}')`;
  let current: string | null = null;
  let header = 0;
  for (const [i, line] of lines.entries()) {
    const t = line.trim();
    const table = /^\[\s*([^\][]+?)\s*\]/.exec(t);
    if (table && !t.startsWith("[[")) {
      current = table[1]!.replace(/^["']|["']$/g, "");
      if (key !== undefined && current.replace(/\s*\.\s*/g, ".") === `${section}.${key}`) return i + 1;
      if (current === section && header === 0) header = i + 1;
      continue;
    }
    if (current === section && key !== undefined && new RegExp(`^${quoted(key)}\\s*=`).test(t)) return i + 1;
    if (current === null && new RegExp(`^${quoted(section)}(\\s*=|\\s*\\.\\s*${key === undefined ? "" : quoted(key)})`).test(t)) return i + 1;
  }
  return header || 1;
}
