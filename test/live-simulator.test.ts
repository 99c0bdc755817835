import { afterEach, describe, expect, it } from "vitest";
import { createWorld } from "crashlab/alpha";
import { restaurantWorld } from "../crashlab/worlds/restaurant";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { RESTAURANT_TOOLS } from "../examples/restaurant/tools";
import { AudioPacer, chunkPcm } from "../src/core/audio";
import type { AssistantPolicy } from "../src/core/target/policy";
import {
  LiveClient,
  isFunctionCallItem,
  type FunctionCallItem,
  type LiveRawFrame,
  type SessionConfig,
} from "../src/core/live";
import { startLiveSimulator, type LiveSimulator } from "../src/core/simulator";
import { VirtualClock } from "../src/core/time/clock";
import {
  TEST_KEY,
  callerAudio,
  eventually,
  heardText,
  nextEvent,
  nextMessage,
  playAudio,
  recorder,
  sessionConfig,
  spokenText,
  streamCaller,
  tone,
  toneSynthesizer,
} from "./live-helpers";

const BOOKING = "I'd like to book a table for two under Maya on August 14 at 7 p.m.";

const simulators: LiveSimulator[] = [];
afterEach(async () => {
  for (const simulator of simulators.splice(0)) await simulator.close();
});

async function setup(session: SessionConfig = sessionConfig()) {
  const clock = new VirtualClock();
  const synthesizer = toneSynthesizer();
  const simulator = await startLiveSimulator({ policy: restaurantPolicy(), synthesizer, clock });
  simulators.push(simulator);
  const client = new LiveClient();
  const log = recorder(client);
  const raw: LiveRawFrame[] = [];
  client.onRaw((frame) => raw.push(frame));
  await client.connect({ url: simulator.url, apiKey: TEST_KEY, session, clock });
  return { clock, synthesizer, simulator, client, log, raw };
}

const responsesSession = (): SessionConfig =>
  sessionConfig({
    delegation: {
      type: "responses",
      responses: { model: "gpt-5.6-terra", instructions: "Use the tools; never invent a confirmation.", tools: RESTAURANT_TOOLS },
    },
  });

/** The restaurant application's side of a tool call: a confirmed booking. */
function executeTool(call: FunctionCallItem): string {
  const args = JSON.parse(call.arguments) as Record<string, unknown>;
  if (call.name !== "create_reservation") return JSON.stringify({ error: { code: "unknown_tool" } });
  return JSON.stringify({ reservation_id: "R-1001", status: "confirmed", ...args, seating: null });
}

