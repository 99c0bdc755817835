import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { run } from "../src/core/run/run";
import { EspeakSynthesizer } from "../src/core/speech/index";
import { offlineConversation } from "./conversation-settings";

/**
 * Over the real wire protocol: nothing evaluator-only is ever sent to the GPT-Live target. Every frame
 * the client sent (recorded verbatim in the event log) is checked, in both delegation modes, for every
 * bundled case — and for WALK cases, the reference transcript (`input.text`) must not be sent either.
 * RUN conversations are included: besides `expected`, the simulated caller's private script (goal,
 * agenda, expectations, persona) stays on the caller's side; only what the caller says, as audio, goes.
 */
const speech = new EspeakSynthesizer({ voice: "coral" });

function secretsOf(scenario: (typeof PLAN.cases)[number]["scenario"]): string[] {
  const e = scenario.expected;
  const sim = scenario.simulation_parameters;
  const callerOnly = sim
    ? [sim.goal, sim.persona.description, ...sim.expectations, ...sim.agenda.flatMap((i) => [i.commitment, i.trigger_condition, i.completion_condition])]
    : [];
  return [e.answer, ...e.criteria, ...(e.golden_path?.steps ?? []), JSON.stringify(e.state), JSON.stringify(e.tools), JSON.stringify(e.facts ?? null), JSON.stringify(e.procedure ?? null), ...callerOnly].filter(
    (s) => s.length > 12,
  );
}

describe("evaluator-only data never crosses the wire", () => {
  it.each(["responses", "client"] as const)("with %s delegation", async (delegation) => {
    // Every frame logged, the 20 ms audio appends too (by default those are only counted).
    const result = await run(PLAN, { speech, conversation: offlineConversation(), target_settings: { delegation }, concurrency: 4, log_audio_events: true });
    expect(result.records.length).toBe(PLAN.cases.length);
    expect(result.records.filter((r) => r.case_kind === "run").length).toBeGreaterThanOrEqual(11);
    expect(result.records.filter((r) => r.status === "infrastructure_error").map((r) => `${r.trial_id}: ${r.error?.message}`)).toEqual([]);
    for (const record of result.records) {
      const c = PLAN.cases.find((x) => x.id === record.case_id)!;
      const sent = record.events
        .filter((e) => e.type === "raw" && (e.data as { direction: string }).direction === "sent")
        .map((e) => JSON.stringify((e.data as { event: unknown }).event));
      expect(sent.length).toBeGreaterThan(10);
      const wire = sent.join("\n");
      for (const secret of secretsOf(c.scenario)) expect(wire, `${record.trial_id} sent "${secret.slice(0, 50)}"`).not.toContain(secret);
      if (c.recording) expect(wire, `${record.trial_id} sent its reference transcript`).not.toContain(c.scenario.input.text);
      // What must go: the session config first, with the authorized context when there is one.
      expect(sent[0]).toContain('"type":"session.start"');
      if (c.scenario.input.context?.summary) expect(sent[0]).toContain(c.scenario.input.context.summary);
    }
  }, 900_000);
});
