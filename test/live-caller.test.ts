import { afterEach, describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { DEFAULT_LIVE_CALLER, LiveCaller, callerInstructions } from "../src/core/caller/live-caller";
import { callerScript } from "../src/core/caller/script";
import { startLiveSimulator, type LiveSimulator } from "../src/core/simulator/server";
import { bridgedEar, transcriptBridge } from "./transcript-bridge";
import { run } from "../src/core/run/run";
import { CompletionObserver } from "../src/core/trial/conversation/completion-observer";
import type { ConversationSettings } from "../src/core/trial/context";
import { startJudgeServer, textResponse, type JudgeServer } from "./judge-fixtures";
import { agendaCallerPolicy } from "./live-caller-policy";
import { eventually, toneSynthesizer } from "./live-helpers";
import { RESTAURANT } from "./restaurant-lexicon";

/**
 * RUN with the live simulated caller, on loopback, in real time: the real LiveCaller (its own GPT-Live
 * session through our client) talks to the restaurant assistant (the GPT-Live target in live mode), each
 * session on its own local simulator acting as the service, through the full-duplex relay of `run()`.
 *
 * The two simulators hear each other through a transcript bridge (test/transcript-bridge.ts, a
 * test facility): relayed audio is neither registered nor chunk-aligned, so the words go out of band and
 * each voiced stretch of audio that arrives is heard as the other side's next text. The caller's
 * simulator runs a test policy that follows the caller's agenda (test/live-caller-policy.ts).
 * This proves the client code, the two sessions at once, the relay's real-time pacing and what the
 * caller's session is told; it cannot prove speech understanding, the real service's turn-taking or a
 * real caller model's behaviour.
 */
const TARGET_KEY = "sk-target-loopback-0001";
const CALLER_KEY = "sk-caller-loopback-0002";
const CASE = "run_missing_name";
const scenario = PLAN.cases.find((c) => c.id === CASE)!.scenario;
const RUN_PLAN = { ...PLAN, cases: PLAN.cases.filter((c) => c.id === CASE) };

/** Everything only the evaluator may know about this case (its state values the caller also knows as facts, so they are left out). */
function evaluatorOnly(): string[] {
  const { expected } = scenario;
  return [
    expected.answer,
    ...expected.criteria,
    ...(expected.golden_path?.steps ?? []),
    expected.procedure!.id,
    ...expected.procedure!.steps.map((s) => s.id).filter((id) => id.length > 5),
    ...expected.tools.required.map((t) => t.name),
    ...expected.tools.prohibited.map((t) => t.name),
    "reservation_created",
    "reservation_count",
    "outdoor",
    "golden_path",
    "procedure",
    "criteria",
  ];
}

interface Frame {
  at: number;
  json: Record<string, unknown>;
}

let servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/**
 * A loopback Responses server for what the harness asks of models here: the completion observer
 * (a stand-in that says "drain" once a caller line says goodbye) and, under client delegation, the
 * restaurant's backend (one booking, then its confirmation — the live target's backend is a real
 * Responses client, so a scripted model stands in for it).
 */
async function responsesServer(): Promise<JudgeServer> {
  let backendCalls = 0;
  return startJudgeServer((body) => {
    const format = (body.text as { format?: { name?: string } } | undefined)?.format;
    if (format?.name === "completion_verdict") {
      const content = String((body.input as Array<{ content: string }>)[0]!.content);
      const callerSaidBye = content.split("\n").some((l) => l.startsWith("CALLER:") && /bye\b/i.test(l));
      return {
        status: 200,
        json: textResponse(JSON.stringify(callerSaidBye ? { should_drain: true, outcome: "resolved", reason: "The table is booked and the caller said goodbye." } : { should_drain: false, outcome: "unresolved", reason: "The booking is still being arranged." })),
      };
    }
    backendCalls++;
    const usage = { input_tokens: 40, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 50 };
    const output = body.previous_response_id
      ? [{ type: "message", id: `m${backendCalls}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: "Your patio table for two under Aiko Tanaka on August 20 at 6:30 p.m. is confirmed.", annotations: [] }] }]
      : [
          {
            type: "function_call",
            id: `f${backendCalls}`,
            call_id: `call_${backendCalls}`,
            name: "create_reservation",
            arguments: JSON.stringify({ guest_name: "Aiko Tanaka", date: "2026-08-20", time: "18:30", party_size: 2, seating: "patio" }),
            status: "completed",
          },
        ];
    return { status: 200, json: { id: `resp_backend_${backendCalls}`, object: "response", created_at: 1, status: "completed", model: "gpt-5.6-terra", output, usage } };
  });
}

async function liveConversation(delegation: "responses" | "client", completion: "observer" | "rule") {
  const bridge = transcriptBridge();
  const frames = { target: [] as Frame[], caller: [] as Frame[] };
  const tap = (into: Frame[]) => (frame: { text: string }) => into.push({ at: Date.now(), json: JSON.parse(frame.text) as Record<string, unknown> });
  const script = callerScript(scenario, "caller", RESTAURANT);
  const callerPolicy = agendaCallerPolicy(script);
  const target: LiveSimulator = await startLiveSimulator({ policy: restaurantPolicy(), synthesizer: toneSynthesizer({ msPerChar: 6 }), apiKey: TARGET_KEY, ear: bridgedEar(bridge.a), tap: tap(frames.target) });
  servers.push(target);
  const caller: LiveSimulator = await startLiveSimulator({ policy: callerPolicy, synthesizer: toneSynthesizer({ msPerChar: 20, pitch: 300 }), apiKey: CALLER_KEY, ear: bridgedEar(bridge.b), tap: tap(frames.caller) });
  servers.push(caller);
  const models = await responsesServer();
  servers.push(models);
  const conversation: ConversationSettings = {
    caller: (persona) => new LiveCaller({ url: caller.url, apiKey: CALLER_KEY, voice: persona.voice, ...DEFAULT_LIVE_CALLER, credential: "test" }),
    max_duration_ms: 30_000,
    ...(completion === "observer" ? { observer: () => new CompletionObserver({ model: "gpt-5.6-luna", apiKey: "sk-observer-0003", baseURL: models.endpoint, minIntervalMs: 1_000 }) } : {}),
  };
  const began = Date.now();
  const result = await run(RUN_PLAN, {
    target: "restaurant",
    real_time: true,
    target_settings: { mode: "live", api_key: TARGET_KEY, endpoint: target.url, delegation, responses_base_url: models.endpoint, responses_api_key: "sk-backend-0004" },
    conversation,
  });
  return { record: result.records[0]!, elapsed: Date.now() - began, frames, target, caller, models, bridge, callerPolicy, script };
}

describe("RUN with the live simulated caller, two simulator sessions on loopback, real time", () => {
  it.each([
    ["responses", "observer"],
    ["client", "rule"],
  ] as const)(
    "%s delegation, ended by the %s: the caller's session gets its script only, audio flows both ways, the trial is recorded",
    async (delegation, completion) => {
      const { record: r, elapsed, frames, target, caller, models, bridge, callerPolicy, script } = await liveConversation(delegation, completion);
      const conv = r.conversation!;
      const detail = JSON.stringify({ status: r.status, error: r.error, completion: conv?.completion, utterances: conv?.utterances, bridge: bridge.log }, null, 1);

      // The trial ends with a recorded status, by the completion mechanism, not a crash or the time limit.
      expect(r.error, detail).toBeNull();
      expect(r.status, detail).toBe("passed");
      // The observer judges the outcome; the rule only saw the live caller close the call (it keeps no agenda).
      expect(conv.completion, detail).toMatchObject({ by: completion, ended: "complete", outcome: completion === "observer" ? "resolved" : null });
      expect(r.input).toMatchObject({ kind: "simulated", caller: { kind: "live", endpoint: caller.url, voice: scenario.simulation_parameters!.persona.voice, credential: "test" } });
      expect(JSON.stringify(r)).not.toContain(CALLER_KEY);

      // Two sessions, one per simulator, open at the same time; both closed cleanly (session.close → session.closed).
      await eventually(() => target.stats.sessions[0]!.socket_closed && caller.stats.sessions[0]!.socket_closed, "both sockets to close");
      const [t, c] = [target.stats, caller.stats];
      expect([t.connections, c.connections, t.unauthorized, c.unauthorized]).toEqual([1, 1, 0, 0]);
      for (const s of [t.sessions[0]!, c.sessions[0]!]) expect([s.closed_reason, s.socket_closed, s.internal_errors, s.errors_sent]).toEqual(["close_requested", true, [], []]);
      const when = (list: Frame[], type: string) => list.find((f) => f.json.type === type)!.at;
      expect(Math.max(when(frames.target, "session.start"), when(frames.caller, "session.start"))).toBeLessThan(Math.min(when(frames.target, "session.close"), when(frames.caller, "session.close")));

      // The caller's session was told its script and nothing else: the instructions are exactly the
      // caller's brief, its backend has no tools, and no evaluator-only text crossed its socket.
      const start = frames.caller[0]!.json as { type: string; session: { instructions: string; audio: { output: { voice: string } }; delegation: { type: string; responses: { tools: unknown[]; instructions: string } } } };
      expect(start.type).toBe("session.start");
      expect(start.session.instructions).toBe(callerInstructions(script));
      expect(start.session.delegation).toMatchObject({ type: "responses", responses: { tools: [], instructions: callerInstructions(script) } });
      expect(start.session.audio.output.voice).toBe(script.persona.voice);
      expect(start.session.instructions).toContain(script.goal);
      // Every frame but the audio it carries (base64 PCM, which could spell anything by chance).
      const wire: Array<Record<string, unknown>> = frames.caller.map((f) => ({ ...f.json, ...(f.json.type === "session.input_audio.append" ? { audio: "(pcm)" } : {}) }));
      for (const f of wire.filter((f) => f.type === "session.input_audio.append")) expect(Object.keys(f).sort()).toEqual(["audio", "event_id", "type"]);
      expect(wire.map((f) => f.type).filter((type) => type !== "session.input_audio.append")).toEqual(["session.start", "session.instructions.append", "session.close"]);
      const sent = wire.map((f) => JSON.stringify(f)).join("\n");
      for (const secret of evaluatorOnly()) expect(sent, secret).not.toContain(secret);

      // Audio both ways, through the relay: the assistant's audio to the caller's session, the caller's
      // voice to the assistant's; each side heard the other only because voiced audio arrived.
      expect(t.sessions[0]!.output_audio_ms).toBeGreaterThan(2_000);
      expect(c.sessions[0]!.output_audio_ms).toBeGreaterThan(1_000);
      expect(c.sessions[0]!.input_audio_ms).toBeGreaterThanOrEqual(conv.relay.caller_frames * 20 - 40);
      expect(t.sessions[0]!.input_audio_ms).toBeGreaterThanOrEqual(conv.relay.caller_frames * 20 - 40);
      expect(t.sessions[0]!.turns).toEqual(callerPolicy.said.filter(Boolean));
      expect(c.sessions[0]!.turns.length).toBeGreaterThanOrEqual(3);
      // Real time: the relay's media clock ran on the wall clock (a conversation of N frames took N × 20 ms).
      expect(elapsed).toBeGreaterThanOrEqual(conv.relay.caller_frames * 20 * 0.95);
      expect(conv.relay.frames).toBe(conv.relay.caller_frames);

      // The caller's utterances are recorded with their words and timings, in order, as the caller's service spoke them.
      expect(conv.utterances.map((u) => u.text)).toEqual(callerPolicy.said);
      expect(conv.utterances.at(-1)!.text).toBe("Lovely, thanks. Bye!");
      expect(conv.utterances[0]!.intent).toBe("opening");
      let previousEnd = 0;
      for (const u of conv.utterances) {
        expect(u.start_ms).toBeGreaterThanOrEqual(previousEnd);
        expect(u.end_ms!).toBeGreaterThan(u.start_ms);
        previousEnd = u.end_ms!;
      }
      expect(r.turns.filter((x) => x.role === "user").map((x) => x.text)).toEqual(callerPolicy.said);

      // The booking happened through the target's own delegation mode.
      expect(r.tool_executions.map((x) => [x.name, x.status])).toEqual([["create_reservation", "completed"]]);
      expect(r.delegations.map((d) => d.target)).toEqual([delegation]);

      // The completion observer (observer runs only): structured output requests, usage recorded.
      const asked = models.seen.filter((s) => (s.body.text as { format?: { name?: string } } | undefined)?.format?.name === "completion_verdict");
      if (completion === "observer") {
        expect(asked.length).toBeGreaterThanOrEqual(1);
        expect(conv.completion.observer).toMatchObject({ model: "gpt-5.6-luna", calls: asked.length, failures: 0, input_tokens: 1200 * asked.length, output_tokens: 150 * asked.length });
        expect(conv.completion.reason).toMatch(/^the completion observer: /);
        for (const a of asked) for (const secret of evaluatorOnly()) expect(JSON.stringify(a.body), secret).not.toContain(secret);
      } else {
        expect(asked).toEqual([]);
        expect(conv.completion.observer).toBeUndefined();
        expect(conv.completion.reason).toMatch(/^the caller closed the call \(outcome not known to the rule\)/);
      }
    },
    120_000,
  );
});