describe("hearing the caller (registered audio only: offline runs check the pipeline, not speech understanding)", () => {
  it("emits input transcript fragments in step with registered audio, on the input timeline", async () => {
    const { clock, simulator, client, log } = await setup();
    const speech = callerAudio(BOOKING);
    simulator.registerCallerAudio(speech, BOOKING);
    const lead = new Uint8Array(200 * 48); // 200 ms of silence first: chunk-aligned, as the harness sends it
    const audio = new Uint8Array(lead.byteLength + speech.byteLength);
    audio.set(speech, lead.byteLength);
    await playAudio(client, clock, audio, 1_000);

    const fragments = log.events("session.input_transcript.delta");
    expect(heardText(log.messages)).toBe(BOOKING);
    const speechEndMs = 200 + (speech.byteLength / 48);
    expect(fragments.length).toBeGreaterThan(8);
    for (const { event, at_ms } of fragments) {
      // Never ahead of the audio, never more than one fragment period behind it.
      expect(event.end_ms!).toBeLessThanOrEqual(at_ms + 20);
      expect(at_ms - event.end_ms!).toBeLessThanOrEqual(220);
      expect(event.start_ms!).toBeGreaterThanOrEqual(200 + 60 - 1); // the tone's own 60 ms lead-in
    }
    // Consecutive fragments tile the speech without overlap.
    for (let i = 1; i < fragments.length; i++) expect(fragments[i]!.event.start_ms!).toBeGreaterThanOrEqual(fragments[i - 1]!.event.end_ms! - 1);
    expect(fragments[0]!.at_ms).toBeLessThan(speechEndMs / 2); // the first words arrive while the caller is still talking
    expect(simulator.stats.sessions[0]!.recognized).toEqual([BOOKING]);
    await client.close();
  });

  it("treats unregistered audio as unintelligible: no transcript, no response", async () => {
    const { clock, simulator, client, log } = await setup();
    simulator.registerCallerAudio(callerAudio(BOOKING), BOOKING);
    // The same words in another voice: different audio, so it matches nothing registered.
    await playAudio(client, clock, callerAudio(BOOKING, 97), 3_000);
    await client.close();
    expect(log.events("session.input_transcript.delta")).toEqual([]);
    expect(log.events("session.output_audio.delta")).toEqual([]);
    expect(log.events("session.delegation.created")).toEqual([]);
    expect(simulator.stats.sessions[0]).toMatchObject({ recognized: [], turns: [] });
  });

  it("answers a question without delegating, speaking audio and transcript together", async () => {
    const { clock, synthesizer, simulator, client, log } = await setup();
    const question = "What time do you open?";
    simulator.registerCallerAudio(callerAudio(question), question);
    const stop = new AbortController();
    const caller = streamCaller(client, clock, callerAudio(question), stop.signal);
    await nextEvent(client, "session.output_transcript.delta", (e) => e.delta.includes("p.m."));
    await clock.sleep(500);
    stop.abort();
    await caller;
    await client.close();

    const answer = "Harbor Table is open daily from 11 a.m. until 10 p.m.";
    expect(spokenText(log.messages)).toBe(answer);
    expect(synthesizer.calls).toEqual([answer]);
    expect(log.events("session.delegation.created")).toEqual([]);
    const audio = log.messages.flatMap((m) => (m.kind === "event" && m.audio ? [m.audio] : []));
    expect(audio.reduce((n, a) => n + a.byteLength, 0)).toBe(tone(answer).length * 2);
    // Paced at real time: 160 ms per delta on the clock.
    const deltas = log.events("session.output_audio.delta");
    expect(deltas[1]!.at_ms - deltas[0]!.at_ms).toBe(160);
    expect(deltas.at(-1)!.at_ms - deltas[0]!.at_ms).toBe(160 * (deltas.length - 1));
    // The reply starts after the caller's turn: 500 ms of silence after the voiced audio (the tone ends
    // with 100 ms of its own), then the frontend's 200 ms.
    const callerEnd = callerAudio(question).byteLength / 48;
    expect(deltas[0]!.at_ms).toBeGreaterThanOrEqual(callerEnd - 100 + 500 + 200 - 20);
  });
});

/** Plays the application under Responses delegation: runs each function call once its response completes. */
function actAsApplication(client: LiveClient, onCall: (call: FunctionCallItem) => string = executeTool) {
  const calls: FunctionCallItem[] = [];
  let pending: FunctionCallItem[] = [];
  client.onEvent("response.event", ({ event }) => {
    if (event.type === "response.output_item.done" && isFunctionCallItem(event.item)) {
      calls.push(event.item);
      pending.push(event.item);
    }
    if (event.type === "response.completed" && pending.length > 0) {
      for (const call of pending) client.createItem({ type: "function_call_output", call_id: call.call_id, output: onCall(call) });
      pending = [];
      client.createResponse();
    }
  });
  return calls;
}

async function runResponsesBooking() {
  const context = await setup(responsesSession());
  const { clock, simulator, client } = context;
  const speech = callerAudio(BOOKING);
  simulator.registerCallerAudio(speech, BOOKING);
  const calls = actAsApplication(client);
  const stop = new AbortController();
  const caller = streamCaller(client, clock, speech, stop.signal);
  await nextEvent(client, "session.output_transcript.delta", (e) => e.delta.includes("R-1001"));
  await clock.sleep(1_000);
  stop.abort();
  await caller;
  const result = await client.close();
  return { ...context, calls, result };
}

