/** A trial's evidence catalog: what was observed, item by item with ids, for the semantic judge to cite. */

import { z } from "zod";
import type { Scenario } from "../dataset/schema";
import type { TrialRecord } from "../record/trial-record";

/**
 * The per-trial evidence catalog (docs/verifiers-and-clauses.md, docs/grading.md): small strict-JSON items with stable ids that a semantic
 * judge may cite. It holds what was observed in the trial (utterances, delegations, tool calls, world
 * events, state changes), the context the target was given, and public business facts supplied by the
 * package. It never holds evaluator data: no expected answer, criteria, golden path or expected state.
 */
export const EVIDENCE_CATALOG_VERSION = "1.0";

/** Any value above this many characters of JSON is replaced by a bounded preview, so items stay small. */
export const MAX_EVIDENCE_VALUE_CHARS = 4000;

const json = z.json();
const ms = z.number();
const id = z.string().min(1);

export const EvidenceItem = z.discriminatedUnion("kind", [
  /**
   * `utt.user.<n>` / `utt.assistant.<n>`: n is 1-based per role, as the deterministic checks number them.
   * Every utterance of both sides, however many turns; a RUN caller utterance carries its action.
   */
  z.strictObject({
    id,
    kind: z.literal("utterance"),
    role: z.enum(["user", "assistant"]),
    text: z.string(),
    start_ms: ms,
    end_ms: ms,
    action: z.enum(["OPENING", "SPEAK", "BACKCHANNEL", "INTERRUPT", "STOP"]).optional(),
  }),
  /** `delegation.<delegation_id>` */
  z.strictObject({
    id,
    kind: z.literal("delegation"),
    delegation_id: z.string(),
    target: z.enum(["client", "responses"]),
    created_ms: ms,
    content_ms: ms.nullable(),
    completed_ms: ms.nullable(),
  }),
  /** `tool.<call_id>`: arguments are the parsed object, or the raw text when it was not a JSON object. */
  z.strictObject({
    id,
    kind: z.literal("tool_call"),
    call_id: z.string(),
    name: z.string(),
    arguments: json,
    status: z.enum(["completed", "failed"]),
    output: json,
    error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
    requested_ms: ms,
    completed_ms: ms,
    delegation_id: z.string().nullable(),
  }),
  /** `world.event.<seq>`: one causal event of the world (reads included). */
  z.strictObject({
    id,
    kind: z.literal("world_event"),
    seq: z.number().int(),
    at_ms: ms,
    operation: z.string(),
    operation_kind: z.enum(["read", "write"]),
    args: json,
    outcome: z.enum(["ok", "error"]),
    result: json,
    error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
    call_id: z.string().nullable(),
    patches: json,
  }),
  /** `state.diff.<n>`: one RFC 6902 operation of the initial→final world diff, 1-based. */
  z.strictObject({ id, kind: z.literal("state_change"), op: z.string(), path: z.string(), value: json.optional(), from: z.string().optional() }),
  /** `fact.<key>`: a public business fact the package supplied. */
  z.strictObject({ id, kind: z.literal("fact"), key: z.string(), value: json }),
  /** `context.history.<n>`: the prior conversation the target was given, 1-based. */
  z.strictObject({ id, kind: z.literal("context_history"), role: z.enum(["user", "assistant"]), text: z.string() }),
  /** `context.summary`: the summary the target was given. */
  z.strictObject({ id, kind: z.literal("context_summary"), text: z.string() }),
]);
export type EvidenceItem = z.infer<typeof EvidenceItem>;
export type EvidenceKind = EvidenceItem["kind"];

export const EvidenceCatalog = z.strictObject({
  catalog_version: z.literal(EVIDENCE_CATALOG_VERSION),
  trial_id: z.string(),
  items: z.array(EvidenceItem),
});
export type EvidenceCatalog = z.infer<typeof EvidenceCatalog>;

/** Public business facts, as the package supplies them (e.g. the restaurant's `RESTAURANT_FACTS`). */
export type Facts = Readonly<Record<string, unknown>>;

