/**
 * Golden trial records: a sha256 per trial of the record exactly as results.json serializes it, with
 * the facts of the machine left out (`wall`, and the Node version and platform in `provenance`), and one
 * of the audio and evidence catalog handed to the artifact writer. A
 * restructure of the runner must leave every digest unchanged; a change that alters records on purpose
 * regenerates them with `pnpm exec tsx scripts/golden-records.ts --write`, which prints the trials
 * that changed.
 *
 * The suites are the bundled CRAWL and WALK cases through the audio path (espeak-ng caller speech, the
 * local GPT-Live simulator, both delegation modes), the same cases at the text level, and the trials
 * that end early: every simulator fault and every limit, through audio.
 */
import { offlineConversation } from "./conversation-settings";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PLAN } from "../crashlab/evaluations";
import { RESTAURANT_BACKEND_INSTRUCTIONS, RESTAURANT_FRONTEND_INSTRUCTIONS } from "../examples/restaurant/instructions";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { RESTAURANT_TOOLS } from "../examples/restaurant/tools";
import type { LiveFaultKind } from "../src/core/simulator/faults";
import { gptLiveTarget } from "../src/core/gpt-live-target/adapter";
import { definePlan } from "../src/core/run/plan";
import { defineWorld } from "../src/core/world/define";
import type { EvidenceCatalog } from "../src/core/judge/evidence";
import type { TrialRecord } from "../src/core/record/trial-record";
import { run, type RunOptions } from "../src/core/run/run";
import type { TrialMedia } from "../src/core/trial/context";
import { EspeakSynthesizer } from "../src/core/speech/index";
import type { SessionIO, TargetAdapter, TargetSession } from "../src/core/target/types";

export const GOLDEN_FILE = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "golden-records.json");
export const GOLDEN_SEED = 1;
const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The audio and evidence a trial hands the artifact writer: the bytes behind conversation.wav and evidence.json. */
export function mediaDigest(media: TrialMedia | null, catalog: EvidenceCatalog): string {
  const hash = createHash("sha256").update(portable(JSON.stringify(catalog)));
  if (media) {
    const { input_pcm, assistant, ...rest } = media;
    const track = assistant.track;
    hash.update(JSON.stringify({ ...rest, spans: assistant.spans })).update(input_pcm).update(new Uint8Array(track.buffer, track.byteOffset, track.byteLength));
  }
  return hash.digest("hex");
}

/**
 * The record as results.json writes it, minus what depends on the machine or the wall clock: `wall`,
 * the Node version and platform, and where the repository is checked out (recording paths are absolute).
 */
export function recordDigest(record: TrialRecord): string {
  const { wall: _wall, provenance, ...rest } = record;
  const { node: _node, platform: _platform, ...machineFree } = provenance;
  return createHash("sha256").update(portable(JSON.stringify({ ...rest, provenance: machineFree }))).digest("hex");
}

/** JSON text with the repository's location replaced, so digests agree on every checkout. */
function portable(json: string): string {
  return json.split(JSON.stringify(REPO).slice(1, -1)).join("<repo>");
}

const FAULTS: LiveFaultKind[] = ["drop_before_started", "no_session_closed", "expired", "fatal_error", "binary_frame", "malformed_json", "odd_length_pcm", "stall_mid_response", "unknown_event"];

/** Text-level targets that end a trial each in its own way: the paths a well-behaved policy never takes. */
type Misbehaviour = "checks_once" | "loops_tools" | "unknown_tool" | "start_throws" | "respond_throws" | "close_unclean" | "close_throws" | "stage_fault";
const MISBEHAVIOURS: Misbehaviour[] = ["loops_tools", "unknown_tool", "start_throws", "respond_throws", "close_unclean", "close_throws", "stage_fault"];

function misbehaving(kind: Misbehaviour): TargetAdapter {
  return {
    kind: "scripted",
    accepts: ["text"],
    describe: () => ({ kind: "scripted", instructions: kind, tools: [] }),
    session: () => ({ instructions: kind, voice: "marin", delegation: "client", tools: [] }),
    async start(_request, io: SessionIO): Promise<TargetSession> {
      if (kind === "start_throws") throw new Error("backend socket refused");
      const say = (text: string) => io.emit({ type: "transcript.delta", at_ms: io.clock.now(), role: "assistant", text, start_ms: io.clock.now(), end_ms: io.clock.now() + 300 });
      return {
        async respond() {
          if (kind === "checks_once") await io.callTool({ name: "check_availability", arguments: { date: "2026-08-06", time: "19:00", party_size: 2 } });
          if (kind === "loops_tools") for (;;) await io.callTool({ name: "check_availability", arguments: { date: "2026-08-06", time: "19:00", party_size: 2 } });
          if (kind === "unknown_tool") await io.callTool({ name: "grant_pass", arguments: "{not json", call_id: "bad id!" });
          if (kind === "respond_throws") throw new Error("model went away");
          if (kind === "stage_fault") throw Object.assign(new Error("server sent a fatal error"), { stage: "provider" });
          say("Okay.");
        },
        async close() {
          if (kind === "close_throws") throw new Error("socket reset");
          return kind === "close_unclean" ? { closed_cleanly: false, close_reason: "no session.closed" } : { closed_cleanly: true, frontend_seconds: 1.5 };
        },
      };
    },
  };
}

/**
 * harbor_003 over a world with a bug (an operation that throws) and once over an initial state
 * the world refuses: the trial ends at stage "world" and at "world_setup".
 */