describe("Responses delegation (server-managed backend)", () => {
  it("books a table end to end: acknowledgement, function call, application output, follow-up, spoken result", async () => {
    const { simulator, synthesizer, log, calls, result } = await runResponsesBooking();
    expect(heardText(log.messages)).toBe(BOOKING);

    const [created] = log.events("session.delegation.created");
    expect(created!.event.delegation).toEqual({ id: "dlg_1", type: "delegation", target: "responses", response_id: "resp_1" });

    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ type: "function_call", status: "completed", call_id: "call_1", name: "create_reservation" });
    expect(JSON.parse(calls[0]!.arguments)).toEqual({ guest_name: "Maya", date: "2026-08-14", time: "19:00", party_size: 2 });

    const envelopes = log.events("response.event").map(({ event }) => event);
    expect(envelopes.every((e) => e.delegation_id === "dlg_1")).toBe(true);
    const sequence = envelopes.map(({ event }) => ("item" in event ? `${event.type}:${(event.item as { type: string }).type}` : event.type));
    expect(sequence).toEqual([
      "response.created",
      "response.output_item.added:reasoning",
      "response.output_item.done:reasoning",
      "response.output_item.added:function_call",
      "response.output_item.done:function_call",
      "response.completed",
      "response.created",
      "response.output_item.added:reasoning",
      "response.output_item.done:reasoning",
      "response.output_item.added:message",
      "response.output_text.delta",
      "response.output_text.done",
      "response.output_item.done:message",
      "response.completed",
    ]);
    const completions = envelopes.flatMap(({ event }) => (event.type === "response.completed" ? [event.response] : []));
    expect(completions.map((r) => r.id)).toEqual(["resp_1", "resp_2"]);
    for (const response of completions) {
      expect(response.output).toEqual([]); // calls are read from the item events, not from here
      expect(response.model).toBe("gpt-5.6-terra");
      expect(response.usage!.total_tokens).toBe(response.usage!.input_tokens + response.usage!.output_tokens);
      expect(response.usage!.output_tokens_details?.reasoning_tokens).toBe(24);
    }
    expect(completions[1]!.usage!.input_tokens_details?.cached_tokens).toBeGreaterThan(0);

    const reply = synthesizer.calls[1]!;
    expect(synthesizer.calls[0]).toBe("One moment while I book that.");
    expect(reply).toContain("Maya");
    expect(reply).toContain("Your reservation number is R-1001.");
    expect(spokenText(log.messages)).toBe(`One moment while I book that. ${reply}`);

    // The result is spoken as a new turn, after the content became available (docs/audio-and-metrics.md).
    const finalCompletion = log.events("response.event").filter(({ event }) => event.event.type === "response.completed").at(-1)!;
    expect(reply.startsWith("You're booked")).toBe(true);
    const replyStart = log.events("session.output_transcript.delta").find(({ event }) => event.delta.includes("booked"))!;
    expect(replyStart.at_ms).toBeGreaterThan(finalCompletion.at_ms);
    const audioBytes = log.messages.reduce((n, m) => n + (m.kind === "event" && m.audio ? m.audio.byteLength : 0), 0);
    expect(audioBytes).toBe((tone(synthesizer.calls[0]!).length + tone(reply).length) * 2);

    expect(result).toMatchObject({ outcome: "closed", reason: "close_requested" });
    const stats = simulator.stats.sessions[0]!;
    expect(result.usage_seconds).toBe(stats.input_audio_ms / 1000);
    expect(stats).toMatchObject({ function_calls: 1, responses: 2, errors_sent: [], internal_errors: [], turns: [BOOKING] });
  });

  it("is reproducible on a virtual clock: the same frames at the same instants on every run", async () => {
    const project = (raw: LiveRawFrame[]) =>
      raw.map((f) => `${f.direction} ${f.at_ms} ${(f.json as { type?: string })?.type ?? "?"} ${f.text?.length ?? 0}`);
    const first = await runResponsesBooking();
    const second = await runResponsesBooking();
    expect(project(first.raw).length).toBeGreaterThan(200);
    expect(project(second.raw)).toEqual(project(first.raw));
  });

  it("refuses response.create until every call has its output, then continues", async () => {
    const { clock, simulator, client, log } = await setup(responsesSession());
    const speech = callerAudio(BOOKING);
    simulator.registerCallerAudio(speech, BOOKING);
    const errors: string[] = [];
    client.onEvent("error", (e) => errors.push(`${e.error.code}:${e.error.param ?? ""}`));
    let early = "";
    client.onEvent("response.event", ({ event }) => {
      if (event.type !== "response.output_item.done" || !isFunctionCallItem(event.item)) return;
      const call = event.item;
      early = client.createResponse(); // too soon: no output yet
      client.createItem({ type: "function_call_output", call_id: "call_404", output: "{}" }); // not a call of this session
      client.send({ type: "response.item.create", delegation_id: "dlg_1", item: { type: "function_call_output", call_id: call.call_id, output: "{}" } } as never);
      client.appendCommentary("dlg_1", "Working on it."); // ids are for client delegation only
      client.createItem({ type: "function_call_output", call_id: call.call_id, output: executeTool(call) });
      client.createResponse();
    });
    const stop = new AbortController();
    const caller = streamCaller(client, clock, speech, stop.signal);
    await nextEvent(client, "session.output_transcript.delta", (e) => e.delta.includes("R-1001"));
    stop.abort();
    await caller;
    await client.close();

    expect(errors).toEqual([
      "function_call_outputs_required:",
      "invalid_value:item.call_id",
      "unknown_parameter:delegation_id",
      "invalid_value:delegation_id",
    ]);
    const required = log.events("error")[0]!.event.error;
    expect(required.client_event_id).toBe(early);
    expect(required.message).toContain("call_1");
    expect(simulator.stats.sessions[0]).toMatchObject({ function_calls: 1, responses: 2 });
  });
});

