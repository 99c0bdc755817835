/**
 * Grounding: every concrete value the assistant speaks must be held by evidence that existed before it was
 * spoken, every outcome claim must follow the tool result that backs it, and a dataset's expected facts
 * must be stated and never contradicted. Speech is read by the language layer (values.ts, claims.ts);
 * the evidence is structure (the caller's earlier words, authorized context, public facts, tool calls and
 * results, world events), each taken only from before the utterance began.
 */
import type { ExpectedFact, Scenario } from "../dataset/schema";
import type { ToolExecution, Turn } from "../record/trial-record";
import type { WorldEvent } from "../world/types";
import { parsedJson } from "../language/nlp";
import { readClaims, toolOutcome, type OutcomeClaim } from "../language/claims";
import { emptyEvidence, evidenceValues, inEvidence, readValues, sameValue, startsSentence, structuredValue, type EvidenceValues, type SpokenValue, type ValueKind } from "../language/values";

/** An assistant turn with its evidence id (`utt.assistant.<n>`). */
export type Utterance = Turn & { evidence_id: string };

export interface GroundingInput {
  scenario: Scenario;
  case_kind: string;
  turns: Turn[];
  /** Spoken (non-blank) assistant turns with their evidence ids. */
  utterances: Utterance[];
  tool_executions: ToolExecution[];
  events: readonly WorldEvent[];
  /** The package's public facts (PLAN.facts). */
  facts?: unknown;
}

export interface UngroundedValue {
  utterance: Utterance;
  value: SpokenValue;
}

export interface UnbackedClaim {
  utterance: Utterance;
  claim: OutcomeClaim;
  /** A backing execution that completed only after the claim was spoken, when there is one. */
  late?: ToolExecution;
}

export interface Grounding {
  /** Every value spoken, with whether it was grounded. */
  spoken: Array<{ utterance: Utterance; value: SpokenValue; grounded: boolean }>;
  ungrounded: UngroundedValue[];
  claims: Array<{ utterance: Utterance; claim: OutcomeClaim; backing?: ToolExecution }>;
  unbacked: UnbackedClaim[];
}

interface Dated {
  at_ms: number;
  evidence: EvidenceValues;
}

/** Evidence that exists from the start (the request in CRAWL and WALK, context, facts), then dated evidence. */
function evidenceTimeline(input: GroundingInput): { always: EvidenceValues; dated: Dated[] } {
  const always = emptyEvidence();
  // In CRAWL and WALK the caller's request is the input itself; in RUN the caller's lines are turns.
  if (input.case_kind !== "run") evidenceValues(input.scenario.input.text, {}, always);
  // Context and public facts, where given (evidence holds nothing from an absent one).
  evidenceValues(input.scenario.input.context, {}, always);
  evidenceValues(input.facts, {}, always);
  // Stryker disable next-line ArrayDeclaration: equivalent, an element put in at the start has no at_ms, and undefined <= a time is false, so it grounds nothing
  const dated: Dated[] = [];
  for (const t of input.turns) if (t.role === "user") dated.push({ at_ms: t.end_ms, evidence: evidenceValues(t.text) });
  for (const t of input.tool_executions) {
    dated.push({ at_ms: t.completed_ms, evidence: evidenceValues([t.arguments ?? t.raw_arguments, t.output ?? null]) });
  }
  for (const e of input.events) dated.push({ at_ms: e.at_ms, evidence: evidenceValues([e.args, e.result ?? null]) });
  return { always, dated };
}

function grounded(value: SpokenValue, at_ms: number, timeline: { always: EvidenceValues; dated: Dated[] }): boolean {
  if (inEvidence(value, timeline.always)) return true;
  return timeline.dated.some((d) => d.at_ms <= at_ms && inEvidence(value, d.evidence));
}

/** The world write an execution made, if it reached the world and succeeded. */
function okWrite(t: ToolExecution, events: readonly WorldEvent[]): boolean {
  return events.some((e) => (e.seq === t.world_seq || e.cause.call_id === t.call_id) && e.kind === "write" && e.outcome === "ok");
}

/** Whether an execution's tool can back a claim of this kind (a tool whose name says no action backs any). */
function backs(t: ToolExecution, claim: OutcomeClaim): boolean {
  const outcome = toolOutcome(t.name);
  return claim.kind === "any" || outcome === null || outcome === claim.kind;
}

