// The text of crashlab's help pages: the main one, `run --help` (from the settings' declarations) and `init --help`.

import { SECTIONS, type Section, type Setting } from "../settings/field";
import { settingEntries } from "../settings/schema";
import { COMMAND_FLAGS } from "./options";

export const MAIN_HELP = `crashlab — evaluate assembled agent systems inside controlled experiments

Usage:
  crashlab init [dir]             write a working evaluation package (world, dataset, verifier, targets)
                                  into dir (default: the current folder); never overwrites a file
  crashlab run [options]          run the evaluation package's cases as trials and apply the gates
  crashlab list [--package P] [--data F]
                                  list the package's targets, cases and verifiers
  crashlab validate <dataset>     check a scenario dataset (docs/datasets.md) and its recordings
  crashlab validate --package P [dataset]
                                  also check the package's datasets (or the one given, in the PLAN or
                                  not) against its world (initial states, tool and argument names), as
                                  \`run\` and \`run --data\` do before their first trial
  crashlab generate-audio [opts]  write WALK fixtures (recordings + dataset) from a single-turn dataset
  crashlab view <run-dir> [--trial ID] [--review]
                                  open a run's report.html (overview, or one trial's conversation viewer);
                                  --review serves it on 127.0.0.1 to record reviews from the page
  crashlab audio extract <run-dir> --trial ID [--track input|caller|assistant]
                                  cut one track out of a trial's conversation.wav (input: checked
                                  against the record's sha256)
  crashlab merge <run-dir>…       join the run folders of \`run --shard i/n\` into one run, report and
                                  gate decision (refused unless they are every shard of one plan)
  crashlab compare <base> <head>  is the candidate run worse than the baseline? per case and overall:
                                  regression, no regression detected, or cannot tell (with the repetitions
                                  needed); which parts of the target differ; P50/P90 latency and duration
  crashlab describe <run-dir>     what ran: every package file with its hash, git state of each
                                  repository, the target's digest by part, models asked for and reported
  crashlab review <run-dir> --trial ID --verifier ID --verdict passed|failed|unsure --reviewer NAME
                                  record one person's verdict on a trial (appends to reviews.jsonl)
  crashlab review-queue <run-dir> which trials to review first: those that did not pass, then a sample
                                  of passing ones spread over cases and acoustic conditions
  crashlab gates <run-dir>        decide the run's gates again with its reviews (human gates); writes
                                  nothing; exits as \`run\` does
  crashlab calibrate <run-dir>…   the semantic judge against people, per clause: agreement, Cohen's
                                  kappa with a 95% interval, disagreements (docs/review.md)
  crashlab serve-assistant [--port N]
                                  serve a target's offline policy and world as a client-delegation
                                  service on loopback (token required) for \`run --assistant-endpoint\`
  crashlab vary [options]         check the grader before trusting it: variants of the package's own
                                  offline assistant (correct ones and faults) run as trials; prints the
                                  matrix and the false-fail and miss rates, exit 1 unless both are 0
                                  (\`crashlab vary --help\`, docs/vary.md)
  crashlab schema [--reviews]     print the JSON Schema of results.json (--reviews: of a reviews.jsonl line)
  crashlab --version | --help

Exit codes:
  0  every required gate passed
  1  a gate failed (or nothing ran, or a required human gate awaits reviews)
  2  usage or input error (a bad flag, config file, env file or PLAN setting, dataset, recording,
     package, or results folder): one paragraph naming the file, scenario and field; nothing was written
  3  infrastructure errors prevented a decision (a dead connection, a refused session, a protocol
     violation by the service); the target's own silence or stall is a failure (1), not this
  4  a verifier or clause of the evaluation package raised an error: fix the package
  130 interrupted by SIGINT (Ctrl-C), 143 by SIGTERM, 129 by SIGHUP: finished trials and the outputs are
     written, the trials not run are listed; a second signal stops at once. No pass decision.

Run \`crashlab run --help\` for the run options.`;

/**
 * `crashlab run --help`, written from the settings' declarations and the command's own flags: each flag
 * with its value, what it does, what it takes, its default, and its crashlab.toml key and variable.
 */