describe("client delegation (application-managed backend)", () => {
  it("books via commentary: delegation without task text, commentary acked with its placement and spoken", async () => {
    const { clock, synthesizer, simulator, client, log } = await setup(sessionConfig({ delegation: { type: "client" } }));
    const speech = callerAudio(BOOKING);
    simulator.registerCallerAudio(speech, BOOKING);
    const policy = restaurantPolicy();
    const executions: { name: string; args: Record<string, unknown> }[] = [];
    let reply = "";
    let thinkingId = "";
    let commentaryId = "";

    client.onEvent("session.delegation.created", ({ delegation }) => {
      // The application rebuilds the request from the transcript it heard; the event carries no task text.
      const request = heardText(log.messages);
      thinkingId = client.appendThinking(delegation.id, "Checking the reservation book.");
      const release = clock.hold(); // work the clock cannot see (wire-time rule)
      policy
        .backend({ request, transcript: [{ role: "user", text: request }] }, {
          call: async (name, args) => {
            executions.push({ name, args });
            return { status: "completed", output: { reservation_id: "R-2002", status: "confirmed", ...args, seating: null } };
          },
        })
        .then((result) => {
          reply = result.reply;
          commentaryId = client.appendCommentary(delegation.id, reply);
        })
        .finally(release);
    });

    const stop = new AbortController();
    const caller = streamCaller(client, clock, speech, stop.signal);
    await nextEvent(client, "session.output_transcript.delta", (e) => e.delta.includes("R-2002"));
    await clock.sleep(500);
    stop.abort();
    await caller;
    await client.close();

    const [created] = log.events("session.delegation.created");
    expect(created!.event.delegation).toEqual({ id: "dlg_1", type: "delegation", target: "client" });
    expect(created!.event.offset_ms).toBeGreaterThanOrEqual(speech.byteLength / 48);
    expect(executions).toEqual([{ name: "create_reservation", args: { guest_name: "Maya", date: "2026-08-14", time: "19:00", party_size: 2 } }]);
    expect(reply).toContain("Your reservation number is R-2002.");

    const thinkingAck = log.events("session.thinking.appended")[0]!.event;
    expect(thinkingAck).toMatchObject({ client_event_id: thinkingId, delegation_id: "dlg_1" });
    expect(thinkingAck.end_ms).toBe(thinkingAck.start_ms); // silent
    const commentaryAck = log.events("session.commentary.appended")[0]!.event;
    expect(commentaryAck.client_event_id).toBe(commentaryId);
    // Placed after the acknowledgement plus the new-turn gap, lasting exactly the synthesized audio.
    const ackAudioMs = tone("One moment while I book that.").length / 24;
    expect(commentaryAck.end_ms - commentaryAck.start_ms).toBe(Math.round(tone(reply).length / 24));
    expect(commentaryAck.start_ms).toBeGreaterThanOrEqual(created!.at_ms + 200 + ackAudioMs);

    expect(synthesizer.calls).toEqual(["One moment while I book that.", reply]);
    expect(spokenText(log.messages)).toBe(`One moment while I book that. ${reply}`);
    expect(simulator.stats.sessions[0]).toMatchObject({ delegations: [{ id: "dlg_1", target: "client" }], function_calls: 0, errors_sent: [] });
  });

  it("rejects commentary for a delegation id this connection did not create", async () => {
    const { client, log } = await setup();
    client.appendCommentary("dlg_elsewhere", "Booked.");
    await eventually(() => log.events("error").length === 1, "the error");
    expect(log.events("error")[0]!.event.error).toMatchObject({ code: "invalid_value", param: "delegation_id" });
    expect(log.events("session.commentary.appended")).toEqual([]);
    await client.close();
  });

  it("continues a turn across two registered utterances separated by a short pause", async () => {
    const { clock, simulator, client, log } = await setup();
    const first = "I'd like to book a table for two under Maya";
    const second = "on August 14 at 7 p.m.";
    simulator.registerCallerAudio(callerAudio(first), first);
    simulator.registerCallerAudio(callerAudio(second), second);
    const pause = new Uint8Array(200 * 48);
    const audio = new Uint8Array([...chunkPcm(callerAudio(first)).flatMap((c) => [...c]), ...pause, ...chunkPcm(callerAudio(second)).flatMap((c) => [...c])]);
    await playAudio(client, clock, audio, 2_000);
    await client.close();
    expect(simulator.stats.sessions[0]!.turns).toEqual([`${first} ${second}`]);
    expect(heardText(log.messages)).toBe(`${first} ${second}`);
    expect(log.events("session.delegation.created")).toHaveLength(1);
  });
});

