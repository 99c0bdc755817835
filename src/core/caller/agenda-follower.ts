/**
 * What the offline caller says next, decided from its script and its reading of the assistant's turn
 * (./understanding): the agenda item whose moment has come; a yes to a go-ahead for what its goal wants; for
 * a question it does not place, the next item it owes, or a request to repeat (at most twice in a row);
 * its own goodbye once its goal is met or it was finally refused. Never a hang-up on a question it did not
 * understand. Each line carries its acts and what the caller heard, for the trial record.
 *
 * Pure and clock-free, so the audio caller (./offline-caller) and text-level tests decide alike.
 */
import { mentionsValue, saysGoodbye } from "../language/cues";
import { givesGoAhead, isQuestion as isQuestionSentence } from "../language/reader";
import { GENERIC, type Lexicon } from "../language/vocabulary";
import { bestTrigger } from "./triggers";
import { actionsNamed, heardAsk, understand, type CallerAction, type Understanding } from "./understanding";
import type { AgendaItem, CallerAct, CallerIntent, CallerScript, HeardAsk } from "./types";

type Value = string | number | boolean;

/** One line the caller decided to say. `item` is the agenda item it says, if any. */
export interface CallerLine {
  text: string;
  intent: CallerIntent;
  item: AgendaItem | null;
  acts: CallerAct[];
  heard: HeardAsk | null;
}

const REPEAT = "Sorry, could you say that again?";
/** At most this many requests to repeat in a row; then the caller answers from its agenda. */
const MAX_REPEATS = 2;
/** The caller's yes to a go-ahead for an action, in the world's verb ("Yes, please book it."). */
const yes = (action: CallerAction) => `Yes, please ${action} it.`;

export class AgendaFollower {
  readonly done = new Set<string>();
  closingSaid = false;
  finallyRefused = false;
  private repeats = 0;
  /** The assistant has refused at some point in the call. */
  private refused = false;
  /** The value the caller last said for each field (its request included). */
  private readonly given = new Map<string, Value>();
  /** Actions the assistant has reported done. */
  private readonly reported = new Set<CallerAction>();
  private readonly wanted: CallerAction[];
  private readonly fields: string[];
  /** The world's words, for reading the assistant (generic English without them). */
  private readonly lexicon: Lexicon;

  constructor(
    private readonly script: CallerScript,
    /** Told when an item is done (said, or a `wait` moment reached). */
    private readonly onDone: (item: AgendaItem) => void = () => {},
  ) {
    this.lexicon = script.lexicon ?? GENERIC;
    this.wanted = actionsNamed(`${script.goal} ${script.request}`, this.lexicon);
    this.fields = Object.keys(script.known_facts);
  }

  /** A copy that decides alike from here on and tells no one what it marks done (to ask "what if"). */
  fork(): AgendaFollower {
    const copy = new AgendaFollower(this.script);
    for (const id of this.done) copy.done.add(id);
    for (const [k, v] of this.given) copy.given.set(k, v);
    for (const a of this.reported) copy.reported.add(a);
    copy.repeats = this.repeats;
    copy.refused = this.refused;
    copy.closingSaid = this.closingSaid;
    copy.finallyRefused = this.finallyRefused;
    return copy;
  }

  /** Every required agenda item is done. */
  goalMet(): boolean {
    return this.script.agenda.every((i) => !i.required || this.done.has(i.id));
  }

  /**
   * Nothing left to want: the agenda is done and what the goal asks for was reported done (or refused).
   * A caller whose details are all given but whose table is not booked yet does not say goodbye to a
   * question it cannot place.
   */
  private satisfied(refusedNow: boolean): boolean {
    return this.goalMet() && (refusedNow || this.refused || this.wanted.every((a) => this.reported.has(a)));
  }

  /** Its opening request (`heard`: the assistant's greeting, when it opened the call). */
  opening(greeting: string | null): CallerLine {
    const text = this.script.request;
    const acts: CallerAct[] = [{ kind: "request" }];
    // The details the request already states, as it states them ("for two on August 12").
    for (const field of this.slotFields()) {
      const value = this.candidates(field).find((v) => mentionsValue(text, v) !== null);
      if (value !== undefined) {
        acts.push({ kind: "give", field, value });
        this.given.set(field, value);
      }
    }
    return { text, intent: greeting === null ? "opening" : "answer", item: null, acts, heard: greeting === null ? null : heardAsk(understand(greeting, this.fields, this.lexicon)) };
  }

