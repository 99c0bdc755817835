/**
 * Shared pieces for the GPT-Live tests: a tone "synthesizer", a session config, a caller that streams
 * paced audio through the client, and small waiting helpers. Loopback only.
 */
import { AudioPacer, chunkPcm, pcm16ToBytes } from "../src/core/audio";
import type { LiveClient, LiveMessage, ServerEventOf, ServerEventType, SessionConfig } from "../src/core/live";
import type { SimulatorSynthesizer } from "../src/core/simulator";
import type { Clock } from "../src/core/time/clock";

/**
 * A stand-in synthesizer: 60 ms of silence, then a tone lasting `msPerChar` per character, then 100 ms
 * of silence. The pitch drifts with each character so no two 20 ms chunks are alike (real speech never
 * repeats exactly either); `pitch` offsets it so different "voices" never produce the same audio.
 */
export function toneSynthesizer(options: { msPerChar?: number; pitch?: number } = {}): SimulatorSynthesizer & { calls: string[] } {
  const { msPerChar = 40, pitch = 0 } = options;
  const calls: string[] = [];
  return {
    calls,
    async synthesize(text: string) {
      calls.push(text);
      return { samples: tone(text, msPerChar, pitch), sampleRate: 24_000 as const, provider: "test", model: "tone", voice: `tone+${pitch}` };
    },
  };
}

export function tone(text: string, msPerChar = 40, pitch = 0): Int16Array {
  const rate = 24_000;
  const lead = (60 * rate) / 1000;
  const perChar = Math.round((msPerChar * rate) / 1000);
  const tail = (100 * rate) / 1000;
  const samples = new Int16Array(lead + perChar * Math.max(1, text.length) + tail);
  let phase = 0;
  for (let i = 0; i < perChar * Math.max(1, text.length); i++) {
    const char = text.charCodeAt(Math.floor(i / perChar)) || 97;
    const frequency = 180 + pitch + (char % 40) * 7 + (i % 997) / 50;
    phase += (2 * Math.PI * frequency) / rate;
    samples[lead + i] = Math.round(4000 * Math.sin(phase));
  }
  return samples;
}

/** Caller audio as the harness would send it: PCM16 LE bytes. */
export function callerAudio(text: string, pitch = 11): Uint8Array {
  return pcm16ToBytes(tone(text, 45, pitch));
}

export const TEST_KEY = "sk-test-loopback";

export function sessionConfig(overrides: Partial<SessionConfig> = {}): SessionConfig {
  return {
    model: "gpt-live-1",
    instructions: "You are the restaurant's phone assistant.",
    audio: { format: { type: "audio/pcm", rate: 24000 }, output: { voice: "marin" } },
    delegation: { type: "client" },
    ...overrides,
  };
}

/**
 * The caller side of a trial: stream `pcm` in paced 20 ms chunks, then silence until `stop` aborts
 * (the microphone stays open, docs/audio-and-metrics.md). Resolves once stopped.
 */
export async function streamCaller(client: LiveClient, clock: Clock, pcm: Uint8Array, stop: AbortSignal): Promise<void> {
  const pacer = new AudioPacer({ clock });
  const send = (chunk: Uint8Array) => void client.appendAudio(chunk);
  await pacer.play(chunkPcm(pcm), send);
  await pacer.streamSilenceUntil(stop, send);
}

/** Collects every message a client delivers, with typed filters. */
export function recorder(client: LiveClient) {
  const messages: LiveMessage[] = [];
  client.on((message) => messages.push(message));
  return {
    messages,
    events<T extends ServerEventType>(type: T): { event: ServerEventOf<T>; at_ms: number }[] {
      return messages.flatMap((m) => (m.kind === "event" && m.event.type === type ? [{ event: m.event as ServerEventOf<T>, at_ms: m.at_ms }] : []));
    },
    kinds(kind: LiveMessage["kind"]) {
      return messages.filter((m) => m.kind === kind);
    },
  };
}

/** Resolve with the first message that satisfies `predicate` (already delivered ones are not seen). */
export function nextMessage(client: LiveClient, predicate: (message: LiveMessage) => boolean): Promise<LiveMessage> {
  return new Promise((resolve) => {
    const off = client.on((message) => {
      if (predicate(message)) {
        off();
        resolve(message);
      }
    });
  });
}

export function nextEvent<T extends ServerEventType>(client: LiveClient, type: T, where: (event: ServerEventOf<T>) => boolean = () => true) {
  return nextMessage(client, (m) => m.kind === "event" && m.event.type === type && where(m.event as ServerEventOf<T>)).then(
    (m) => (m as Extract<LiveMessage, { kind: "event" }>).event as ServerEventOf<T>,
  );
}

/** Assistant transcript text so far. */
export function spokenText(messages: LiveMessage[]): string {
  return messages
    .flatMap((m) => (m.kind === "event" && m.event.type === "session.output_transcript.delta" ? [m.event.delta] : []))
    .join("")
    .trim();
}

/** Caller transcript text so far. */
export function heardText(messages: LiveMessage[]): string {
  return messages
    .flatMap((m) => (m.kind === "event" && m.event.type === "session.input_transcript.delta" ? [m.event.delta] : []))
    .join("")
    .trim();
}

/** Stream `pcm` followed by `silenceMs` of silence, paced in 20 ms chunks on the clock. */
export async function playAudio(client: LiveClient, clock: Clock, pcm: Uint8Array, silenceMs = 0): Promise<void> {
  const audio = new Uint8Array(pcm.byteLength + Math.round(silenceMs * 48));
  audio.set(pcm);
  const pacer = new AudioPacer({ clock });
  await pacer.play(chunkPcm(audio), (chunk) => void client.appendAudio(chunk));
}

/**
 * Wait (polling) until `condition` holds: for facts that depend on a socket round trip but no clock. No
 * deadline of its own — a loaded machine can take longer than any fixed one, which would fail a correct
 * pipeline; vitest's test timeout ends the wait when the pipeline is broken. `what` names the fact for
 * whoever reads the test.
 */
export async function eventually(condition: () => boolean, _what: string): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
}
