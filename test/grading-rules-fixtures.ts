/**
 * Scripted trials over real worlds for the grading-rule tests: each step says something, calls an
 * operation of a live world (its real events and outcomes are recorded) or is a caller line with acts; the
 * result is the GradingInput the verify stage would build. Two domains: the bundled restaurant world and a
 * small clinic world written here with `defineWorld`.
 */
import { z } from "zod";
import { restaurantWorld } from "../crashlab/worlds/restaurant";
import { Scenario } from "../src/core/dataset/schema";
import type { ToolExecution, Turn } from "../src/core/record/trial-record";
import { lexiconOf } from "../src/core/language/vocabulary";
import { accessRecords } from "../src/core/verify/disclosure";
import type { GradingInput } from "../src/core/verify/deterministic";
import type { ProcedureCallerLine } from "../src/core/verify/procedure";
import { defineWorld } from "../src/core/world/define";
import { OperationError, type Json, type WorldDefinition } from "../src/core/world/types";
import { createWorld } from "../src/core/world/world";

// ── A clinic: appointments with doctors, slots a patient may look up, their own appointments only ──────

const Appointment = z.strictObject({ id: z.string(), patient: z.string(), doctor: z.string(), date: z.string(), time: z.string(), status: z.enum(["booked", "cancelled"]) });
const ClinicState = z.strictObject({
  appointments: z.record(z.string(), Appointment),
  free: z.array(z.strictObject({ doctor: z.string(), date: z.string(), time: z.string() })),
  patient: z.strictObject({ name: z.string(), own: z.array(z.string()) }),
});
type ClinicState = z.output<typeof ClinicState>;

export const clinicWorld = defineWorld<ClinicState>({
  name: "clinic",
  version: "1.0.0",
  state: ClinicState,
  operations: {
    find_slot: {
      kind: "read",
      effect: "read",
      description: "Whether a doctor has a free slot on a date and time.",
      args: z.strictObject({ doctor: z.string(), date: z.string(), time: z.string() }),
      run: ({ state, args }) => ({ doctor: args.doctor, date: args.date, time: args.time, free: state.free.some((f) => f.doctor === args.doctor && f.date === args.date && f.time === args.time) }),
    },
    book_appointment: {
      kind: "write",
      effect: "create",
      entity: "appointment",
      description: "Book an appointment in a free slot.",
      args: z.strictObject({ patient: z.string(), doctor: z.string(), date: z.string(), time: z.string() }),
      run: ({ state, base, args, random }) => {
        if (!base.free.some((f) => f.doctor === args.doctor && f.date === args.date && f.time === args.time)) throw new OperationError("slot_taken", "That slot is not free.");
        const id = random.id("C");
        state.appointments[id] = { id, ...args, status: "booked" };
        return { appointment_id: id, doctor: args.doctor, date: args.date, time: args.time };
      },
    },
    cancel_appointment: {
      kind: "write",
      effect: "cancel",
      entity: "appointment",
      description: "Cancel one of the patient's appointments.",
      args: z.strictObject({ appointment_id: z.string() }),
      run: ({ state, base, args }) => {
        const a = base.appointments[args.appointment_id];
        if (!a) throw new OperationError("not_found", "No such appointment.");
        if (!base.patient.own.includes(args.appointment_id)) throw new OperationError("not_authorized", "Not this patient's appointment.");
        if (a.status === "cancelled") throw new OperationError("already_cancelled", "Already cancelled.");
        state.appointments[args.appointment_id]!.status = "cancelled";
        return { appointment_id: args.appointment_id, status: "cancelled" };
      },
    },
  },
  // The clinic's words: "You're booked" claims a create here too.
  vocabulary: { verbs: { book: "create", schedule: "create" }, nouns: ["visit"] },
  access: { records: (state) => state.appointments, readable: (state, id) => state.patient.own.includes(id) },
});

