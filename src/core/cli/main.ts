/** The whole CLI as one function: argv to a command, output redacted, user errors as one paragraph, an exit code. */

import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { loadDataset } from "../dataset/load";
import { checkCasesAgainstWorlds } from "../run/preflight";
import { resultsJsonSchema } from "../record/results";
import { reviewsJsonSchema } from "../review/reviews";
import { calibrateCommand, gatesCommand, reviewCommand, reviewQueueCommand } from "./review";
import { redactor, type Redact } from "../services/redact";
import { CRASHLAB_VERSION } from "../version";
import { validateRecordings } from "../walk/recordings";
import { generateAudioCommand } from "./generate-audio";
import { audioCommand } from "./audio-extract";
import { mergeCommand } from "./merge";
import { compareCommand } from "./compare";
import { describeCommand } from "./describe";
import { INIT_HELP, MAIN_HELP } from "./help";
import { viewCommand } from "./view";
import { findPackage, loadPackage } from "../package/load";
import { parseFlags } from "./flags";
import { planWithDatasets } from "../package/datasets";
import { scaffold, scaffoldSummary } from "../init/scaffold";
import { UsageError } from "./options";
import { runCommand } from "./run-command";
import { serveAssistantCommand } from "./serve-assistant";
import { varyCommand } from "./vary";
import { machineFault, machineFaultLine, pathFault } from "../files/machine-fault";
import { escapeControls } from "../run-folder/text";
import { isUserError } from "../user-error";

export type { CliIO } from "./io";
import type { CliIO } from "./io";

/**
 * The secrets this invocation may hold: OPENAI_API_KEY and every variable a `--…-api-key-env NAME` names.
 * Every output channel (console and files) passes through one redaction built from them.
 */
function knownSecrets(argv: readonly string[], env: Record<string, string | undefined>): string[] {
  const named = argv.flatMap((a, i) => (/^--[a-z-]+-api-key-env(=|$)/.test(a) ? [a.includes("=") ? a.slice(a.indexOf("=") + 1) : (argv[i + 1] ?? "")] : []));
  return [env.OPENAI_API_KEY, ...named.map((name) => env[name])].filter((s): s is string => typeof s === "string");
}

/** The whole CLI as a function: tests call it directly; the bin is a thin wrapper. Returns the exit code. */
export async function main(argv: string[], rawIo: CliIO): Promise<number> {
  const secrets = knownSecrets(argv, rawIo.env ?? {});
  const redact = redactor(secrets);
  const io: CliIO = { ...rawIo, stdout: (t) => rawIo.stdout(redact(t)), stderr: (t) => rawIo.stderr(redact(t)) };
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.stdout(MAIN_HELP + "\n");
        return command === undefined ? 2 : 0;
      case "--version":
      case "-v":
        io.stdout(`${CRASHLAB_VERSION}\n`);
        return 0;
      case "run":
        return await runCommand(rest, io, redact, secrets);
      case "list":
        return await listCommand(rest, io);
      case "validate":
        return await validateCommand(rest, io);
      case "generate-audio":
        return await generateAudioCommand(rest, io);
      case "view":
        return await viewCommand(rest, io);
      case "init":
        return await initCommand(rest, io);
      case "audio":
        return await audioCommand(rest, io);
      case "merge":
        return await mergeCommand(rest, io, redact);
      case "compare":
        return await compareCommand(rest, io);
      case "describe":
        return await describeCommand(rest, io);
      case "schema":
        return schemaCommand(rest, io);
      case "review":
        return await reviewCommand(rest, io);
      case "review-queue":
        return await reviewQueueCommand(rest, io);
      case "gates":
        return await gatesCommand(rest, io);
      case "calibrate":
        return await calibrateCommand(rest, io);
      case "serve-assistant":
        return await serveAssistantCommand(rest, io);
      case "vary":
        return await varyCommand(rest, io);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (isUserError(error)) {
      io.stderr(`crashlab: ${oneParagraph(error.message)}${error.name === "UsageError" ? " (see `crashlab --help`)" : ""}\n`);
      return 2;
    }
    // The machine's fault (a full disk, a read-only file system, …): one line with what to do, exit 3; a
    // path's (a loop of links, a folder where a file must be) the same way, exit 2.
    const fault = machineFault(error) ?? pathFault(error);
    if (fault) {
      io.stderr(`crashlab: ${oneParagraph(machineFaultLine(fault, command === "audio" ? "audio extract" : command))}\n`);
      return fault.exit_code;
    }
    // Our own bug: the stack helps us fix it; it goes through the same redaction as every other output.
    io.stderr(`crashlab: internal error: ${(error as Error)?.stack ?? String(error)}\nPlease report this with the command you ran.\n`);
    return 3;
  }
}

/** The most characters an input error's paragraph may have; each message caps the user data it quotes, this is the net. */
const MESSAGE_LIMIT = 2000;

/**
 * An input error is one paragraph: line breaks inside it (quoted JSON, a value with a newline) become
 * spaces, any other control character is escaped (a message never carries raw bytes from a file to the
 * terminal), and a paragraph longer than MESSAGE_LIMIT is cut in the middle.
 */