  /** While the assistant speaks: an interrupt item whose moment its words so far have reached. */
  interruptAt(text: string): CallerLine | null {
    const items = this.eligible().filter((i) => i.action === "interrupt");
    if (items.length === 0) return null;
    const turn = understand(text, this.fields, this.lexicon);
    const hit = bestTrigger(turn, items);
    return hit ? this.take(hit.item, turn, false) : null;
  }

  /** While the assistant speaks: a backchannel item the agenda writes for this moment. */
  backchannelAt(text: string): CallerLine | null {
    const items = this.eligible().filter((i) => i.action === "backchannel");
    if (items.length === 0) return null;
    const turn = understand(text, this.fields, this.lexicon);
    const hit = bestTrigger(turn, items);
    return hit ? this.take(hit.item, turn, false) : null;
  }

  /** A persona backchannel ("Mm-hmm."): acts only. */
  backchannel(text: string): CallerLine {
    return { text, intent: "backchannel", item: null, acts: [{ kind: "backchannel" }], heard: null };
  }

  /** After an assistant turn settled: what to say, or null to keep listening. */
  respondTo(text: string): CallerLine | null {
    const turn = understand(text, this.fields, this.lexicon);
    for (const move of turn.moves) if (move.kind === "report_done") for (const action of move.action ? [move.action] : this.wanted) this.reported.add(action);
    const refused = turn.moves.some((m) => m.kind === "refuse");
    const satisfied = this.satisfied(refused);
    this.refused ||= refused;
    // `wait` items are moments the caller waits for: reaching one says nothing.
    for (const w of this.eligible().filter((i) => i.action === "wait")) if (bestTrigger(turn, [w])) this.markDone(w);
    const speakable = this.eligible().filter((i) => i.action !== "wait" && i.action !== "backchannel");
    const matched = bestTrigger(turn, speakable)?.item;
    if (matched) return this.take(matched, turn, refused);

    const heard = heardAsk(turn);
    const owed = speakable.find((i) => i.required && (i.action === "answer" || i.action === "correct"));
    if (heard?.kind === "go_ahead") {
      // A value still to correct comes before any yes; otherwise yes to what the goal wants, no to anything else.
      if (owed?.action === "correct") return this.take(owed, turn, refused);
      const action = heard.action as CallerAction | null;
      const wants = action === null ? this.wanted.some((a) => !this.reported.has(a)) : this.wanted.includes(action) && !this.reported.has(action);
      if (wants) return this.line(action ? yes(action) : "Yes, please go ahead.", "answer", [{ kind: "confirm" }], heard);
      return this.line("No, thank you.", "answer", [{ kind: "decline" }], heard);
    }
    if (heard) {
      if (heard.kind === "fields") {
        // Asked for details: the owed item that gives one of them, else the next owed item.
        const giving = speakable.find((i) => i.required && (i.action === "answer" || i.action === "correct") && i.facts.some((f) => heard.fields.includes(f)));
        if (giving ?? owed) return this.take((giving ?? owed)!, turn, refused);
      }
      if (satisfied) {
        // Done: its own goodbye item if the agenda has one left, else a plain goodbye.
        const finish = speakable.find((i) => i.action === "finish");
        return finish ? this.take(finish, turn, refused) : this.closing(refused, heard);
      }
      // An alternative it has nothing for ("Would you like to try a different time?"): no, thank you. A request
      // to repeat would only draw the same offer again (or, from some assistants, the same failed write).
      if (!owed && turn.moves.some((m) => m.kind === "offer_alternative")) return this.line("No, thank you.", "answer", [{ kind: "decline" }], heard);
      const placed = turn.moves.some((m) => m.kind === "ask_fields" || m.kind === "anything_else" || m.kind === "offer_alternative");
      if (owed && (placed || this.repeats >= MAX_REPEATS)) return this.take(owed, turn, refused);
      if (this.repeats < MAX_REPEATS) {
        this.repeats++;
        return { text: REPEAT, intent: "answer", item: null, acts: [{ kind: "repeat_request" }], heard };
      }
      // Repeated enough and nothing owed: anything the agenda still has to give, else keep listening.
      const next = speakable.find((i) => i.action === "answer" || i.action === "correct");
      return next ? this.take(next, turn, refused) : null;
    }
    if (refused && this.goalMet()) return this.closing(true, null);
    // The assistant said goodbye: the call is over, whatever is left undone.
    if (turn.moves.some((m) => m.kind === "goodbye")) return this.closing(refused, null, "Thank you, goodbye.");
    return null;
  }

  // ---- lines --------------------------------------------------------------------------------------------

  private line(text: string, intent: CallerIntent, acts: CallerAct[], heard: HeardAsk | null): CallerLine {
    this.repeats = 0;
    return { text, intent, item: null, acts, heard };
  }