describe("barge-in: the caller talks over the assistant", () => {
  const QUESTION = "What time do you open, and is there parking?";
  const ANSWER = "Harbor Table is open daily from 11 a.m. until 10 p.m. Free parking in the lot behind the restaurant; street parking after 6 p.m.";
  const CUT_IN = "Sorry, what is your address?";

  /**
   * The caller asks, waits until the answer has been playing for a second, then speaks over it, then stays
   * quiet (microphone open) for five seconds.
   */
  async function talkOver(policy: AssistantPolicy) {
    const clock = new VirtualClock();
    const synthesizer = toneSynthesizer();
    const simulator = await startLiveSimulator({ policy, synthesizer, clock });
    simulators.push(simulator);
    const client = new LiveClient();
    const log = recorder(client);
    await client.connect({ url: simulator.url, apiKey: TEST_KEY, session: sessionConfig(), clock });
    simulator.registerCallerAudio(callerAudio(QUESTION), QUESTION);
    simulator.registerCallerAudio(callerAudio(CUT_IN), CUT_IN);

    const pacer = new AudioPacer({ clock });
    const send = (chunk: Uint8Array) => void client.appendAudio(chunk);
    const answering = new AbortController();
    void nextEvent(client, "session.output_audio.delta").then(() => clock.sleep(1_000).then(() => answering.abort()));
    await pacer.play(chunkPcm(callerAudio(QUESTION)), send);
    await pacer.streamSilenceUntil(answering.signal, send);
    const cutInAt = clock.now();
    await pacer.play(chunkPcm(callerAudio(CUT_IN)), send);
    const quiet = new AbortController();
    void clock.sleep(5_000).then(() => quiet.abort());
    await pacer.streamSilenceUntil(quiet.signal, send);
    await client.close();
    const audio = log.events("session.output_audio.delta");
    return { log, synthesizer, stats: simulator.stats.sessions[0]!, cutInAt, audio };
  }

  it("a yielding assistant stops within a delta of the caller's first words and answers what they said", async () => {
    const { log, synthesizer, stats, cutInAt, audio } = await talkOver(restaurantPolicy());
    expect(stats.recognized).toEqual([QUESTION, CUT_IN]);
    expect(stats.turns).toEqual([QUESTION, CUT_IN]);
    expect(synthesizer.calls).toEqual([ANSWER, "We're at 14 Quay Street."]);
    // The first answer was cut: its deltas stop right after the caller's voice began (tone lead-in 60 ms,
    // recognition on the first voiced chunk), long before its full length had played.
    const firstAnswer = audio.filter((d) => d.at_ms < cutInAt + 1_000);
    const lastOfFirst = firstAnswer.at(-1)!.at_ms;
    expect(lastOfFirst).toBeLessThanOrEqual(cutInAt + 60 + 20 + 160);
    const sentMs = firstAnswer.reduce((n, d) => n + Buffer.from(d.event.delta, "base64").byteLength / 48, 0);
    expect(sentMs).toBeLessThan(tone(ANSWER).length / 24 / 2);
    expect(spokenText(log.messages)).toContain("We're at 14 Quay Street.");
  });

  it("a policy that talks through keeps speaking to the end and never takes in what was said over it", async () => {
    const policy = restaurantPolicy({ faults: ["talks_through_interruption"] });
    expect(policy.yields_to_interruptions).toBe(false);
    const { log, synthesizer, stats, audio } = await talkOver(policy);
    // The words were heard (and transcribed) but never became a turn.
    expect(stats.recognized).toEqual([QUESTION, CUT_IN]);
    expect(heardText(log.messages)).toBe(`${QUESTION} ${CUT_IN}`);
    expect(stats.turns).toEqual([QUESTION]);
    expect(synthesizer.calls).toEqual([ANSWER]);
    const sentMs = audio.reduce((n, d) => n + Buffer.from(d.event.delta, "base64").byteLength / 48, 0);
    expect(sentMs).toBe(tone(ANSWER).length / 24);
    expect(spokenText(log.messages)).toBe(ANSWER);
  });
});

