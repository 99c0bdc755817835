import { describe, expect, it } from "vitest";
import {
  computeInteractionMetrics,
  type DelegationLifecycleEvent,
  delegationActivity,
  type Interval,
  TimelineInputError,
} from "../src/core/timeline";

const iv = (start_ms: number, end_ms: number): Interval => ({ start_ms, end_ms });

/** A Responses delegation whose tool call completes at 4000 and whose follow-up completes at 6000. */
const managed: DelegationLifecycleEvent[] = [
  { kind: "delegation_created", at_ms: 3000, delegation_id: "d1", target: "responses", response_id: "r1" },
  { kind: "backend_response_created", at_ms: 3100, delegation_id: "d1", response_id: "r1" },
  { kind: "tool_call_requested", at_ms: 3500, delegation_id: "d1", call_id: "c1" },
  { kind: "backend_response_completed", at_ms: 3600, delegation_id: "d1", response_id: "r1" },
  { kind: "tool_call_completed", at_ms: 4000, delegation_id: "d1", call_id: "c1" },
  { kind: "backend_response_created", at_ms: 4100, delegation_id: "d1", response_id: "r2" },
  { kind: "followup_response_completed", at_ms: 6000, delegation_id: "d1" },
];

describe("delegation activity", () => {
  it("keeps a managed delegation active after its tool completes, until the follow-up response completes", () => {
    // Open: r1 3000–3600, c1 3500–4000, the follow-up wait 4000–6000 (r2, created at 4100 during the
    // wait, is the follow-up and closes with it). Nothing is open from 6000 → active [3000,6000),
    // not [3000,4000) as it would be if the tool completion ended it.
    const [d1] = delegationActivity(managed, 10000);
    expect(d1).toEqual({
      delegation_id: "d1",
      target: "responses",
      created_ms: 3000,
      active_until_ms: 6000,
      intervals: [iv(3000, 6000)],
      open_items: [],
    });
  });

  it("treats the completion of a response created during the wait as the follow-up", () => {
    // Same run, reported only as backend responses: r2 was created (4100) while the follow-up was
    // awaited (since 4000), so its completion at 6000 ends the wait → active [3000,6000).
    const events = managed.filter((e) => e.kind !== "followup_response_completed");
    events.push({ kind: "backend_response_completed", at_ms: 6000, delegation_id: "d1", response_id: "r2" });
    expect(delegationActivity(events, 10000)[0]!.intervals).toEqual([iv(3000, 6000)]);
  });

  it("closes a follow-up response named by id", () => {
    // r2 is created at 3900, before the tool completes at 4000, so only its id ties it to the follow-up.
    const events: DelegationLifecycleEvent[] = [
      { kind: "delegation_created", at_ms: 3000, delegation_id: "d1", target: "responses", response_id: "r1" },
      { kind: "tool_call_requested", at_ms: 3500, delegation_id: "d1", call_id: "c1" },
      { kind: "backend_response_completed", at_ms: 3600, delegation_id: "d1", response_id: "r1" },
      { kind: "backend_response_created", at_ms: 3900, delegation_id: "d1", response_id: "r2" },
      { kind: "tool_call_completed", at_ms: 4000, delegation_id: "d1", call_id: "c1" },
      { kind: "followup_response_completed", at_ms: 5000, delegation_id: "d1", response_id: "r2" },
    ];
    expect(delegationActivity(events, 9000)[0]).toMatchObject({ active_until_ms: 5000, intervals: [iv(3000, 5000)], open_items: [] });
  });

  it("does not take an earlier response's completion for the follow-up", () => {
    // The tool completes at 3400, before r1 completes at 3600: r1 was created before the wait, so
    // its completion does not end it; without a follow-up the delegation stays open to the end.
    const events: DelegationLifecycleEvent[] = [
      { kind: "delegation_created", at_ms: 3000, delegation_id: "d1", target: "responses" },
      { kind: "backend_response_created", at_ms: 3100, delegation_id: "d1", response_id: "r1" },
      { kind: "tool_call_requested", at_ms: 3200, delegation_id: "d1", call_id: "c1" },
      { kind: "tool_call_completed", at_ms: 3400, delegation_id: "d1", call_id: "c1" },
      { kind: "backend_response_completed", at_ms: 3600, delegation_id: "d1", response_id: "r1" },
    ];
    expect(delegationActivity(events, 9000)[0]).toMatchObject({
      active_until_ms: null,
      intervals: [iv(3000, 9000)],
      open_items: ["followup"],
    });
  });

  it("ends a client delegation when its content is delivered, with no follow-up wait for its tools", () => {
    // created 1000; the application's own backend r1 runs a tool (1200–1500) and completes at 1800;
    // the speakable result is delivered at 2000 → active [1000,2000).
    const events: DelegationLifecycleEvent[] = [
      { kind: "delegation_created", at_ms: 1000, delegation_id: "c", target: "client" },
      { kind: "backend_response_created", at_ms: 1100, delegation_id: "c", response_id: "r1" },
      { kind: "tool_call_requested", at_ms: 1200, delegation_id: "c", call_id: "t1" },
      { kind: "tool_call_completed", at_ms: 1500, delegation_id: "c", call_id: "t1" },
      { kind: "backend_response_completed", at_ms: 1800, delegation_id: "c", response_id: "r1" },
      { kind: "client_content_delivered", at_ms: 2000, delegation_id: "c" },
    ];
    expect(delegationActivity(events, 5000)[0]).toMatchObject({ active_until_ms: 2000, intervals: [iv(1000, 2000)] });
  });

  it("waits for the first backend response of a Responses delegation created without a response id", () => {
    // Nothing but the delegation is known between 1000 and 1300; it is active all along → [1000,1700).
    const events: DelegationLifecycleEvent[] = [
      { kind: "delegation_created", at_ms: 1000, delegation_id: "d", target: "responses" },
      { kind: "backend_response_created", at_ms: 1300, delegation_id: "d", response_id: "r" },
      { kind: "backend_response_completed", at_ms: 1700, delegation_id: "d", response_id: "r" },
    ];
    expect(delegationActivity(events, 5000)[0]!.intervals).toEqual([iv(1000, 1700)]);
  });

  it("cuts a delegation still open at the end at the observation end and names what stayed open", () => {
    const events: DelegationLifecycleEvent[] = [
      { kind: "delegation_created", at_ms: 1000, delegation_id: "d", target: "responses" },
      { kind: "backend_response_created", at_ms: 1100, delegation_id: "d", response_id: "r1" },
    ];
    expect(delegationActivity(events, 5000)[0]).toMatchObject({
      active_until_ms: null,
      intervals: [iv(1000, 5000)],
      open_items: ["response:r1"],
    });
  });

  it("starts a new interval when activity resumes after everything closed", () => {
    // Client content at 2000 closes [1000,2000); a later tool call 3000–3500 reopens it.
    const events: DelegationLifecycleEvent[] = [
      { kind: "tool_call_completed", at_ms: 3500, delegation_id: "c", call_id: "t" },
      { kind: "delegation_created", at_ms: 1000, delegation_id: "c", target: "client" },
      { kind: "client_content_delivered", at_ms: 2000, delegation_id: "c" },
      { kind: "tool_call_requested", at_ms: 3000, delegation_id: "c", call_id: "t" },
    ];
    expect(delegationActivity(events, 9000)[0]).toMatchObject({ active_until_ms: 3500, intervals: [iv(1000, 2000), iv(3000, 3500)] });
  });

  it("rejects events for a delegation that was never created, and duplicate creations", () => {
    expect(() => delegationActivity([{ kind: "client_content_delivered", at_ms: 10, delegation_id: "x" }], 100)).toThrow(TimelineInputError);
    expect(() => delegationActivity([{ kind: "client_content_delivered", at_ms: 10, delegation_id: "x" }], 100)).toThrow(/delegation_created/);
    const created = { kind: "delegation_created", at_ms: 0, delegation_id: "x", target: "client" } as const;
    expect(() => delegationActivity([created, created], 100)).toThrow(/created twice/);
  });
});

describe("floor-hold silence with a managed tool completion", () => {
  it("counts the silence while the follow-up response is awaited", () => {
    // Delegation active [3000,6000) (see above). Caller speech [1000,2800); assistant ack
    // [3200,3700) and answer [5500,7000).
    // Silence = [3000,3200) 200 + [3700,5500) 1800 = 2000, longest 1800.
    // Had the delegation ended at the tool completion (4000), only 200 + 300 = 500 would count.
    const activity = delegationActivity(managed, 8000);
    const m = computeInteractionMetrics({
      caller: [{ utterance: 0, action: "SPEAK", start_ms: 1000, end_ms: 2800, voiced: [iv(1000, 2800)] }],
      assistantVoiced: [iv(3200, 3700), iv(5500, 7000)],
      delegations: activity,
      observationEndMs: 8000,
    });
    expect(m.floor_hold_silence_ms).toEqual({ cumulative: 2000, maximum: 1800 });
  });
});
