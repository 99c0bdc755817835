/**
 * The environment a run reads: the shell, and an env file (`--env-file`, or `.env` beside the package
 * when there is one), read with Node's own `util.parseEnv`. A file may set only the documented variables:
 * the settings' variables (models, endpoints), the credentials (OPENAI_API_KEY) and the variables a
 * `*_api_key_env` setting names; the shell wins over the file; anything else in it is left alone and said.
 * A key is a credential, never a setting: one in the file alone never makes a run live.
 */
import { parseEnv } from "node:util";
import { SettingsError } from "./errors";
import { readText, type SettingValue } from "./field";
import { layerOf, type Layer } from "./resolve";
import { CREDENTIALS, settingEntries, type RunSettings } from "./schema";
import { readSettingsFile } from "./settings-file";

export const ENV_FILE = ".env";

export type Env = Readonly<Record<string, string | undefined>>;

export interface EnvFile {
  shown: string;
  values: Readonly<Record<string, string>>;
}

/** Read an env file (`shown` is how messages name it). */
export function readEnvFile(file: string, shown: string): EnvFile {
  const text = readSettingsFile(file, shown, "env file", "give --env-file the path of a file of NAME=value lines (docs/configuration.md)");
  return { shown, values: parseEnv(text) as Record<string, string> };
}

/** The variables that set a setting, and which setting each sets. */
export function settingVariables(): Map<string, string> {
  return new Map(settingEntries().flatMap(([key, s]) => (s.env ? [[s.env, key] as const] : [])));
}

/** A variable's value and where it came from: the shell wins over the file; an empty value is unset. */
function lookup(name: string, shell: Env, file: EnvFile | null): { value: string; from: "shell" | "file" } | null {
  const own = shell[name];
  if (own !== undefined && own.trim() !== "") return { value: own, from: "shell" };
  const filed = file?.values[name];
  if (filed !== undefined && filed.trim() !== "") return { value: filed, from: "file" };
  return null;
}

/** The environment as a source of settings: each setting's variable, from the shell or the file. */
export function envLayer(shell: Env, file: EnvFile | null): Layer {
  const values: Record<string, SettingValue> = {};
  const labels: Record<string, string> = {};
  const problems: string[] = [];
  for (const [name, key] of settingVariables()) {
    const found = lookup(name, shell, file);
    if (!found) continue;
    const setting = settingEntries().find(([k]) => k === key)![1];
    const where = found.from === "shell" ? `${name} (environment)` : `${name} (${file!.shown})`;
    const value = readText(setting, found.value);
    if (value === undefined) problems.push(`${where} takes ${setting.expected} (got "${found.value}")`);
    else {
      values[key] = value;
      labels[key] = where;
    }
  }
  if (problems.length > 0) throw new SettingsError(`${problems.join("; ")}; fix or unset ${problems.length === 1 ? "it" : "them"} (docs/configuration.md lists the variables)`);
  return layerOf("env", values, (k) => labels[k]!);
}

/** The credential variables a run with these settings reads: OPENAI_API_KEY and every one a `*_api_key_env` setting names. */
export function credentialNames(settings: RunSettings): string[] {
  const named = settingEntries()
    .filter(([key]) => key.endsWith("_api_key_env"))
    .map(([key]) => (settings as Record<string, unknown>)[key])
    .filter((v): v is string => typeof v === "string");
  return [...new Set([...Object.keys(CREDENTIALS), ...named])];
}

/** The credentials of a run, by variable, from the shell or the env file (the shell wins); where each came from. */
export function credentialsOf(names: readonly string[], shell: Env, file: EnvFile | null): { values: Record<string, string>; from: Record<string, "shell" | "file"> } {
  const values: Record<string, string> = {};
  const from: Record<string, "shell" | "file"> = {};
  for (const name of names) {
    const found = lookup(name, shell, file);
    if (!found) continue;
    values[name] = found.value;
    from[name] = found.from;
  }
  return { values, from };
}

/**
 * What an env file holds that this run does not read, by name: a variable that is neither a setting's nor
 * a credential nor named by a `*_api_key_env` setting (most often the application's own).
 */
export function unreadVariables(file: EnvFile | null, settings: RunSettings): string[] {
  if (!file) return [];
  const read = new Set([...settingVariables().keys(), ...credentialNames(settings)]);
  return Object.keys(file.values).filter((n) => !read.has(n));
}
