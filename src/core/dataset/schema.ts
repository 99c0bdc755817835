/** The scenario dataset schema (docs/datasets.md): scenarios, their inputs and the evaluator's expectations. */

import { z } from "zod";

/** Scenario datasets (docs/datasets.md) (schema_version "1.0"). Unknown fields are rejected everywhere. */
export const DATASET_SCHEMA_VERSION = "1.0";

/** Ids name artifact folders: one safe path component, no dots-only names, no separators. */
export const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const id = z
  .string()
  .regex(SAFE_ID, "must be a safe path component: letters, digits, '_', '-', '.', starting with a letter or digit (no '/', '\\' or '..')")
  .refine((s) => !s.includes(".."), "must not contain '..'");

const jsonObject = z.record(z.string(), z.json());

/** Text a person wrote: at least one non-space character. */
const text = z.string().refine((t) => t.trim() !== "", "is empty or only whitespace");
/** Words the caller says (CRAWL synthesizes them; WALK grades against them): a letter or digit somewhere. */
const words = z
  .string()
  .refine((t) => t.trim() !== "", "is empty or only whitespace; give the caller's words")
  .refine((t) => t.trim() === "" || /[\p{L}\p{N}]/u.test(t), "has no letter or digit; give the caller's words, not only punctuation or symbols");

/**
 * Recording paths are relative to the dataset file and stay inside its folder, with forward slashes,
 * so a dataset and its audio move together and a dataset from elsewhere cannot make crashlab read
 * files outside it. (Symbolic links inside the folder are followed: see walk/recordings.ts.)
 */
export const RecordingPath = z
  .string()
  .min(1)
  .superRefine((p, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: "custom", message });
    if (p.startsWith("/") || /^[A-Za-z]:/.test(p) || p.startsWith("\\")) fail("must be relative to the dataset file, not absolute; move the audio beside the dataset (e.g. audio/caller.wav)");
    else if (p.includes("\\")) fail("must use forward slashes ('/'), not backslashes");
    else if (/[\u0000-\u001f\u007f]/.test(p)) fail("must not contain control characters (a NUL, a line break, a tab…); rename the file and write its path as it is on disk");
    else if (p.split("/").includes("..")) fail("must not contain '..': recordings live in the dataset's folder or below it");
    else if (p.split("/").some((part) => part === "" || part === ".") ) fail("must not contain empty or '.' segments (write audio/caller.wav)");
  });

export const Condition = z.enum(["clean", "noisy", "telephony", "background_speech", "echo", "packet_loss", "realistic"]);

export const Recording = z.strictObject({
  id,
  path: RecordingPath,
  condition: Condition.default("clean"),
  metadata: z.record(z.string(), z.json()).default({}),
});

export const HistoryMessage = z.strictObject({
  role: z.enum(["user", "assistant"]),
  text,
});

export const Context = z
  .strictObject({
    summary: text.optional(),
    history: z.array(HistoryMessage).max(128, "history holds at most 128 messages").optional(),
  })
  .refine((c) => c.summary !== undefined || c.history !== undefined, "context needs a summary, a history, or both");

export const ExpectedCall = z
  .strictObject({
    name: z.string().min(1),
    arguments: jsonObject.default({}),
    /** completed: carried out; refused: tried and not carried out (an expected refusal); any: either. */
    status: z.enum(["any", "completed", "refused"]).default("completed"),
    /** With status "refused": the refusal's code (an OperationError's code, e.g. "not_authorized"). */
    error: z.string().min(1).optional(),
  })
  .refine((call) => call.error === undefined || call.status === "refused", {
    path: ["error"],
    message: 'names the code of a refusal, so it needs "status": "refused"',
  });
export type ExpectedCall = z.infer<typeof ExpectedCall>;

export const ProcedureStep = z
  .strictObject({
    id,
    kind: z.enum(["clarification", "tool", "correction", "authorization", "state", "grounded_confirmation", "refusal"]),
    tool: z.string().optional(),
    arguments: jsonObject.optional(),
    after: z.array(z.string()).default([]),
    required: z.boolean().default(true),
    critical: z.boolean().default(false),
    /** Refusal steps only: the assistant refused at least this many times. */
    minimum_count: z.number().int().min(1).optional(),
  })
  .refine((s) => !s.critical || s.required, { message: "a critical step must be required", path: ["critical"] })
  .refine((s) => s.minimum_count === undefined || s.kind === "refusal", {
    message: "minimum_count counts refusals, so only a refusal step may have it: remove it, or make the step's kind \"refusal\"",
    path: ["minimum_count"],
  });