/** Read every assistant utterance once: its values against earlier evidence, its claims against earlier tool results. */
export function readGrounding(input: GroundingInput): Grounding {
  const timeline = evidenceTimeline(input);
  const writes = input.tool_executions.filter((t) => t.status === "completed" && okWrite(t, input.events));
  const out: Grounding = { spoken: [], ungrounded: [], claims: [], unbacked: [] };
  for (const utterance of input.utterances) {
    for (const value of readValues(utterance.text)) {
      const ok = grounded(value, utterance.start_ms, timeline);
      out.spoken.push({ utterance, value, grounded: ok });
      if (!ok) out.ungrounded.push({ utterance, value });
    }
    for (const claim of readClaims(utterance.text)) {
      const candidates = writes.filter((t) => backs(t, claim));
      const backing = candidates.find((t) => t.completed_ms <= utterance.start_ms);
      out.claims.push({ utterance, claim, ...(backing ? { backing } : {}) });
      if (!backing) {
        // No candidate completed by then, so any is late: the first.
        const late = candidates[0];
        out.unbacked.push({ utterance, claim, ...(late ? { late } : {}) });
      }
    }
  }
  return out;
}

const KIND_NAMES: Record<ValueKind, string> = { time: "time", date: "date", count: "count", reference: "record id", money: "amount", phone: "phone number", name: "name" };

/** `utt.assistant.2 "11 p.m." (time 23:00, chars 31–38)` */
export function describeValue(u: UngroundedValue | { utterance: Utterance; value: SpokenValue }): string {
  const v = u.value;
  return `${u.utterance.evidence_id} "${v.text}" (${KIND_NAMES[v.kind]} ${v.readings.join(" or ")}, chars ${v.start}–${v.end})`;
}

export function describeClaim(u: UnbackedClaim): string {
  const where = `${u.utterance.evidence_id} "${u.claim.text}" (chars ${u.claim.start}–${u.claim.end}, at ${u.utterance.start_ms} ms)`;
  const what = u.claim.kind === "any" ? "an outcome" : `"${u.claim.kind}"`;
  return u.late
    ? `${where} claims ${what} before ${u.late.name} (${u.late.call_id}) completed at ${u.late.completed_ms} ms`
    : `${where} claims ${what} that no completed, successful write backs`;
}

// ---- expected facts --------------------------------------------------------------------------------

/** A fact's value as the language layer reads it: a typed value, or words to find. */
export type FactValue = { kind: ValueKind; readings: string[] } | { kind: "text"; words: string[] };

const ABBREVIATIONS: Record<string, string> = { street: "st", avenue: "ave", road: "rd", boulevard: "blvd", drive: "dr", lane: "ln", square: "sq" };
const textWords = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    // At each character that is no letter or digit; the empty words between two of them are dropped.
    .split(/[^\p{L}\p{N}]/u)
    .filter(Boolean)
    .map((w) => ABBREVIATIONS[w] ?? w);

/** "22:00" → time 22:00; "10 p.m." → time 22:00; 4 → count 4; "555-0142" → phone; "14 Quay Street" → words. */
export function factValue(value: string | number): FactValue {
  if (typeof value === "number") return { kind: "count", readings: [String(value)] };
  const structured = structuredValue(value);
  if (structured) return structured;
  // A value that is one spoken reading from end to end ("10 p.m.", "August 7", "$12.50") is typed; only a
  // full stop or an exclamation mark, then spaces, may follow it.
  const read = readValues(value);
  if (read.length === 1 && read[0]!.start === 0 && /^[.!]*\s*$/.test(value.slice(read[0]!.end))) return { kind: read[0]!.kind, readings: read[0]!.readings };
  return { kind: "text", words: textWords(value) };
}

export interface FactVerdict {
  fact: ExpectedFact;
  ok: boolean;
  detail: string;
  evidence_ids: string[];
}

function containsWords(haystack: string[], needle: string[]): boolean {
  // Stryker disable next-line ArithmeticOperator: equivalent, starts past the last possible one read words beyond the haystack (undefined), which match no word, so they find nothing
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((w, k) => haystack[i + k] === w)) return true;
  }
  return false;
}

/** Endings after the topic's stem without its final e: open-s, open-ed, open-ing, open-er; close-s, close-d, clos-ing, close-r. */
const INFLECTIONS = ["s", "d", "ing", "r"];

