import { afterEach, describe, expect, it } from "vitest";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { LiveClient, LiveConnectionError, LiveServiceError, type LiveRawFrame } from "../src/core/live";
import { UnknownLiveFaultError, startLiveSimulator, type LiveFault, type LiveSimulator } from "../src/core/simulator";
import { VirtualClock } from "../src/core/time/clock";
import { TEST_KEY, callerAudio, eventually, playAudio, recorder, sessionConfig, tone, toneSynthesizer } from "./live-helpers";

const simulators: LiveSimulator[] = [];
afterEach(async () => {
  for (const simulator of simulators.splice(0)) await simulator.close();
});

async function withFaults(faults: LiveFault[] | ((index: number) => LiveFault[])) {
  const clock = new VirtualClock();
  const simulator = await startLiveSimulator({ policy: restaurantPolicy(), synthesizer: toneSynthesizer(), clock, faults });
  simulators.push(simulator);
  const client = new LiveClient();
  const log = recorder(client);
  const raw: LiveRawFrame[] = [];
  client.onRaw((frame) => raw.push(frame));
  const connect = () => client.connect({ url: simulator.url, apiKey: TEST_KEY, session: sessionConfig(), clock });
  return { clock, simulator, client, log, raw, connect };
}

const QUESTION = "What time do you open?";
const ANSWER = "Harbor Table is open daily from 11 a.m. until 10 p.m.";

describe("fault plan", () => {
  it("rejects a fault name that does not exist", async () => {
    const error = await startLiveSimulator({
      policy: restaurantPolicy(),
      synthesizer: toneSynthesizer(),
      faults: ["drop_after_started" as never],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownLiveFaultError);
    expect((error as Error).message).toContain("drop_before_started");
  });

  it("chooses faults per session index", async () => {
    const { simulator, connect, client, clock } = await withFaults((index) => (index === 1 ? ["drop_before_started"] : []));
    await connect();
    await client.close();
    const second = new LiveClient();
    const error = await second.connect({ url: simulator.url, apiKey: TEST_KEY, session: sessionConfig(), clock }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "closed_before_started" });
    expect(simulator.stats.sessions.map((s) => s.faults)).toEqual([[], ["drop_before_started"]]);
  });
});