describe("a conversation over several caller turns", () => {
  it("keeps the whole conversation across turns under Responses delegation: re-checks the caller's alternative and books it after the yes", async () => {
    const { clock, simulator, client, log } = await setup(responsesSession());
    const world = createWorld(restaurantWorld, { seed: 3, trial: "conversation#1", initialState: {}, now: () => 0 });
    actAsApplication(client, (call) => {
      const out = world.perform(call.name, JSON.parse(call.arguments), { trial: "conversation#1", call_id: call.call_id });
      return JSON.stringify(out.outcome === "ok" ? out.result : { error: out.error });
    });
    // Each line waits for the assistant's words that end its previous turn.
    const script: Array<[line: string, after: string | null]> = [
      ["Do you have a table for six on August 7 at 9 p.m.? It would be under Tomas Silva.", null],
      ["What about 7 p.m. that evening instead?", "another time?"],
      ["Yes, please book it.", "book it?"],
      ["Great, thank you. Goodbye!", "reservation number"],
    ];
    for (const [line] of script) simulator.registerCallerAudio(callerAudio(line), line);
    const pacer = new AudioPacer({ clock });
    const send = (chunk: Uint8Array) => void client.appendAudio(chunk);
    for (const [i, [line]] of script.entries()) {
      await pacer.play(chunkPcm(callerAudio(line)), send);
      const next = script[i + 1]?.[1] ?? "Goodbye!";
      const seen = spokenText(log.messages).split(next).length;
      const settled = new AbortController();
      void nextMessage(client, () => spokenText(log.messages).split(next).length > seen).then(() => clock.sleep(800).then(() => settled.abort()));
      await pacer.streamSilenceUntil(settled.signal, send);
    }
    await client.close();

    expect(simulator.stats.sessions[0]!.turns).toEqual(script.map(([line]) => line));
    expect(world.events().map((e) => [e.operation, e.args, e.outcome])).toEqual([
      ["check_availability", { date: "2026-08-07", time: "21:00", party_size: 6 }, "ok"],
      ["check_availability", { date: "2026-08-07", time: "19:00", party_size: 6 }, "ok"],
      ["create_reservation", { guest_name: "Tomas Silva", date: "2026-08-07", time: "19:00", party_size: 6 }, "ok"],
    ]);
    expect(spokenText(log.messages)).toMatch(/Would you like me to book it\? .*You're booked: a table for six under Tomas Silva on August 7 at 7 p\.m\..* Goodbye!$/);
  });
});
