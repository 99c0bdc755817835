/**
 * The GPT-Live wire alone (`pnpm bench wire`, or `pnpm tsx bench/wire.bench.ts`): one LiveClient and the
 * local simulator on a VirtualClock, as an offline trial runs them, streaming `SECONDS` of caller audio
 * (one registered utterance, then the open microphone's silence) while the simulated assistant answers
 * with a stand-in tone voice (so espeak-ng's cost is not in the figures). Reported per second of audio:
 *
 * - frames each way, and the kernel writes they took (every call into a socket's _write/_writev);
 * - bytes allocated: on the JS heap (summed between garbage collections with v8.GCProfiler) and through
 *   the Buffer API (Buffer.from/alloc/allocUnsafe/concat, which is where ws and base64 copies go);
 * - CPU time of the process.
 *
 * The counters patch prototypes of this process only; nothing here runs in the product.
 */
import { Socket } from "node:net";
import { pathToFileURL } from "node:url";
import { GCProfiler } from "node:v8";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { AudioPacer, chunkPcm, pcm16ToBytes } from "../src/core/audio";
import { LiveClient } from "../src/core/live";
import { startLiveSimulator } from "../src/core/simulator";
import { VirtualClock } from "../src/core/time/clock";

const SECONDS = 30;
const RATE = 24_000;

export interface WireResult {
  audio_s: number;
  frames_sent: number;
  frames_received: number;
  kernel_writes: number;
  kernel_bytes: number;
  heap_bytes_allocated: number;
  buffer_api_bytes: number;
  cpu_ms: number;
}

/** A tone lasting 40 ms per character between short silences; the pitch drifts so no two chunks repeat. */
function tone(text: string, pitch: number): Int16Array {
  const perChar = Math.round(0.04 * RATE);
  const lead = Math.round(0.06 * RATE);
  const samples = new Int16Array(lead + perChar * text.length + Math.round(0.1 * RATE));
  let phase = 0;
  for (let i = 0; i < perChar * text.length; i++) {
    phase += (2 * Math.PI * (180 + pitch + (text.charCodeAt(Math.floor(i / perChar)) % 40) * 7 + (i % 997) / 50)) / RATE;
    samples[lead + i] = Math.round(4000 * Math.sin(phase));
  }
  return samples;
}

export async function benchWire(): Promise<WireResult> {
  const counts = { writes: 0, bytes: 0, buffer: 0 };
  const proto = Socket.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = { _write: proto._write!, _writev: proto._writev! };
  proto._write = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
    counts.writes++;
    counts.bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : (chunk as Uint8Array).byteLength;
    return original._write.call(this, chunk, ...rest);
  };
  proto._writev = function (this: Socket, ...args: unknown[]) {
    const [chunks, ...rest] = args as [{ chunk: unknown }[], ...unknown[]];
    counts.writes++;
    for (const { chunk } of chunks) counts.bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : (chunk as Uint8Array).byteLength;
    return original._writev.call(this, chunks, ...rest);
  };
  const B = Buffer as unknown as Record<string, (...args: unknown[]) => Buffer>;
  const originalBuffer = { from: B.from!, alloc: B.alloc!, allocUnsafe: B.allocUnsafe!, allocUnsafeSlow: B.allocUnsafeSlow!, concat: B.concat! };
  for (const name of Object.keys(originalBuffer) as (keyof typeof originalBuffer)[]) {
    B[name] = function (this: unknown, ...args: unknown[]) {
      const made = originalBuffer[name].apply(Buffer, args);
      // Buffer.from(arrayBuffer, offset, length) is a view, not an allocation.
      if (!(name === "from" && args[0] instanceof ArrayBuffer)) counts.buffer += made.byteLength;
      return made;
    };
  }

  const clock = new VirtualClock();
  const synthesizer = { synthesize: async (text: string) => ({ samples: tone(text, 0), sampleRate: 24_000 as const, provider: "bench", model: "tone", voice: "tone" }) };
  const simulator = await startLiveSimulator({ policy: restaurantPolicy(), synthesizer, clock, apiKey: "sk-bench" });
  const client = new LiveClient();
  let sent = 0;
  let received = 0;
  client.onRaw((frame) => (frame.direction === "sent" ? sent++ : received++));
  try {
    await client.connect({
      url: simulator.url,
      apiKey: "sk-bench",
      clock,
      session: { model: "gpt-live-1", instructions: "Restaurant phone assistant.", audio: { format: { type: "audio/pcm", rate: 24000 }, output: { voice: "marin" } }, delegation: { type: "client" } },
    });
    const said = "What time do you open on Saturday?";
    const speech = pcm16ToBytes(tone(said, 11));
    simulator.registerCallerAudio(speech, said);
    const audio = new Uint8Array(SECONDS * RATE * 2);
    audio.set(speech);

    const gc = new GCProfiler();
    counts.writes = counts.bytes = counts.buffer = 0;
    sent = received = 0;
    const cpu = process.cpuUsage();
    gc.start();
    await new AudioPacer({ clock }).play(chunkPcm(audio), (chunk) => void client.appendAudio(chunk));
    const cpuUsed = process.cpuUsage(cpu);
    const statistics = gc.stop()?.statistics ?? [];
    let heap = 0;
    let last = statistics[0]?.beforeGC.heapStatistics.usedHeapSize ?? 0;
    for (const entry of statistics) {
      heap += Math.max(0, entry.beforeGC.heapStatistics.usedHeapSize - last);
      last = entry.afterGC.heapStatistics.usedHeapSize;
    }
    return {
      audio_s: SECONDS,
      frames_sent: sent,
      frames_received: received,
      kernel_writes: counts.writes,
      kernel_bytes: counts.bytes,
      heap_bytes_allocated: heap,
      buffer_api_bytes: counts.buffer,
      cpu_ms: (cpuUsed.user + cpuUsed.system) / 1000,
    };
  } finally {
    await client.close();
    await simulator.close();
    proto._write = original._write;
    proto._writev = original._writev;
    Object.assign(B, originalBuffer);
  }
}

/** Per second of audio, and per trial of `trialSeconds` (the bundled CRAWL cases' median timeline is 12.7 s). */
export function printWire(results: WireResult[], trialSeconds = 12.7): void {
  const median = (pick: (r: WireResult) => number) => {
    const values = results.map(pick).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)]!;
  };
  const rows: [string, (r: WireResult) => number, number][] = [
    ["frames sent (caller → service)", (r) => r.frames_sent, 0],
    ["frames received (service → caller)", (r) => r.frames_received, 0],
    ["kernel writes (both ends)", (r) => r.kernel_writes, 0],
    ["bytes written to sockets", (r) => r.kernel_bytes, 0],
    ["JS heap bytes allocated", (r) => r.heap_bytes_allocated, 0],
    ["Buffer API bytes allocated", (r) => r.buffer_api_bytes, 0],
    ["CPU ms", (r) => r.cpu_ms, 1],
  ];
  console.log(`\nGPT-Live wire: client ↔ simulator on a VirtualClock, ${results[0]!.audio_s} s of caller audio, median of ${results.length} runs`);
  console.log(`  ${"".padEnd(38)} ${"per s of audio".padStart(16)} ${`per ${trialSeconds} s trial`.padStart(18)}`);
  for (const [label, pick, digits] of rows) {
    const perSecond = median(pick) / results[0]!.audio_s;
    const fmt = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
    console.log(`  ${label.padEnd(38)} ${fmt(perSecond).padStart(16)} ${fmt(perSecond * trialSeconds).padStart(18)}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results: WireResult[] = [];
  for (let i = 0; i < 5; i++) results.push(await benchWire());
  printWire(results);
}
