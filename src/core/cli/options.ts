/**
 * `crashlab run`'s command line: one flag per run setting, derived from the settings' declarations
 * (src/core/settings/schema.ts: the flag, its negation and aliases, what a value must be), plus the
 * command's own flags (help, config and env files, --explain-settings, resume). Parsing turns argv into a
 * source of settings — each value checked with its setting's rule, before any package code runs — and the
 * command's own choices.
 */
import type { ParseArgsConfig } from "node:util";
import { readText, type Section, type Setting, type SettingValue } from "../settings/field";
import { layerOf, type Layer } from "../settings/resolve";
import { settingEntries } from "../settings/schema";
import { parseFlags } from "./flags";
import { UsageError } from "./usage-error";

export { UsageError } from "./usage-error";

/** A flag of the command itself (not a setting): what it takes, its help line and section. */
export interface CommandFlag {
  type: "string" | "boolean";
  short?: string;
  value?: string;
  help: string;
  section: Section;
}

export const COMMAND_FLAGS = {
  offline: { type: "boolean", help: "the explicit form of the default: the local GPT-Live simulator and offline engines (refused with --live)", section: "target" },
  config: { type: "string", value: "<file>", help: "read settings from this TOML file (default: crashlab.toml beside the package, when there is one)", section: "configuration" },
  "env-file": { type: "string", value: "<file>", help: "read the documented variables (keys, models, endpoints) from this file (default: .env beside the package, when there is one); the shell wins over it", section: "configuration" },
  "explain-settings": { type: "boolean", help: "print every setting's value and where it came from (flag, environment, config file, PLAN defaults, built-in default), then stop: nothing runs", section: "configuration" },
  resume: {
    type: "string",
    value: "<run-dir>",
    help: "finish an interrupted run (Ctrl-C, SIGTERM, a kill, a crash) in its own folder, with the settings stored in its run.json: the trials its journal holds are not run again; a plan changed since (package, target, settings) is refused",
    section: "resume",
  },
  force: { type: "boolean", help: "with --resume: finish the run although its plan changed", section: "resume" },
  "last-failed": { type: "boolean", help: "run only the cases that had a trial not pass in the last run (in --results-dir)", section: "resume" },
  help: { type: "boolean", short: "h", help: "this help", section: "output" },
} as const satisfies Record<string, CommandFlag>;

type ParseArgsOptions = NonNullable<ParseArgsConfig["options"]>;

/** Every flag of a setting: its own, its negation, its aliases; and what each means. */
export function settingFlags(): Array<{ flag: string; key: string; setting: Setting; means: "value" | "on" | "off" }> {
  return settingEntries().flatMap(([key, setting]) => {
    const own = setting.flag === null ? [] : [setting.flag ?? key.replace(/_/g, "-")];
    return [
      ...[...own, ...(setting.aliases ?? [])].map((flag) => ({ flag, key, setting, means: setting.kind === "toggle" ? ("on" as const) : ("value" as const) })),
      ...(setting.negation ? [{ flag: setting.negation, key, setting, means: "off" as const }] : []),
    ];
  });
}

/** The parseArgs options of `crashlab run`: the settings' flags and the command's own. */
export function runOptions(): ParseArgsOptions {
  const options: ParseArgsOptions = {};
  for (const { flag, setting, means } of settingFlags()) options[flag] = means === "value" ? { type: "string", ...(setting.kind === "list" ? { multiple: true } : {}) } : { type: "boolean" };
  for (const [flag, c] of Object.entries(COMMAND_FLAGS)) options[flag] = { type: c.type, ...("short" in c ? { short: c.short } : {}) };
  return options;
}

export interface RunCommandLine {
  /** The settings the command line gives, each checked. */
  flags: Layer;
  help: boolean;
  config?: string;
  env_file?: string;
  explain_settings: boolean;
  resume?: string;
  force: boolean;
  last_failed: boolean;
}

/**
 * argv → the settings it gives and the command's own choices. A value is checked with its setting's rule
 * (`--seed takes a whole number >= 0 (got "-1")`); a toggle given both ways is a contradiction.
 */
export function parseRunArgs(argv: readonly string[]): RunCommandLine {
  const values = parseFlags(argv, runOptions()).values as Record<string, string | string[] | boolean | undefined>;
  const given: Record<string, SettingValue> = {};
  const labels: Record<string, string> = {};
  for (const { flag, key, setting, means } of settingFlags()) {
    const raw = values[flag];
    if (raw === undefined) continue;
    let value: SettingValue;
    if (means === "value") {
      const texts = Array.isArray(raw) ? raw : [String(raw)];
      const item = setting.kind === "list" ? setting.item! : setting;
      const read = texts.map((t) => {
        const v = readText(item as Setting, t);
        if (v === undefined) throw new UsageError(`--${flag} takes ${item.expected} (got "${t}")`);
        return v as string;
      });
      value = setting.kind === "list" ? [...((given[key] as string[] | undefined) ?? []), ...read] : read[0]!;
    } else {
      value = means === "on";
      if (key in given && given[key] !== value) throw new UsageError(`${labels[key]} and --${flag} contradict each other; pass one`);
    }
    given[key] = value;
    labels[key] = key in labels && setting.kind === "list" ? `${labels[key]}/--${flag}` : `--${flag}`;
  }
  const text = (flag: string) => values[flag] as string | undefined;
  // --offline says the default out loud (the form other harnesses' command lines use); with --live it contradicts.
  if (values.offline === true && given.live === true) throw new UsageError(`--offline and ${labels.live} contradict each other: --offline is the default (the local simulator), --live uses OpenAI's services; pass one`);
  return {
    flags: layerOf("flag", given, (k) => labels[k]!),
    help: values.help === true,
    ...(text("config") !== undefined ? { config: text("config") } : {}),
    ...(text("env-file") !== undefined ? { env_file: text("env-file") } : {}),
    explain_settings: values["explain-settings"] === true,
    ...(text("resume") !== undefined ? { resume: text("resume") } : {}),
    force: values.force === true,
    last_failed: values["last-failed"] === true,
  };
}