function brokenWorldPlan() {
  const base = PLAN.cases.find((c) => c.id === "harbor_003")!;
  const op = base.world.operations.check_availability!;
  const world = defineWorld({
    ...base.world,
    operations: {
      ...base.world.operations,
      check_availability: {
        ...op,
        run: () => {
          throw new TypeError("cannot read properties of undefined (reading 'slots')");
        },
      },
    },
  });
  const broken = { ...base, id: "broken_world", world };
  const refused = { ...base, id: "refused_state", scenario: { ...base.scenario, application: { ...base.scenario.application, initial_state: { reservations: 5 } } } };
  return definePlan({ ...PLAN, cases: [broken, refused], targets: { scripted: misbehaving("checks_once") }, default_target: "scripted" });
}

/** Every suite: a name and the run that produces it. */
type Trial = { record: TrialRecord; media: TrialMedia | null; catalog: EvidenceCatalog };
function suites(): Array<{ name: string; go: () => Promise<Trial[]> }> {
  const speech = new EspeakSynthesizer({ voice: "coral" });
  const audio = async (options: RunOptions, plan = PLAN) => {
    const out: Trial[] = [];
    // RUN conversations are golden too: the offline caller, as `crashlab run` holds them.
    await run(plan, { speech, conversation: offlineConversation(), seed: GOLDEN_SEED, concurrency: 2, ...options, onTrialEnd: (record, _done, _total, media, catalog) => void out.push({ record, media, catalog }) });
    return out.sort((a, b) => a.record.trial_id.localeCompare(b.record.trial_id));
  };
  const faulted = (fault: LiveFaultKind) =>
    definePlan({
      ...PLAN,
      default_target: "faulty",
      targets: {
        faulty: (settings) =>
          gptLiveTarget({
            settings,
            instructions: RESTAURANT_FRONTEND_INSTRUCTIONS,
            backend_instructions: RESTAURANT_BACKEND_INSTRUCTIONS,
            tools: RESTAURANT_TOOLS,
            offline: { policy: restaurantPolicy(), faults: () => [{ kind: fault }] },
          }),
      },
    });
  const booking = { ids: ["harbor_003"] };
  return [
    { name: "audio/responses", go: () => audio({ target: "restaurant", target_settings: { delegation: "responses" } }) },
    { name: "audio/client", go: () => audio({ target: "restaurant", target_settings: { delegation: "client" } }) },
    { name: "text", go: () => audio({ target: "text_restaurant" }) },
    ...FAULTS.map((fault) => ({ name: `fault/${fault}`, go: () => audio({ selection: booking }, faulted(fault)) })),
    { name: "limit/provider_requests", go: () => audio({ selection: booking, limits: { provider_requests: 1 } }) },
    { name: "limit/time_ms", go: () => audio({ selection: booking, limits: { time_ms: 3000 } }) },
    { name: "limit/turns", go: () => audio({ selection: { ids: ["harbor_003", "harbor_024"] }, limits: { turns: 1 } }) },
    { name: "speech/throws", go: () => audio({ selection: booking, speech: { synthesize: () => Promise.reject(new Error("speech service unavailable")) } }) },
    { name: "speech/wrong_rate", go: () => audio({ selection: booking, speech: { synthesize: async () => ({ samples: new Int16Array(1600), sampleRate: 16_000 }) } }) },
    { name: "audio/webrtc", go: () => audio({ selection: { ids: ["harbor_003", "harbor_003_clean"] }, speech_detector: "webrtc" }) },
    { name: "limit/response_timeout", go: () => audio({ selection: booking, audio: { response_timeout_ms: 500 } }) },
    { name: "text/world_fault", go: () => audio({}, brokenWorldPlan()) },
    ...MISBEHAVIOURS.map((kind) => ({
      name: `text/${kind}`,
      go: () => audio({ selection: { ids: ["harbor_003", "harbor_024"] }, limits: { tool_calls: 3 } }, definePlan({ ...PLAN, targets: { scripted: misbehaving(kind) }, default_target: "scripted" })),
    })),
  ];
}

/** `suite/trial id` → digest, for every golden trial; `only` picks suites by name prefix. */
export async function goldenDigests(options: { only?: string; onRecord?: (key: string, record: TrialRecord) => void } = {}): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const suite of suites()) {
    if (options.only && !suite.name.startsWith(options.only)) continue;
    for (const { record, media, catalog } of await suite.go()) {
      const key = `${suite.name}/${record.trial_id}`;
      out[key] = recordDigest(record);
      out[`${key} media+evidence`] = mediaDigest(media, catalog);
      options.onRecord?.(key, record);
    }
  }
  return out;
}

export function readGolden(): Record<string, string> {
  return JSON.parse(readFileSync(GOLDEN_FILE, "utf8")) as Record<string, string>;
}

export function writeGolden(digests: Record<string, string>): void {
  writeFileSync(GOLDEN_FILE, JSON.stringify(digests, null, 2) + "\n");
}

/** Trials whose digest differs, or that exist on one side only. */
export function changedTrials(expected: Record<string, string>, actual: Record<string, string>): string[] {
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
  return keys.flatMap((k) => {
    if (!(k in actual)) return [`${k}: missing`];
    if (!(k in expected)) return [`${k}: new`];
    return expected[k] === actual[k] ? [] : [`${k}: changed`];
  });
}