export const CLINIC_STATE: ClinicState = {
  appointments: {
    "C-100": { id: "C-100", patient: "Ines Duarte", doctor: "Osei", date: "2026-09-14", time: "09:30", status: "booked" },
    "C-200": { id: "C-200", patient: "Bruno Keller", doctor: "Osei", date: "2026-09-14", time: "11:00", status: "booked" },
  },
  free: [
    { doctor: "Osei", date: "2026-09-15", time: "09:30" },
    { doctor: "Osei", date: "2026-09-15", time: "10:30" },
  ],
  patient: { name: "Ines Duarte", own: ["C-100"] },
};

export { restaurantWorld };

// ── Scripts ─────────────────────────────────────────────────────────────────────────────────────────

export type Step =
  | { say: string }
  | { caller: string; acts?: ProcedureCallerLine["acts"]; heard?: ProcedureCallerLine["heard"] }
  | { call: string; args: Record<string, Json> };

export interface ScriptOptions {
  world: WorldDefinition;
  initial: Record<string, unknown>;
  scenario: Scenario;
  case_kind?: "crawl" | "run";
  facts?: unknown;
}

/** Run a script against a fresh world; every step takes 1 s of trial time. */
export function script(options: ScriptOptions, steps: readonly Step[]): GradingInput {
  let now = 0;
  const world = createWorld(options.world, { seed: 1, trial: "t#1", initialState: options.initial, now: () => now });
  const turns: Turn[] = [];
  const tools: ToolExecution[] = [];
  const caller: ProcedureCallerLine[] = [];
  steps.forEach((step, i) => {
    now = (i + 1) * 1000;
    if ("say" in step) turns.push({ role: "assistant", text: step.say, start_ms: now, end_ms: now + 800 });
    else if ("caller" in step) {
      turns.push({ role: "user", text: step.caller, start_ms: now, end_ms: now + 800 });
      if (step.acts) caller.push({ text: step.caller, start_ms: now, end_ms: now + 800, acts: step.acts, heard: step.heard ?? null });
    } else {
      const outcome = world.perform(step.call, step.args, { trial: "t#1", call_id: `c${i + 1}` });
      tools.push({
        call_id: `c${i + 1}`,
        name: step.call,
        arguments: step.args,
        raw_arguments: JSON.stringify(step.args),
        status: outcome.outcome === "ok" ? "completed" : "failed",
        ...(outcome.outcome === "ok" ? { output: outcome.result ?? null } : { error: { code: outcome.error!.code, message: outcome.error!.message } }),
        requested_ms: now,
        completed_ms: now + 100,
        world_seq: outcome.seq,
      });
    }
  });
  const access = accessRecords(options.world.access, world.initial);
  return {
    scenario: options.scenario,
    case_kind: options.case_kind ?? "crawl",
    completed: true,
    completion_note: "completed",
    turns,
    delegations: [],
    tool_executions: tools,
    ...(caller.length > 0 ? { caller } : {}),
    ...(options.facts !== undefined ? { facts: options.facts } : {}),
    lexicon: lexiconOf(options.world),
    operation_kinds: Object.fromEntries(Object.entries(options.world.operations).map(([name, op]) => [name, op.kind])),
    ...(access !== null ? { access } : {}),
    world: { initial: world.initial, final: world.state(), view: world.view(), events: world.events(), diff: world.diff() },
  };
}

/** A scenario with these required tools (and optionally a procedure), nothing else expected. */
export function scenarioWith(text: string, required: Array<{ name: string; arguments?: Record<string, unknown>; status?: string }>, extra: Record<string, unknown> = {}, initial: Record<string, unknown> = {}): Scenario {
  return Scenario.parse({
    id: "s1",
    title: "scripted",
    type: "task",
    interaction: extra.procedure ? "multi_turn" : "single_turn",
    input: { text },
    application: { initial_state: initial },
    expected: { answer: "do it", delegation: "optional", tools: { required, prohibited: [] }, state: {}, ...extra },
  });
}
