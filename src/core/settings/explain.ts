/** `crashlab run --explain-settings`: every setting's value and where it came from, as a table a person reads. */
import type { SettingValue } from "./field";
import type { Resolution } from "./resolve";
import { settingEntries } from "./schema";

const ORIGIN: Record<string, string> = {
  code: "given in code",
  flag: "command line",
  stored: "run.json",
  env: "environment",
  config: "config file",
  plan: "PLAN defaults",
  default: "default",
};

function shown(value: SettingValue | undefined): string {
  if (value === undefined) return "(not set)";
  if (Array.isArray(value)) return value.length === 0 ? "(none)" : value.join(", ");
  return String(value);
}

/**
 * One line per setting: name, value, and its source as the user wrote it (`--seed`, `OPENAI_LIVE_MODEL
 * (.env)`, `crashlab.toml line 4 ([execution] seed)`, `PLAN defaults.concurrency`) or "built-in default".
 * `notes` follow the table (which files were read, which credentials are set: names only).
 */
export function explainSettings(resolution: Resolution, notes: readonly string[]): string {
  const entries = settingEntries();
  const width = Math.max(...entries.map(([k]) => k.length));
  const values = resolution.settings as Record<string, SettingValue | undefined>;
  const rows = entries.map(([key, setting]) => {
    const source = resolution.sources[key]!;
    const value = shown(values[key]);
    const origin = source.kind !== "default" ? `${ORIGIN[source.kind]}: ${source.label}` : values[key] === undefined && setting.default_help ? `default: ${setting.default_help}` : ORIGIN.default;
    return `  ${key.padEnd(width)}  ${value.padEnd(28)}  ${origin}`;
  });
  return [
    "Run settings and where each came from (command line > environment > config file > PLAN defaults > built-in default):",
    ...rows,
    ...(notes.length > 0 ? ["", ...notes] : []),
  ].join("\n");
}