/** The record fields evidence is drawn from (a finished trial record satisfies it). */
export type EvidenceSource = Pick<TrialRecord, "trial_id" | "turns" | "delegations" | "tool_executions" | "world">;

export interface EvidenceOptions {
  /** The context the target was given (scenario `input.context`): caller input, not evaluator data. */
  context?: Scenario["input"]["context"];
  facts?: Facts;
}

/** Facts a package supplied cannot become evidence (bad key, not JSON). The user fixes the facts. */
export class FactsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FactsError";
  }
}

/** The recorded trial data cannot be turned into evidence: an evaluator fault, so a verifier error. */
export class EvidenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EvidenceError";
  }
}

const FACT_KEY = /^[A-Za-z0-9_]+(?:[.-][A-Za-z0-9_]+)*$/;

/** Check facts up front (at configuration time) so a bad key is reported once, with the fix. */
export function validateFacts(facts: Facts): Record<string, z.infer<typeof json>> {
  const out: Record<string, z.infer<typeof json>> = {};
  for (const [key, value] of Object.entries(facts)) {
    if (!FACT_KEY.test(key)) throw new FactsError(`fact key "${key}" cannot be an evidence id (fact.${key}): use letters, digits and '_', optionally joined by '.' or '-'`);
    const parsed = json.safeParse(value);
    if (!parsed.success) throw new FactsError(`fact "${key}" is not plain JSON (strings, numbers, booleans, null, arrays, objects): convert it before passing it as a fact`);
    out[key] = structuredClone(parsed.data);
  }
  return out;
}

/** Keep an item small: a value whose JSON exceeds the bound becomes a deterministic preview. */
function bounded(value: unknown): z.infer<typeof json> {
  const text = JSON.stringify(value ?? null);
  if (text.length <= MAX_EVIDENCE_VALUE_CHARS) return (value ?? null) as z.infer<typeof json>;
  return { truncated: true, characters: text.length, preview: text.slice(0, MAX_EVIDENCE_VALUE_CHARS) };
}

const RecordedWorldEvent = z.looseObject({
  seq: z.number().int(),
  at_ms: z.number(),
  operation: z.string(),
  kind: z.enum(["read", "write"]),
  args: json,
  outcome: z.enum(["ok", "error"]),
  result: json.optional(),
  error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
  patches: z.array(json),
  cause: z.looseObject({ call_id: z.string().optional() }),
});

const RecordedPatch = z.looseObject({ op: z.string(), path: z.string(), value: json.optional(), from: z.string().optional() });