/**
 * A fact the answer must contain, or must not contradict (evaluator-only, like all of `expected`). Values
 * are compared after the language layer normalizes them ("22:00" = "10 p.m." = "ten in the evening");
 * a value that is no time, date, count, amount, phone number or record id is found as words.
 */
export const ExpectedFact = z
  .strictObject({
    /** Names the fact in verdicts ("closing_time"). */
    key: z.string().min(1),
    value: z.union([text, z.number()]),
    must: z.enum(["contain", "not_contradict"]).default("contain"),
    /** not_contradict: words of the fact's topic (lemmas: "close" also finds "closes", "closing"); a differing value of the same kind in a sentence that mentions one contradicts it. */
    about: z.array(text).min(1).optional(),
  })
  .refine((f) => f.must !== "not_contradict" || f.about !== undefined, {
    message: 'a "not_contradict" fact needs "about": the words of its topic (for example ["close"] for a closing time)',
    path: ["about"],
  });
export type ExpectedFact = z.infer<typeof ExpectedFact>;

export const Expected = z.strictObject({
  answer: z.string(),
  criteria: z.array(z.string()).default([]),
  delegation: z.enum(["required", "forbidden", "optional"]).default("optional"),
  tools: z
    .strictObject({
      required: z.array(ExpectedCall).default([]),
      prohibited: z.array(ExpectedCall).default([]),
    })
    .default({ required: [], prohibited: [] }),
  state: jsonObject.default({}),
  golden_path: z
    .strictObject({
      turns: z.number().int().min(0),
      delegations: z.number().int().min(0).optional(),
      steps: z.array(z.string()).default([]),
    })
    .optional(),
  diagnostic_terms: z.array(z.string()).optional(),
  procedure: z
    .strictObject({
      id,
      steps: z.array(ProcedureStep),
    })
    .optional(),
  facts: z.array(ExpectedFact).optional(),
});

export const AgendaItem = z.strictObject({
  id,
  commitment: z.string(),
  trigger_condition: z.string(),
  completion_condition: z.string(),
  // Defaults as in the public reference harness, whose RUN datasets leave these out.
  completion_basis: z.enum(["expression", "live_context"]).default("expression"),
  wording_policy: z.enum(["adapt_to_live_context", "source_exact_preferred"]).default("adapt_to_live_context"),
  action: z.enum(["answer", "correct", "backchannel", "interrupt", "finish", "wait"]),
  facts: z.array(z.string()).default([]),
  response_hint: z.string().optional(),
  after: z.array(z.string()).default([]),
  required: z.boolean().default(true),
});

export const Persona = z.strictObject({
  id: z.string().default("default"),
  description: z.string(),
  voice: z.string().default("coral"),
  speech_instructions: z.string().optional(),
  verbosity: z.string().default("brief"),
  interrupt_tendency: z.number().min(0).max(1).default(0.15),
  backchannel_tendency: z.number().min(0).max(1).default(0.25),
  backchannels: z.array(z.string()).default(["Mm-hmm.", "Right."]),
});

export const SimulationParameters = z.strictObject({
  goal: z.string(),
  known_facts: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  expectations: z.array(z.string()).default([]),
  agenda: z.array(AgendaItem),
  persona: Persona,
  /**
   * How long the conversation may last, in seconds (1–3600). Optional, evaluator-side (the caller never
   * sees it): without it the limit is derived from the agenda and golden path
   * (src/core/trial/conversation/duration-limit.ts); `--max-duration-seconds` overrides both.
   */
  max_duration_seconds: z.number().min(1).max(3600).optional(),
});

export const Scenario = z.strictObject({
  id,
  title: text,
  type: z.string().optional(),
  interaction: z.enum(["single_turn", "multi_turn"]),
  tags: z.array(z.string()).default([]),
  input: z.strictObject({
    text: words,
    recordings: z.array(Recording).optional(),
    context: Context.optional(),
  }),
  application: z.strictObject({ initial_state: jsonObject }),
  expected: Expected,
  simulation_parameters: SimulationParameters.optional(),
});
export type Scenario = z.infer<typeof Scenario>;

export const Dataset = z.strictObject({
  schema_version: z.literal(DATASET_SCHEMA_VERSION),
  scenarios: z.array(Scenario).min(1, "a dataset needs at least one scenario"),
});
export type Dataset = z.infer<typeof Dataset>;
