/**
 * Summarize a `node --cpu-prof` profile by stage: self time of the WebSocket and protocol path (ws
 * framing, socket writes, JSON, base64, zod), speech synthesis, resampling, garbage collection and the
 * rest, in ms per trial. A reading aid for profiles, never part of the tests.
 *
 *   node --cpu-prof --cpu-prof-dir=prof dist/cli.js run --tag crawl --repetitions 2 --no-real-time
 *   pnpm tsx bench/cpu-profile.ts prof/CPU.*.cpuprofile 56        # 56 = trials in that run
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Our own functions on the wire path (dist/ is one bundle, so they are told apart by name). */
const WIRE_FUNCTIONS = new Set([
  "transmit", "receive", "handleEvent", "parseServerEvent", "parseClientEvent", "readHotServerEvent", "readHotClientEvent",
  "decodePcmBase64", "decodePcmBase64Into", "encodePcmBase64", "isPcmBase64", "frameKey", "sending", "received", "sendText",
  "sendAudio", "sendOutputTranscript", "emitRaw", "emit", "onFrame", "onAudio", "appendAudio", "inputAudioAppend", "corkedWrite",
]);

/** Stages in the order they are matched: the first that claims a frame gets its self time. */
const STAGES: [stage: string, claims: (name: string, url: string) => boolean][] = [
  ["idle", (name) => name === "(idle)"],
  ["garbage collection", (name) => name === "(garbage collector)"],
  ["zod", (_, url) => /node_modules\/(\.pnpm\/)?zod|\/zod\//.test(url)],
  ["ws framing", (_, url) => /node_modules\/(\.pnpm\/)?ws[@/]|\/ws\/lib\//.test(url)],
  ["socket writes (writev/write)", (name) => /^(writev|writeUtf8String|writeBuffer|writeLatin1String|writevGeneric|writeGeneric)$/.test(name)],
  ["socket reads / net", (name, url) => /^(onStreamRead|readableAddChunk)$/.test(name) || /^node:(net|stream|internal\/stream_base_commons|internal\/streams)/.test(url)],
  ["JSON", (name) => /^(parse|stringify|JSONParse|JsonStringify)$/.test(name)],
  ["base64 and Buffer", (name, url) => /base64|^(toString|from|fromString|fromStringFast|byteLength|createFromString)$/.test(name) || /^node:buffer/.test(url)],
  ["regex", (name) => /^(test|exec|RegExp)/.test(name)],
  ["resample", (name, url) => /resample|convolvePolyphase|convolveComputed|kernelTable|fillKernel/i.test(name) || /resample/.test(url)],
  ["speech synthesis (espeak)", (_, url) => /espeak/.test(url)],
  ["live protocol (our code)", (name, url) => WIRE_FUNCTIONS.has(name) && /dist\/|src\/core\/live\//.test(url)],
  ["crashlab, other", (_, url) => /dist\/|src\/core\//.test(url)],
];

export function summarize(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const totals = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const { functionName, url } = byId.get(id)!.callFrame;
    const stage = STAGES.find(([, claims]) => claims(functionName, url))?.[0] ?? "other";
    totals.set(stage, (totals.get(stage) ?? 0) + us / 1000);
  }
  return totals;
}

/** The heaviest self-time functions, for a closer look. */
export function topFunctions(profile: Profile, n: number): { name: string; url: string; ms: number }[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, { name: string; url: string; ms: number }>();
  for (let i = 0; i < profile.samples.length; i++) {
    const { functionName, url } = byId.get(profile.samples[i]!)!.callFrame;
    const key = `${functionName} ${url}`;
    const entry = self.get(key) ?? { name: functionName || "(anonymous)", url: url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/(dist|src)\//, "$1/"), ms: 0 };
    entry.ms += (profile.timeDeltas[i] ?? 0) / 1000;
    self.set(key, entry);
  }
  return [...self.values()].sort((a, b) => b.ms - a.ms).slice(0, n);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, trialsArg] = process.argv.slice(2);
  if (!file) throw new Error("usage: tsx bench/cpu-profile.ts PROFILE.cpuprofile [trials]");
  const trials = Number(trialsArg ?? 1);
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const totals = summarize(profile);
  const all = [...totals.values()].reduce((a, b) => a + b, 0);
  console.log(`self time by stage, ms per trial (${trials} trials, ${(all / 1000).toFixed(1)} s sampled)`);
  for (const [stage, ms] of [...totals].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${stage.padEnd(32)} ${(ms / trials).toFixed(1).padStart(8)}  ${((100 * ms) / all).toFixed(1).padStart(5)}%`);
  }
  console.log("\nheaviest functions (self ms per trial)");
  for (const f of topFunctions(profile, 25)) console.log(`  ${(f.ms / trials).toFixed(2).padStart(7)}  ${f.name}  ${f.url}`);
}
