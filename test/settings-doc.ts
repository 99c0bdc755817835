/** The table of every run setting in docs/configuration.md, as the settings' declarations give it (scripts/settings-doc.ts writes it). */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { flagOf } from "../src/core/settings/field";
import { settingEntries } from "../src/core/settings/schema";

export const CONFIGURATION_DOC = resolve(import.meta.dirname, "../docs/configuration.md");
const BEGIN = "<!-- settings table: written by `pnpm tsx scripts/settings-doc.ts` from the settings' declarations -->";
const END = "<!-- end of settings table -->";

const code = (s: string) => `\`${s}\``;

export function settingsTable(): string {
  const rows = settingEntries().map(([key, s]) => {
    const flags = [flagOf(key, s), ...(s.aliases ?? []), s.negation].filter((f): f is string => !!f).map((f) => code(`--${f}`)).join(", ");
    const config = s.config ? code(`[${s.config.split(".")[0]}] ${s.config.split(".")[1]}`) : "";
    const d = s.default_help ?? (typeof s.default === "function" || s.default === undefined ? "" : Array.isArray(s.default) ? (s.default.length ? s.default.join(", ") : "none") : String(s.default));
    const notes = [s.digest ? "plan digest" : "", s.plan === false ? "not in PLAN defaults" : "", s.on_resume ? "may change on resume" : "", s.plan_alias ? `PLAN also ${code(s.plan_alias)}` : ""].filter(Boolean).join("; ");
    return `| ${code(key)} | ${flags} | ${config} | ${s.env ? code(s.env) : ""} | ${d.replace(/\|/g, "\\|")} | ${s.expected.replace(/\|/g, "\\|")} | ${notes} |`;
  });
  return [BEGIN, "", "| setting | flags | crashlab.toml | variable | default | takes | |", "|---|---|---|---|---|---|---|", ...rows, "", END].join("\n");
}

/** The table as docs/configuration.md holds it now. */
export function documentedTable(): string {
  const doc = readFileSync(CONFIGURATION_DOC, "utf8");
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  return start < 0 || end < 0 ? "" : doc.slice(start, end + END.length);
}

export function writeSettingsTable(): void {
  const doc = readFileSync(CONFIGURATION_DOC, "utf8");
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < 0) throw new Error(`${CONFIGURATION_DOC} has no settings table markers`);
  writeFileSync(CONFIGURATION_DOC, doc.slice(0, start) + settingsTable() + doc.slice(end + END.length));
}
