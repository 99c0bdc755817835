/**
 * The simulated caller of RUN (docs/conversations.md): an independent party
 * that pursues a private goal in one continuous full-duplex conversation with the assistant under test.
 * It knows only its script — never the expected outcome, criteria, procedure, state or golden path.
 */
import type { Lexicon } from "../language/vocabulary";
import type { Clock } from "../time/clock";
import type { Json } from "../world/types";

export type AgendaAction = "answer" | "correct" | "backchannel" | "interrupt" | "finish" | "wait";

/** One agenda item, as the dataset states it (docs/datasets.md, `simulation_parameters.agenda`). */
export interface AgendaItem {
  id: string;
  commitment: string;
  trigger_condition: string;
  completion_condition: string;
  completion_basis: "expression" | "live_context";
  wording_policy: "adapt_to_live_context" | "source_exact_preferred";
  action: AgendaAction;
  facts: string[];
  response_hint?: string;
  after: string[];
  required: boolean;
}

export interface Persona {
  id: string;
  description: string;
  voice: string;
  speech_instructions?: string;
  verbosity: string;
  interrupt_tendency: number;
  backchannel_tendency: number;
  backchannels: string[];
}

/** All the caller may know. Built from `simulation_parameters` and `input.text` only. */
export interface CallerScript {
  /** The caller's first request (`input.text`): said first when the caller opens, else after the assistant's greeting. */
  request: string;
  /** Who speaks first: the caller (its request) or the assistant (a greeting). */
  opens: "caller" | "assistant";
  goal: string;
  persona: Persona;
  known_facts: Record<string, string | number | boolean>;
  agenda: AgendaItem[];
  expectations: string[];
  /** The world's words (verbs, field names): how the offline caller reads the assistant. Generic English without them. */
  lexicon?: Lexicon;
}

/** What the caller meant by an utterance, as it intended it (labels on the record are inferred after the fact). */
export type CallerIntent = "opening" | "answer" | "correct" | "backchannel" | "interrupt" | "finish" | "closing";

/** What one caller line does, as the caller meant it (recorded by the offline caller; procedure grading reads it). */
export type CallerAct =
  | { kind: "request" }
  | { kind: "give"; field: string; value: string | number | boolean }
  | { kind: "correct"; field: string; value: string | number | boolean }
  | { kind: "confirm" }
  | { kind: "decline" }
  | { kind: "ask" }
  | { kind: "interrupt" }
  | { kind: "backchannel" }
  | { kind: "repeat_request" }
  | { kind: "end" };

/** What the caller took the assistant's turn before its line to ask. */
export type HeardAsk = { kind: "fields"; fields: string[] } | { kind: "go_ahead"; action: string | null } | { kind: "question" };

/** One thing the caller said, on the trial timeline. `end_ms` is null while it is still speaking. */
export interface CallerUtterance {
  text: string;
  intent: CallerIntent;
  agenda_item: string | null;
  start_ms: number;
  end_ms: number | null;
  /** The offline caller's acts for this line; absent for the live caller, which keeps no agenda. */
  acts?: CallerAct[];
  /** What it took the assistant's turn just before this line to ask (null: nothing); absent for the live caller. */
  heard?: HeardAsk | null;
}

export interface AgendaProgress {
  id: string;
  status: "done" | "pending";
  at_ms: number | null;
}

export interface CallerProgress {
  agenda: AgendaProgress[];
  /** Every required agenda item is done; null when this caller cannot tell (the live caller keeps no agenda of its own). */
  goal_met: boolean | null;
  /** The caller pressed as far as its agenda allows and the assistant still refused. */
  finally_refused: boolean;
  /** The caller said its closing words (a `finish` item, or goodbye after a final refusal). */
  closing_said: boolean;
  /** The caller is speaking right now. */
  speaking: boolean;
}

/** The harness side of a caller session. */
export interface CallerIO {
  clock: Clock;
  /** Trial seed: the caller's choices (backchannel moments) derive from it, so runs repeat exactly. */
  seed: number;
  signal: AbortSignal;
  /** Log a caller event into the trial's event log (source "harness", type `caller.<kind>`). */
  log(kind: string, data: Json): void;
  /**
   * A new utterance is about to be sent: the relay may degrade its audio (an acoustic condition) and, for
   * an offline target, announces it; the caller sends exactly the PCM returned (same length).
   */
  utteranceAudio(utterance: CallerUtterance, pcm: Uint8Array): Uint8Array;
}

/** One conversation's caller. Frames are 20 ms of PCM16, 24 kHz mono. */
export interface CallerSession {
  /** The assistant's audio as it plays to the caller (the live caller listens to it). */
  hear(frame: Uint8Array, at_ms: number): void;
  /** The assistant's words as the Live protocol delivers them (the offline caller's only understanding). */
  hearAssistantText(text: string, at_ms: number): void;
  /** The assistant's speech started or stopped (the offline caller's sense of who holds the floor). */
  hearAssistantSpeaking(speaking: boolean, at_ms: number): void;
  /** The caller's next 20 ms frame; zeros when it is silent. Never blocks. */
  speak(at_ms: number): Uint8Array;
  progress(): CallerProgress;
  utterances(): CallerUtterance[];
  /** Why the caller cannot go on (its session or backend failed); the trial ends at `caller_simulation`. */
  failure(): string | null;
  close(): Promise<void>;
}

export interface SimulatedCaller {
  readonly kind: "offline" | "live";
  /** Provenance of the caller (never a secret). */
  describe(): Record<string, Json>;
  /** The caller's voice: must differ from the assistant's. */
  readonly voice: string;
  start(script: CallerScript, io: CallerIO): Promise<CallerSession>;
}