  private closing(refused: boolean, heard: HeardAsk | null, text = refused ? "Fine. Goodbye." : "No, that's all. Thank you, goodbye."): CallerLine {
    this.finallyRefused = refused;
    this.closingSaid = true;
    return this.line(text, "closing", [{ kind: "end" }], heard);
  }

  /** Say an agenda item: its response hint (or its facts), with the acts the item and its words make. */
  private take(item: AgendaItem, turn: Understanding, refused: boolean): CallerLine {
    this.markDone(item);
    this.repeats = 0;
    const text = item.response_hint ?? this.phrase(item);
    const heard = heardAsk(turn);
    if (item.action === "finish") {
      this.closingSaid = true;
      this.finallyRefused = refused;
    }
    return { text, intent: intentOf(item), item, acts: this.actsOf(item, text, heard), heard };
  }

  private actsOf(item: AgendaItem, text: string, heard: HeardAsk | null): CallerAct[] {
    const acts: CallerAct[] = [];
    if (item.action === "interrupt") acts.push({ kind: "interrupt" });
    if (item.action === "backchannel") return [{ kind: "backchannel" }];
    const first = text.trim().toLowerCase().split(/[^a-z']+/)[0] ?? "";
    if (["no", "nope", "nah"].includes(first) && heard?.kind === "go_ahead") acts.push({ kind: "decline" });
    else if (givesGoAhead(text) && (heard?.kind === "go_ahead" || ["yes", "yeah", "yep", "sure", "okay", "ok"].includes(first))) acts.push({ kind: "confirm" });
    acts.push(...this.factActs(item, text));
    if (item.action !== "finish" && splitSentences(text).some(isQuestionSentence)) acts.push({ kind: "ask" });
    if (item.action === "finish" || saysGoodbye(text)) acts.push({ kind: "end" });
    return acts;
  }

  /**
   * The values an item's line gives: each fact as the line says it (a caller reading out its first, mistaken
   * value says that one). A value replacing one the caller said earlier is a correction; a `correct` item
   * whose earlier values cannot be told corrects all its facts, as the dataset says.
   */
  private factActs(item: AgendaItem, text: string): CallerAct[] {
    const acts: Array<{ kind: "give" | "correct"; field: string; value: Value }> = [];
    for (const field of item.facts) {
      const options = this.candidates(field);
      if (options.length === 0) continue;
      const value = options.find((v) => mentionsValue(text, v) !== null) ?? options[0]!;
      const before = this.given.get(field);
      acts.push({ kind: before !== undefined && before !== value ? "correct" : "give", field, value });
    }
    if (item.action === "correct" && !acts.some((a) => a.kind === "correct")) for (const a of acts) if (a.value === this.script.known_facts[a.field]) a.kind = "correct";
    for (const a of acts) this.given.set(a.field, a.value);
    return acts;
  }

  /** A field's current value first, then the earlier values the script names for it (`first_date`, `sisters_reservation_id`). */
  private candidates(field: string): Value[] {
    const facts = this.script.known_facts;
    const out: Value[] = facts[field] !== undefined ? [facts[field]!] : [];
    for (const [key, value] of Object.entries(facts)) if (key !== field && key.endsWith(`_${field}`) && !out.includes(value)) out.push(value);
    return out;
  }

  /** Fields with a current value, not the earlier values named after them. */
  private slotFields(): string[] {
    return this.fields.filter((f) => !this.fields.some((g) => g !== f && f.endsWith(`_${g}`)));
  }

  /** Without a response hint: the facts the item gives, as the caller knows them, or its commitment. */
  private phrase(item: AgendaItem): string {
    if (item.action === "finish") return "Thank you, goodbye.";
    if (item.action === "backchannel") return this.script.persona.backchannels[0] ?? "Mm-hmm.";
    const values = item.facts.map((f) => this.script.known_facts[f]).filter((v) => v !== undefined);
    return values.length ? `${values.join(", ")}.` : item.commitment;
  }

  private markDone(item: AgendaItem): void {
    if (this.done.has(item.id)) return;
    this.done.add(item.id);
    this.onDone(item);
  }

  /** Pending items whose `after` items are all done. */
  eligible(): AgendaItem[] {
    return this.script.agenda.filter((i) => !this.done.has(i.id) && i.after.every((a) => this.done.has(a)));
  }
}

function splitSentences(text: string): string[] {
  return understand(text).sentences.map((s) => s.text);
}

function intentOf(item: AgendaItem): CallerIntent {
  if (item.action === "correct") return "correct";
  if (item.action === "finish") return "finish";
  if (item.action === "interrupt") return "interrupt";
  if (item.action === "backchannel") return "backchannel";
  return "answer";
}
