/**
 * Conformance to the public contract (docs/remote-assistant.md), both ways, against small programs written
 * from the public reference harness's contract alone (test/fixtures/client-service), each holding the other
 * side to it as strictly as it allows: crashlab's connector and harness against a minimal service that
 * knows nothing of fixtures (as the public reference harness's does not), and crashlab's reference service
 * against a minimal connector. What crosses to a service is only what the contract lists, and never
 * anything evaluator-only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { restaurantWorld } from "../crashlab/worlds/restaurant";
import type { AssistantService } from "../src/core/client-service/server";
import { run } from "../src/core/run/run";
import { EspeakSynthesizer } from "../src/core/speech/espeak";
import { createWorld } from "../src/core/world/world";
import { offlineConversation } from "./conversation-settings";
import { startMinimalService } from "./fixtures/client-service/minimal-service.mjs";
import { delegateOnce } from "./fixtures/client-service/minimal-connector.mjs";
import { faultProxy, recordingProxy, remotePlan, restaurantService, TOKEN } from "./remote-service-fixtures";

const speech = new EspeakSynthesizer();
const LIVE_TYPES = ["session.input_transcript.delta", "session.output_transcript.delta", "session.delegation.created", "session.closed"];

describe("crashlab against a minimal service written from the contract", () => {
  const booking = { guest_name: "Maya", date: "2026-08-14", time: "19:00", party_size: 2 };
  const minimalService = (report?: "full" | "execution_only") =>
    startMinimalService({
      token: TOKEN,
      state: createWorld(restaurantWorld, { seed: 0, trial: "owner", initialState: {}, now: () => 0 }).state(),
      booking,
      reply: (r: { reservation_id: string }) => `You're booked: a table for two under Maya on August 14 at 7 p.m. Your reservation number is ${r.reservation_id}.`,
      ...(report ? { report } : {}),
    });

  it("runs a booking through it: its tool call and state graded as its reports, nothing but the contract's messages sent", async () => {
    const minimal = await minimalService();
    try {
      const result = await run(remotePlan(minimal.url), { speech, selection: { ids: ["harbor_001"] }, target_settings: { delegation: "client" }, concurrency: 1 });
      const record = result.records[0]!;
      expect(minimal.violations).toEqual([]);
      expect(record.error).toBeNull();
      expect(record.status).toBe("passed");
      expect(record.reported_evidence).toEqual({ by: "target", tool_calls: 1, state_snapshots: 1, initial_state: "not_accepted" });
      expect(record.tool_executions).toEqual([expect.objectContaining({ name: "create_reservation", status: "completed", arguments: booking, reported_by: "target", output: expect.objectContaining({ reservation_id: "R-0001" }) })]);
      expect(record.checks.find((c) => c.id === "application_state")).toMatchObject({ status: "passed", rationale: "final state matches the expected fields (as reported by the target)" });
      expect(record.checks.find((c) => c.id === "verified_state_change")).toMatchObject({ status: "passed", rationale: "state changed by create_reservation (as reported by the target)" });
      // What it received: session.configure first, then only the four Live event types, the session's end last.
      const seen = minimal.seen as Array<{ type: string; event?: { type: string } }>;
      expect(seen[0]).toEqual({ type: "session.configure", initial_items: [] });
      expect(new Set(seen.slice(1).map((m) => m.type))).toEqual(new Set(["live.event"]));
      expect(new Set(seen.slice(1).map((m) => m.event!.type))).toEqual(new Set(LIVE_TYPES));
      expect(seen.at(-1)!.event!.type).toBe("session.closed");
      expect(seen.filter((m) => m.event?.type === "session.delegation.created")).toHaveLength(1);
    } finally {
      await minimal.close();
    }
  });

  it("takes a call reported only as its execution record, with the state after it", async () => {
    const minimal = await minimalService("execution_only");
    try {
      const result = await run(remotePlan(minimal.url), { speech, selection: { ids: ["harbor_001"] }, target_settings: { delegation: "client" }, concurrency: 1 });
      const record = result.records[0]!;
      expect(minimal.violations).toEqual([]);
      expect(record.error).toBeNull();
      expect(record.status).toBe("passed");
      expect(record.tool_executions).toEqual([expect.objectContaining({ name: "create_reservation", status: "completed", arguments: booking, reported_by: "target", output: expect.objectContaining({ reservation_id: "R-0001" }) })]);
      expect(record.checks.find((c) => c.id === "verified_state_change")).toMatchObject({ status: "passed", rationale: "state changed by create_reservation (as reported by the target)" });
    } finally {
      await minimal.close();
    }
  });

  it("holds every message crashlab sends in CRAWL, WALK and RUN to the contract: no violation, no fault", async () => {
    const minimal = await minimalService();
    try {
      const ids = ["harbor_001", "harbor_004_background_speech", "run_missing_name"];
      const result = await run(remotePlan(minimal.url), { speech, selection: { ids }, target_settings: { delegation: "client" }, concurrency: 1, conversation: offlineConversation() });
      expect(minimal.violations).toEqual([]);
      expect(result.records.map((r) => [r.trial_id, r.error])).toEqual(ids.map((id) => [`${id}#1`, null]));
      const seen = minimal.seen as Array<{ type: string; event?: { type: string } }>;
      // One session per trial, each configured first; the Live events of all three modes forwarded.
      expect(seen.filter((m) => m.type === "session.configure")).toHaveLength(ids.length);
      expect(new Set(seen.filter((m) => m.event).map((m) => m.event!.type))).toEqual(new Set(LIVE_TYPES));
    } finally {
      await minimal.close();
    }
  }, 180_000);
});

describe("crashlab's reference service against a minimal connector written from the contract", () => {
  let service: AssistantService;
  beforeAll(async () => {
    service = await restaurantService();
  });
  afterAll(async () => {
    await service.close();
  });

  it("answers a delegation with its tool call, the state after it, commentary, then its completion, and ends when told", async () => {
    const { ready, answered, closed, violations } = await delegateOnce({ url: service.url, token: TOKEN, words: "I'd like to book a table for two under Maya on August 14 at 7 p.m." });
    expect(violations).toEqual([]);
    expect(ready).toEqual({ type: "session.ready", accepts_fixtures: true });
    const events = answered.map((m: { type: string; event?: { type: string } }) => (m.type === "assistant.event" ? m.event!.type : m.type));
    expect(events).toEqual(["client_delegation.handoff", "response.created", "tool.called", "tool.completed", "response.completed", "live.send", "client_delegation.completed"]);
    const completed = answered[3].event;
    expect(completed).toMatchObject({ name: "create_reservation", arguments: { guest_name: "Maya", date: "2026-08-14", time: "19:00", party_size: 2 }, delegation_id: "dlg_conf_1", result: { status: "confirmed" } });
    expect(Object.values(completed.application_state.reservations)).toEqual([expect.objectContaining({ guest_name: "Maya", status: "confirmed" })]);
    expect(answered[5]).toMatchObject({ type: "live.send", event: { type: "session.commentary.append", delegation_id: "dlg_conf_1", content: expect.stringContaining(completed.result.reservation_id) } });
    expect(answered[6].event).toMatchObject({ delegation_id: "dlg_conf_1" });
    expect(closed).toBe(true);
  });

  it("takes the prior turns it is configured with as the conversation", async () => {
    const history = [
      { role: "user", text: "I'd like to book a table for two under Maya on August 14." },
      { role: "assistant", text: "What time would you like?" },
    ];
    // The contract's other configuration fields are taken too (the service runs its own prompts and tools).
    const configuration = { model: "any-model", instructions: "Be brief.", tools: [{ type: "function", name: "create_reservation" }] };
    const { answered, violations } = await delegateOnce({ url: service.url, token: TOKEN, words: "At 7 p.m., please.", history, configuration });
    expect(violations).toEqual([]);
    const called = answered.find((m: { event?: { type: string } }) => m.event?.type === "tool.called").event;
    expect(called).toMatchObject({ name: "create_reservation", arguments: { guest_name: "Maya", date: "2026-08-14", time: "19:00", party_size: 2 } });
  });

  it("refuses the connector without the token", async () => {
    await expect(delegateOnce({ url: service.url, token: "not-the-token-0123456789abcdefghijklmno", words: "hello" })).rejects.toThrow("HTTP 401");
  });
});

describe("what reaches a service over a whole trial", () => {
  it("is the contract's messages only, with nothing evaluator-only, for CRAWL, WALK and RUN cases", async () => {
    const service = await restaurantService();
    const sent: string[] = [];
    // A recording proxy in front of the service, taking down what the evaluator sent it.
    const proxy = await faultProxy(service.url, (m) => m);
    const recorder = await recordingProxy(proxy.url, sent);
    try {
      const ids = ["harbor_001", "harbor_013", "harbor_004_background_speech", "run_missing_name"];
      const result = await run(remotePlan(recorder.url), { speech, selection: { ids }, target_settings: { delegation: "client" }, concurrency: 1, conversation: offlineConversation() });
      expect(result.records.map((r) => r.status)).toEqual(["passed", "passed", "passed", "passed"]);
      const messages = sent.map((t) => JSON.parse(t) as { type: string; event?: { type: string } });
      expect(new Set(messages.map((m) => m.type))).toEqual(new Set(["session.configure", "session.fixture", "live.event"]));
      expect(new Set(messages.filter((m) => m.event).map((m) => m.event!.type))).toEqual(new Set(LIVE_TYPES));
      const text = sent.join("\n");
      for (const c of PLAN.cases.filter((c) => ids.includes(c.id))) {
        const e = c.scenario.expected;
        for (const secret of [e.answer, ...e.criteria, ...(e.golden_path?.steps ?? [])].filter((s): s is string => typeof s === "string" && s.length > 12)) expect(text).not.toContain(secret);
      }
      expect(text).not.toContain('"expected"');
    } finally {
      await recorder.close();
      await proxy.close();
      await service.close();
    }
  }, 180_000);
});