/** Whether a term is a form of a topic word: its lemma, or the word with an inflection ("closing" for "close"). */
function aboutTopic(term: { normal: string; root?: string }, topics: ReadonlySet<string>): boolean {
  if (topics.has(term.normal) || topics.has(term.root ?? term.normal)) return true;
  for (const t of topics) {
    const stem = t.replace(/e$/, "");
    if (!term.normal.startsWith(stem)) continue;
    // Stryker disable next-line Regex: equivalent, dropping the first e of the rest instead of a leading one differs only for a rest like "se", "de", "re" or "inge", which no form of a topic word ends in
    if (INFLECTIONS.includes(term.normal.slice(stem.length).replace(/^e/, ""))) return true;
  }
  return false;
}

/**
 * The spans of the sentences of an utterance that mention a topic word. compromise keeps "10 p.m. Street
 * parking…" as one sentence (the abbreviation's period), so a capital after "a.m."/"p.m." starts a new one.
 */
function topicSentences(text: string, about: readonly string[]): Array<{ start: number; end: number }> {
  const topics = new Set(about.map((a) => a.toLowerCase()));
  type T = { text: string; normal: string; root?: string; offset: { start: number; length: number } };
  const sentences: T[][] = [];
  for (const s of parsedJson(text) as Array<{ terms: T[] }>) {
    let current: T[] = [];
    s.terms.forEach((t, i) => {
      current.push(t);
      const next = s.terms[i + 1];
      if (next && startsSentence(t.text, next.text)) {
        sentences.push(current);
        current = [];
      }
    });
    sentences.push(current);
  }
  return sentences
    .filter((terms) => terms.some((t) => aboutTopic(t, topics)))
    .map((terms) => ({ start: terms[0]!.offset.start, end: terms[terms.length - 1]!.offset.start + terms[terms.length - 1]!.offset.length }));
}

/** Each expected fact against everything the assistant said: contained, or never contradicted near its topic. */
export function checkFacts(facts: readonly ExpectedFact[], utterances: readonly Utterance[]): FactVerdict[] {
  return facts.map((fact) => {
    const expected = factValue(fact.value);
    if (fact.must === "contain") {
      if (expected.kind === "text") {
        const said = utterances.find((u) => containsWords(textWords(u.text), expected.words));
        return said
          ? { fact, ok: true, detail: `${fact.key}: "${fact.value}" said in ${said.evidence_id}`, evidence_ids: [said.evidence_id] }
          : { fact, ok: false, detail: `${fact.key}: "${fact.value}" was never said`, evidence_ids: utterances.map((u) => u.evidence_id) };
      }
      for (const u of utterances) {
        const hit = readValues(u.text).find((v) => sameValue(v, expected));
        if (hit) return { fact, ok: true, detail: `${fact.key}: ${describeValue({ utterance: u, value: hit })} states ${fact.value}`, evidence_ids: [u.evidence_id] };
      }
      return { fact, ok: false, detail: `${fact.key}: no ${KIND_NAMES[expected.kind]} ${expected.readings.join(" or ")} ("${fact.value}") was said`, evidence_ids: utterances.map((u) => u.evidence_id) };
    }
    if (expected.kind === "text") return { fact, ok: false, detail: `${fact.key}: "${fact.value}" is not a time, date, count, amount, phone number or record id, so it cannot be contradicted; use must "contain"`, evidence_ids: [] };
    // The schema requires topic words here; a fact built without them has no sentence to be contradicted in.
    const about = fact.about ?? [];
    const contradictions: string[] = [];
    const ids: string[] = [];
    for (const u of utterances) {
      const sentences = topicSentences(u.text, about);
      for (const v of readValues(u.text)) {
        if (v.kind !== expected.kind || sameValue(v, expected)) continue;
        if (!sentences.some((s) => v.start >= s.start && v.end <= s.end)) continue;
        contradictions.push(describeValue({ utterance: u, value: v }));
        ids.push(u.evidence_id);
      }
    }
    return contradictions.length === 0
      ? { fact, ok: true, detail: `${fact.key}: nothing said about ${about.join("/")} contradicts ${fact.value}`, evidence_ids: [] }
      : { fact, ok: false, detail: `${fact.key}: ${contradictions.join("; ")} contradicts ${fact.value}`, evidence_ids: [...new Set(ids)] };
  });
}