function oneParagraph(message: string): string {
  const text = escapeControls(message.replace(/\s*[\r\n]+\s*/g, " ").trim());
  if (text.length <= MESSAGE_LIMIT) return text;
  const keep = MESSAGE_LIMIT >> 1;
  return `${text.slice(0, keep)} … (${text.length - 2 * keep} characters left out) … ${text.slice(-keep)}`;
}

/** `crashlab schema`: results.json's JSON Schema; `--reviews`: that of one reviews.jsonl line. */
function schemaCommand(argv: string[], io: CliIO): number {
  const { values } = parseFlags(argv, { reviews: { type: "boolean" } });
  io.stdout(JSON.stringify(values.reviews ? reviewsJsonSchema() : resultsJsonSchema(), null, 2) + "\n");
  return 0;
}

/** `crashlab init [dir]`: a working evaluation package in an empty or existing folder. */
async function initCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, { help: { type: "boolean", short: "h" } }, 1);
  if (values.help) {
    io.stdout(INIT_HELP + "\n");
    return 0;
  }
  const report = await scaffold(resolve(io.cwd, positionals[0] ?? "."));
  io.stdout(scaffoldSummary(report, io.cwd) + "\n");
  return 0;
}

async function listCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags(argv, { package: { type: "string" }, json: { type: "boolean" }, data: { type: "string", multiple: true } });
  const pkg = await loadPackage(findPackage(io.cwd, values.package), io.alpha);
  const plan = values.data && values.data.length > 0 ? planWithDatasets(pkg.plan, values.data, io.cwd, pkg.file) : pkg.plan;
  const verifiers = ["outcome", ...(plan.verifiers ?? []).map((v) => v.id)];
  if (values.json) {
    io.stdout(
      JSON.stringify(
        {
          plan: plan.name,
          targets: Object.keys(plan.targets),
          default_target: plan.default_target ?? Object.keys(plan.targets)[0],
          verifiers,
          cases: plan.cases.map((c) => ({ id: c.id, kind: c.kind, title: c.scenario.title, tags: c.tags })),
        },
        null,
        2,
      ) + "\n",
    );
    return 0;
  }
  const lines = [`plan ${plan.name} (${pkg.file})`, `targets: ${Object.keys(plan.targets).join(", ")}`, `verifiers: ${verifiers.join(", ")}`, `cases (${plan.cases.length}):`];
  const w = Math.max(...plan.cases.map((c) => c.id.length), 4);
  for (const c of plan.cases) lines.push(`  ${c.id.padEnd(w)}  ${c.kind.padEnd(5)}  ${c.scenario.title}${c.tags.length ? `  [${c.tags.join(", ")}]` : ""}`);
  io.stdout(lines.join("\n") + "\n");
  return 0;
}

async function validateCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, { package: { type: "string" } }, 1);
  const [given] = positionals;
  if (given === undefined && values.package === undefined) throw new UsageError("usage: crashlab validate <dataset.json> | crashlab validate --package <package> [dataset.json]");
  if (values.package === undefined) {
    const file = resolve(io.cwd, given!);
    const { dataset } = loadDataset(file);
    // Recordings are part of a dataset's validity: every problem is reported, each with its fix.
    const problems = validateRecordings(dataset, file);
    if (problems.length > 0) {
      io.stderr(problems.map((p) => `crashlab: ${oneParagraph(p.message)}`).join("\n") + "\n");
      return 2;
    }
    io.stdout(`${given}: valid, ${describeDataset(dataset)}; checked without a world (add --package <package> to check initial states and tool names against it)\n`);
    return 0;
  }
  // With the package: what `run` checks before its first trial, on every case (or those of one dataset).
  const pkg = await loadPackage(findPackage(io.cwd, values.package), io.alpha);
  let cases = pkg.plan.cases;
  if (given !== undefined) {
    const file = resolve(io.cwd, given);
    loadDataset(file);
    const same = (a: string, b: string) => realOrResolved(a) === realOrResolved(b);
    cases = cases.filter((c) => same(c.dataset_file, file));
    // A dataset outside the PLAN is checked as `run --data` would run it: against the package's world.
    if (cases.length === 0) cases = planWithDatasets(pkg.plan, [given], io.cwd, pkg.file).cases;
  }
  checkCasesAgainstWorlds(cases);
  const datasets = new Set(cases.map((c) => c.dataset_file));
  const worlds = [...new Set(cases.map((c) => c.world.name))];
  io.stdout(`${given ?? pkg.file}: valid, ${cases.length} case(s) from ${datasets.size} dataset(s) checked against world ${worlds.map((w) => `"${w}"`).join(", ")}\n`);
  return 0;
}

function describeDataset(dataset: import("../dataset/schema").Dataset): string {
  const kinds = dataset.scenarios.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s.interaction]: (acc[s.interaction] ?? 0) + 1 }), {});
  const recordings = dataset.scenarios.reduce((n, s) => n + (s.input.recordings?.length ?? 0), 0);
  return `${dataset.scenarios.length} scenario(s) (${Object.entries(kinds).map(([k, v]) => `${v} ${k}`).join(", ")})${recordings ? `, ${recordings} recording(s) checked` : ""}`;
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