describe("each fault surfaces as the right client-side error or state", () => {
  it("drop_before_started: connect rejects with closed_before_started", async () => {
    const { client, connect, log } = await withFaults(["drop_before_started"]);
    const error = await connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveConnectionError);
    expect(error).toMatchObject({ code: "closed_before_started", details: { closeCode: 1006 } });
    expect((error as Error).message).toContain("before session.started");
    expect(client.state).toBe("closed");
    expect(log.events("session.started")).toEqual([]);
    expect(await client.close()).toMatchObject({ outcome: "closed_without_session_closed", error: { code: "closed_before_started" } });
  });

  it("no_session_closed: close() reports that the socket closed without session.closed", async () => {
    const { client, connect, simulator } = await withFaults(["no_session_closed"]);
    await connect();
    const result = await client.close();
    expect(result).toMatchObject({ outcome: "closed_without_session_closed", close_code: 1000, error: { code: "connection_lost" } });
    expect(client.state).toBe("closed");
    expect(simulator.stats.sessions[0]!.faults_fired).toEqual(["no_session_closed"]);
  });

  it("expired: the service ends the session with session.closed reason expired", async () => {
    const { client, connect, clock, log } = await withFaults([{ kind: "expired", atInputMs: 600 }]);
    await connect();
    await playAudio(client, clock, new Uint8Array(0), 1_000);
    await eventually(() => client.state === "closed", "the expired session's socket to close");
    const [closed] = log.events("session.closed");
    expect(closed!.event).toMatchObject({ reason: "expired", usage: { seconds: 0.6 } });
    expect(closed!.at_ms).toBe(580);
    expect(client.appendAudio(new Uint8Array(960))).toBe(false);
    expect(await client.close()).toMatchObject({ outcome: "closed", reason: "expired", usage_seconds: 0.6 });
    expect(log.kinds("socket_closed")[0]).toMatchObject({ clean: true, code: 1000 });
  });

  it("fatal_error: insufficient_quota is recorded as a fatal service error and the session ends unclean", async () => {
    const { client, connect, clock, log } = await withFaults(["fatal_error"]);
    await connect();
    await playAudio(client, clock, new Uint8Array(0), 1_500);
    await eventually(() => client.state === "closed", "the socket to close");
    expect(log.events("error")[0]!.event.error).toMatchObject({ code: "insufficient_quota", type: "insufficient_quota" });
    expect(log.events("error")[0]!.at_ms).toBe(980);
    expect(client.fatalError).toBeInstanceOf(LiveServiceError);
    expect(client.fatalError).toMatchObject({ code: "insufficient_quota", details: { fatal: true } });
    const result = await client.close();
    expect(result).toMatchObject({ outcome: "closed_without_session_closed", close_code: 1008, close_reason: "insufficient_quota", usage_seconds: 1 });
    if (result.outcome !== "closed_without_session_closed") throw new Error("unreachable");
    expect(result.error).toBe(client.fatalError);
  });

  it.each([
    ["binary_frame", "protocol_error", "binary_frame"],
    ["malformed_json", "protocol_error", "malformed_json"],
  ] as const)("%s: a protocol error reaches listeners and the session carries on", async (fault, kind, errorKind) => {
    const { client, connect, clock, log } = await withFaults([fault]);
    await connect();
    await playAudio(client, clock, new Uint8Array(0), 1_500);
    const errors = log.kinds(kind);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ error: { kind: errorKind }, at_ms: 980 });
    expect(client.state).toBe("active");
    expect(await client.close()).toMatchObject({ outcome: "closed", reason: "close_requested", usage_seconds: 1.5 });
  });

  it("unknown_event: tolerated, delivered as unknown_event and kept in the raw log", async () => {
    const { client, connect, clock, log, raw } = await withFaults(["unknown_event"]);
    await connect();
    await playAudio(client, clock, new Uint8Array(0), 1_500);
    expect(log.kinds("unknown_event")).toEqual([expect.objectContaining({ type: "transport.simulated_notice", at_ms: 980 })]);
    expect(log.kinds("protocol_error")).toEqual([]);
    expect(raw.some((f) => f.direction === "received" && f.text?.includes("transport.simulated_notice"))).toBe(true);
    expect(await client.close()).toMatchObject({ outcome: "closed" });
  });

  it("stall_mid_response: audio stops halfway, the socket stays open, and close() times out", async () => {
    const { client, connect, clock, log, simulator } = await withFaults(["stall_mid_response"]);
    simulator.registerCallerAudio(callerAudio(QUESTION), QUESTION);
    await connect();
    await playAudio(client, clock, callerAudio(QUESTION), 6_000);
    const audioBytes = log.messages.reduce((n, m) => n + (m.kind === "event" && m.audio ? m.audio.byteLength : 0), 0);
    expect(audioBytes).toBeGreaterThan(0);
    expect(audioBytes).toBeLessThan(tone(ANSWER).length * 2);
    expect(log.events("session.output_transcript.delta").map((e) => e.event.delta).join("")).not.toContain("10 p.m.");
    expect(client.state).toBe("active");
    // The microphone stream goes unanswered too: no usage updates after the stall.
    const lastUsage = log.events("session.usage.updated").at(-1)!.event.usage.seconds;
    expect(lastUsage).toBeLessThan(simulator.stats.sessions[0]!.input_audio_ms / 1000);

    const result = await client.close({ timeoutMs: 10_000 });
    expect(result).toMatchObject({ outcome: "timeout", waited_ms: 10_000 });
    expect(client.state).toBe("closed");
    expect(await client.close()).toEqual(result);
  });

  it("odd_length_pcm: the odd delta is a protocol error; the rest of the audio still arrives", async () => {
    const { client, connect, clock, log, simulator } = await withFaults(["odd_length_pcm"]);
    simulator.registerCallerAudio(callerAudio(QUESTION), QUESTION);
    await connect();
    await playAudio(client, clock, callerAudio(QUESTION), 6_000);
    const errors = log.kinds("protocol_error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ error: { kind: "invalid_event", details: { eventType: "session.output_audio.delta" } } });
    const deltas = log.events("session.output_audio.delta");
    const deltaBytes = 160 * 48;
    expect(deltas).toHaveLength(Math.ceil((tone(ANSWER).length * 2) / deltaBytes) - 1);
    expect(log.events("session.output_transcript.delta").map((e) => e.event.delta).join("").trim()).toBe(ANSWER);
    expect(await client.close()).toMatchObject({ outcome: "closed" });
  });
});
