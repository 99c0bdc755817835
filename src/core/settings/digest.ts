/** The settings that decide what a run's trials do or how they are judged: the settings part of the plan digest. */
import { settingEntries, type RunSettings } from "./schema";
import type { SettingValue } from "./field";

/**
 * Every setting declared to enter the plan digest, by name, with `null` for one not set, so two runs with
 * the same settings digest alike whoever resolved them (the CLI, the library, a resume). No setting holds a
 * key (keys are credentials, read from the environment), so none can enter a digest.
 */
export function digestSettings(settings: RunSettings): Record<string, SettingValue | null> {
  const all = settings as Record<string, SettingValue | undefined>;
  return Object.fromEntries(settingEntries().filter(([, s]) => s.digest).map(([key]) => [key, all[key] ?? null]));
}