/** Build the evidence catalog of one trial. Deterministic: the same record gives the same catalog. */
export function buildEvidenceCatalog(record: EvidenceSource, options: EvidenceOptions = {}): EvidenceCatalog {
  const items: EvidenceItem[] = [];
  const context = options.context;
  if (context?.summary !== undefined) items.push({ id: "context.summary", kind: "context_summary", text: context.summary });
  (context?.history ?? []).forEach((m, i) => items.push({ id: `context.history.${i + 1}`, kind: "context_history", role: m.role, text: m.text }));

  const perRole = { user: 0, assistant: 0 };
  for (const turn of record.turns) {
    const n = ++perRole[turn.role];
    items.push({
      id: `utt.${turn.role}.${n}`,
      kind: "utterance",
      role: turn.role,
      text: turn.text,
      start_ms: turn.start_ms,
      end_ms: turn.end_ms,
      ...(turn.action ? { action: turn.action } : {}),
    });
  }
  for (const d of record.delegations) {
    items.push({
      id: `delegation.${d.delegation_id}`,
      kind: "delegation",
      delegation_id: d.delegation_id,
      target: d.target,
      created_ms: d.created_ms,
      content_ms: d.content_ms ?? null,
      completed_ms: d.completed_ms ?? null,
    });
  }
  for (const t of record.tool_executions) {
    items.push({
      id: `tool.${t.call_id}`,
      kind: "tool_call",
      call_id: t.call_id,
      name: t.name,
      arguments: bounded(t.arguments ?? t.raw_arguments),
      status: t.status,
      output: bounded(t.output ?? null),
      error: t.error ? { code: t.error.code, message: t.error.message } : null,
      requested_ms: t.requested_ms,
      completed_ms: t.completed_ms,
      delegation_id: t.delegation_id ?? null,
    });
  }
  record.world.events.forEach((raw, i) => {
    const parsed = RecordedWorldEvent.safeParse(raw);
    if (!parsed.success) throw new EvidenceError(`world event ${i + 1} of trial ${record.trial_id} is malformed: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    const e = parsed.data;
    items.push({
      id: `world.event.${e.seq}`,
      kind: "world_event",
      seq: e.seq,
      at_ms: e.at_ms,
      operation: e.operation,
      operation_kind: e.kind,
      args: bounded(e.args),
      outcome: e.outcome,
      result: bounded(e.result ?? null),
      error: e.error ? { code: e.error.code, message: e.error.message } : null,
      call_id: e.cause.call_id ?? null,
      patches: bounded(e.patches),
    });
  });
  record.world.diff.forEach((raw, i) => {
    const parsed = RecordedPatch.safeParse(raw);
    if (!parsed.success) throw new EvidenceError(`world diff operation ${i + 1} of trial ${record.trial_id} is malformed: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    const p = parsed.data;
    items.push({ id: `state.diff.${i + 1}`, kind: "state_change", op: p.op, path: p.path, ...(p.value !== undefined ? { value: bounded(p.value) } : {}), ...(p.from !== undefined ? { from: p.from } : {}) });
  });
  for (const [key, value] of Object.entries(validateFacts(options.facts ?? {}))) items.push({ id: `fact.${key}`, kind: "fact", key, value: bounded(value) });

  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.id)) throw new EvidenceError(`evidence id "${item.id}" occurs twice in trial ${record.trial_id}`);
    seen.add(item.id);
  }
  const catalog = EvidenceCatalog.safeParse({ catalog_version: EVIDENCE_CATALOG_VERSION, trial_id: record.trial_id, items });
  if (!catalog.success) throw new EvidenceError(`the evidence catalog of trial ${record.trial_id} is not valid: ${catalog.error.issues[0]?.path.join(".")}: ${catalog.error.issues[0]?.message}`);
  return catalog.data;
}

/** Look up items by id. */
export function catalogIndex(catalog: EvidenceCatalog): ReadonlyMap<string, EvidenceItem> {
  return new Map(catalog.items.map((item) => [item.id, item]));
}

const compact = (value: unknown) => JSON.stringify(value ?? null);

/** One human-readable line per item, in the transcript-line style of docs/results.md. */
export function evidenceLine(item: EvidenceItem): string {
  switch (item.kind) {
    case "utterance":
      return `${item.role.toUpperCase()} ${item.start_ms}..${item.end_ms}ms: ${item.text}`;
    case "delegation":
      return `DELEGATION ${item.created_ms}ms: target=${item.target} id=${item.delegation_id}`;
    case "tool_call":
      return `TOOL ${item.requested_ms}ms: name=${item.name} status=${item.status} arguments=${compact(item.arguments)} ${item.error ? `error=${item.error.code}: ${item.error.message}` : `result=${compact(item.output)}`}`;
    case "world_event":
      return `WORLD ${item.at_ms}ms: #${item.seq} ${item.operation} (${item.operation_kind}) ${item.outcome}${item.error ? ` ${item.error.code}: ${item.error.message}` : ""}${item.call_id ? ` call=${item.call_id}` : ""}`;
    case "state_change":
      return `STATE ${item.op} ${item.path}${item.from !== undefined ? ` from ${item.from}` : ""}${item.value !== undefined ? ` = ${compact(item.value)}` : ""}`;
    case "fact":
      return `FACT ${item.key} = ${compact(item.value)}`;
    case "context_history":
      return `CONTEXT history ${item.role.toUpperCase()}: ${item.text}`;
    case "context_summary":
      return `CONTEXT summary: ${item.text}`;
  }
}
