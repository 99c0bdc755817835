/**
 * A run's outputs built from its journal (`trials.jsonl`): the summary and gates from each trial's slim
 * outcome, then results.json and junit.xml written a row at a time, rows in the plan's order. Memory holds
 * one row at a time plus a slim outcome per trial, whatever the number of trials. The same path serves a
 * fresh run, a resumed one and a merge of shards.
 */
import { join } from "node:path";
import { evaluateGates, type GateConfig, type GateDecision } from "../gate/gates";
import { indexJournal, JournalReader, JournalError, type JournalEntry } from "../journal/journal";
import { trialOutcome } from "../run/outcome";
import { runDecision, type Interruption, type RunDecision } from "../run/run";
import { summarize, type RunSummary } from "../run/summary";
import { AtomicFileWriter } from "../files/atomic";
import { junitLines } from "./junit";
import { redactShapes, type Redact } from "../services/redact";
import { resultsHeader, writeResultsFile, type ResultsContext, type ResultsHeader, type ResultsTrialRow } from "./results";
import { ResultsTrial } from "../record/results";

export interface JournalRunMeta {
  run_id: string;
  plan: string;
  target: string;
  seed: number;
  repetitions: number;
  started_at: string;
  finished_at: string;
  gate_config: GateConfig;
}

export interface JournalOutputs {
  results: string;
  junit: string;
  header: ResultsHeader;
  summary: RunSummary;
  gates: GateDecision;
  decision: RunDecision;
  /** Trials with a row in the journal (of those the plan selected). */
  finished: number;
}

/**
 * The journal's entries for the given trial ids, in that order (the plan's). A trial id with two rows is
 * a damaged journal: refused, never silently deduplicated.
 */
export function orderedEntries(journal: string, order: readonly string[]): JournalEntry[] {
  const byId = new Map<string, JournalEntry>();
  for (const e of indexJournal(journal).entries) {
    if (byId.has(e.trial_id)) throw new JournalError(`${journal} holds trial ${e.trial_id} twice; a trial is journaled once — the run folder was edited or two runs wrote into it`);
    byId.set(e.trial_id, e);
  }
  return order.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Read rows back, validating each (a row may come from another process: a shard, an earlier attempt).
 * The outputs read every row three times; each is validated the first time only (`validated`), as the
 * schema only checks (strict objects, no defaults or transforms): a valid row parses to itself (rows
 * this version wrote list their keys in the schema's order, so even the bytes agree).
 */
function* rows(reader: JournalReader, entries: readonly JournalEntry[], validated: Set<JournalEntry>): Generator<ResultsTrialRow> {
  for (const e of entries) {
    const raw = reader.read(e);
    if (validated.has(e)) {
      yield raw as ResultsTrialRow;
      continue;
    }
    const row = ResultsTrial.safeParse(raw);
    if (!row.success) throw new JournalError(`${reader.path}: the row of ${e.trial_id} does not match this crashlab version's results schema (field ${row.error.issues[0]!.path.join(".")}: ${row.error.issues[0]!.message})`);
    validated.add(e);
    yield row.data;
  }
}

export function writeOutputsFromJournal(
  runDir: string,
  journal: string,
  order: readonly string[],
  meta: JournalRunMeta,
  interruption: Interruption | null,
  ctx: ResultsContext,
  redact: Redact = redactShapes,
): JournalOutputs {
  const entries = orderedEntries(journal, order);
  const reader = new JournalReader(journal);
  const validated = new Set<JournalEntry>();
  try {
    const outcomes = [];
    for (const row of rows(reader, entries, validated)) outcomes.push(trialOutcome(row));
    const summary = summarize(outcomes);
    const gates = evaluateGates(outcomes, meta.gate_config);
    const decision = runDecision(gates, interruption, order.length);
    const header = resultsHeader({ ...meta, gates, decision, interruption, summary }, ctx);
    const results = join(runDir, "results.json");
    writeResultsFile(results, header, rows(reader, entries, validated), redact);
    const junit = join(runDir, "junit.xml");
    const out = new AtomicFileWriter(junit);
    try {
      const cases = [...new Set(entries.map((e) => e.case_id))];
      junitLines(
        meta.run_id,
        entries.map((e) => e.status),
        cases.map((case_id) => ({ case_id, trials: () => rows(reader, entries.filter((e) => e.case_id === case_id), validated) })),
        interruption,
        (line) => out.write(redact(line + "\n")),
      );
      out.commit();
    } catch (error) {
      out.abort();
      throw error;
    }
    return { results, junit, header, summary, gates, decision, finished: entries.length };
  } finally {
    reader.close();
  }
}