export function runHelp(): string {
  const lines = [
    "crashlab run — run every selected case as independent trials, then apply the release gates",
    "",
    "Usage: crashlab run [options]",
  ];
  for (const [section, title] of Object.entries(SECTIONS) as Array<[Section, string]>) {
    const entries = [
      ...settingEntries()
        .filter(([, s]) => s.section === section && (s.flag !== null || s.negation))
        .map(([key, s]) => entry(flagsOf(key, s), describe(s))),
      ...Object.entries(COMMAND_FLAGS)
        .filter(([, c]) => c.section === section)
        .map(([flag, c]) => entry(`${"short" in c ? `-${c.short}, ` : ""}--${flag}${"value" in c ? ` ${c.value}` : ""}`, c.help)),
    ];
    if (entries.length > 0) lines.push("", `${title}:`, ...entries.flat());
  }
  lines.push(
    "",
    "Every flag except the repeatable ones may be given once, and every value must be non-empty; a bad",
    "value is a usage error (exit 2) before the package is loaded.",
    "Settings resolve as: command line, then the environment (the shell, then the env file), then the config",
    "file, then the PLAN's `defaults`, then the defaults above; --explain-settings shows where each came from.",
  );
  return lines.join("\n");
}

const INDENT = 30;
const WIDTH = 108;

/** A flag and its text, wrapped: the flag in the first column, the text from column 31. */
function entry(flags: string, text: string): string[] {
  const words = text.split(/\s+/);
  const out: string[] = [];
  let line = `  ${flags}`;
  if (line.length >= INDENT - 1) {
    out.push(line);
    line = "";
  }
  line = line.padEnd(INDENT);
  let empty = true;
  for (const word of words) {
    if (!empty && line.length + 1 + word.length > WIDTH) {
      out.push(line);
      line = " ".repeat(INDENT);
      empty = true;
    }
    line += `${empty ? "" : " "}${word}`;
    empty = false;
  }
  out.push(line);
  return out;
}

function flagsOf(key: string, s: Setting): string {
  const value = s.value ? ` ${s.value}` : "";
  const own = s.flag === null ? [] : [`--${s.flag ?? key.replace(/_/g, "-")}${value}`];
  return [...own, ...(s.aliases ?? []).map((a) => `--${a}${value}`), ...(s.negation ? [`--${s.negation}`] : [])].join(", ");
}

/** What a setting does, what it takes, its default, and where else it may be set. */
function describe(s: Setting): string {
  const takes = s.kind === "whole" || s.kind === "decimal" ? `: ${s.expected}` : s.kind === "choice" && !s.choices!.every((c) => s.help.includes(c)) ? `: ${s.expected}` : "";
  const d = s.default_help ?? (typeof s.default === "function" || s.default === undefined || s.kind === "toggle" || (Array.isArray(s.default) && s.default.length === 0) ? undefined : typeof s.default === "number" ? s.default.toLocaleString("en-US") : String(s.default));
  const where = [s.config ? `crashlab.toml [${s.config.split(".")[0]}] ${s.config.split(".")[1]}` : null, s.env ? `env ${s.env}` : null].filter(Boolean).join("; ");
  return `${s.help}${takes}${d !== undefined ? ` (default${s.default_help !== undefined ? ":" : ""} ${d})` : ""}${where ? `. ${where}` : ""}`;
}

export const INIT_HELP = `crashlab init — write a working evaluation package into a folder

Usage:
  crashlab init [dir]        dir defaults to the current folder; it is created when missing

Writes crashlab/ (a bike shop's booking world, its offline policy, targets, a verifier, and three
datasets: four CRAWL scenarios, one WALK scenario with its recording made by generate-audio, one RUN
call), plus package.json and tsconfig.json when the folder has none. An existing package.json only
gains the scripts and dependencies it lacks; an existing tsconfig.json is left alone (the package gets
crashlab/tsconfig.json). Nothing is ever overwritten: if any file it would write exists, it writes
nothing and says which (exit 2).

  -h, --help                 this text

Then: npm install, npx crashlab run (exit 0), npx crashlab run --target faulty (exit 1).`;
