import { chunkPcm } from "../audio/chunker";
import { AudioPacer } from "../audio/pacer";
import { concatPcm, pcm16ToBytes } from "../audio/pcm";
import type { Scenario } from "../dataset/schema";
import { provenanceDigest, sha256, type GitState } from "../provenance/digest";
import type { AgentEvent, SessionIO, TargetAdapter, TargetSession, ToolCallRequest, ToolReply } from "../target/types";
import { RealClock, VirtualClock, type Clock } from "../time/clock";
import { buildEvidenceCatalog, type EvidenceCatalog } from "../judge/evidence";
import { semanticQuality, taskUnderstandingOutcome } from "../judge/verifiers";
import { grade } from "../verify/deterministic";
import { runVerifier, type Verifier } from "../verify/verifier";
import { createWorld } from "../world/world";
import type { Json, World } from "../world/types";
import type { CaseDefinition, TrialSpec } from "./plan";
import { TRIAL_RECORD_VERSION, type CallerInputRecord, type Delegation, type LimitUsage, type Limits, type LoggedEvent, type ToolExecution, type TrialError, type TrialRecord, type TrialStatus, type Turn } from "../record/trial-record";
import { type Assessment } from "../record/assessment";
import { groupTranscript } from "../timeline/turns";
import { loadRecording } from "../walk/recordings";
import type { PlacedAssistantAudio } from "../timeline/turns";
import { AssistantTrack } from "./assistant-track";
import { audioMetrics, backendUsage, type SpeechDetector } from "./audio-metrics";
import { ResponseCompletion, transcriptFragments } from "./completion";

export interface TrialContext {
  spec: TrialSpec;
  target: TargetAdapter;
  target_name: string;
  limits: Limits;
  verifiers: ReadonlyArray<{ verifier: Verifier; required: boolean }>;
  package_digest: string;
  crashlab_version: string;
  git: GitState;
  real_time: boolean;
  /** Caller speech for audio targets (CRAWL synthesizes `input.text`). */
  speech?: CallerSpeech;
  audio?: AudioSettings;
  /** Public business facts for the evidence catalog (`fact.<key>`). */
  facts?: Record<string, Json>;
  speech_detector?: SpeechDetector;
}

/** The synthesizer interface the harness needs (src/core/speech implements it). */
export interface CallerSpeech {
  readonly provider?: string;
  readonly model?: string;
  readonly voice?: string;
  synthesize(text: string, options?: { signal?: AbortSignal }): Promise<{ samples: Int16Array; sampleRate: number }>;
}

export interface AudioSettings {
  chunk_ms: number;
  /** §3: from the end of caller audio; not extended by delegation. */
  response_timeout_ms: number;
  /** §3: how long to wait for session.closed after session.close. */
  close_timeout_ms: number;
}

export const DEFAULT_AUDIO: AudioSettings = { chunk_ms: 20, response_timeout_ms: 30_000, close_timeout_ms: 10_000 };

/** Audio a trial produced, for the artifact writer (kept out of the record: records hold data only). */
export interface TrialMedia {
  /** The exact caller PCM sent (PCM16, 24 kHz mono), including the zero-padding of the final chunk. */
  input_pcm: Uint8Array;
  /** When the first caller chunk was sent, on the trial timeline. */
  caller_start_ms: number;
  assistant: PlacedAssistantAudio;
  sample_rate: number;
}

export interface TrialOutcome {
  record: TrialRecord;
  media: TrialMedia | null;
  /** The trial's evidence catalog (§6): observed evidence and public facts, for artifacts and reports. */
  catalog: EvidenceCatalog;
}

/** A trial limit was hit: the target's own doing, so the trial fails (it is not an infrastructure error). */
export class LimitExceeded extends Error {
  constructor(
    readonly limit: NonNullable<LimitUsage["exceeded"]>,
    readonly value: number,
  ) {
    super(`limit ${limit} exceeded (${value})`);
    this.name = "LimitExceeded";
  }
}

/** An unexpected failure at a named stage of the trial: becomes `infrastructure_error`. */
class StageError extends Error {
  constructor(
    readonly stage: string,
    fault: unknown,
  ) {
    super(errorMessage(fault), { cause: fault });
  }
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** Strip what must not reach logs: audio payloads become their byte length. */
function loggable(event: AgentEvent): Json {
  if (event.type === "audio.delta") return { role: event.role, bytes: event.pcm.byteLength };
  if (event.type === "raw" && event.event && typeof event.event === "object" && !Array.isArray(event.event)) {
    const raw = { ...(event.event as Record<string, Json>) };
    for (const key of ["audio", "delta"] as const) {
      if (typeof raw[key] === "string" && /audio/.test(String(raw.type))) raw[key] = `[${Math.floor(((raw[key] as string).length * 3) / 4)} bytes removed]`;
    }
    return { direction: event.direction, event: raw };
  }
  const { type: _t, at_ms: _a, ...rest } = event;
  return JSON.parse(JSON.stringify(rest)) as Json;
}

/** The caller input of a case, copied so the target never holds a reference into the scenario. */
function callerContext(scenario: Scenario) {
  return scenario.input.context ? structuredClone(scenario.input.context) : undefined;
}

/**
 * Run one trial: fresh world, fresh session, the caller's input, then grading. Never throws: every
 * outcome, including unexpected exceptions, ends in a trial record with one of the four statuses.
 */
export async function runTrial(ctx: TrialContext): Promise<TrialOutcome> {
  const { spec, limits } = ctx;
  const c: CaseDefinition = spec.case;
  const scenario = c.scenario;
  const wallStart = Date.now();
  const startedAt = new Date(wallStart).toISOString();
  const clock: Clock = ctx.real_time ? new RealClock() : new VirtualClock();
  const abort = new AbortController();
  const events: LoggedEvent[] = [];
  const agentEvents: AgentEvent[] = [];
  const tools: ToolExecution[] = [];
  const usage: LimitUsage = { time_ms: 0, turns: 0, tool_calls: 0, provider_requests: 0, exceeded: null };
  const log = (source: LoggedEvent["source"], type: string, data: Json) => events.push({ at_ms: clock.now(), source, type, data });
  let error: TrialError | null = null;
  let worldFault: StageError | null = null;
  let limitHit: LimitExceeded | null = null;
  let world: World | null = null;
  let session: TargetSession | null = null;
  let completed = false;
  const audioMode = ctx.target.accepts.includes("audio");
  const audio = ctx.audio ?? DEFAULT_AUDIO;
  const track = new AssistantTrack();
  const completion = new ResponseCompletion(audio.chunk_ms, () => track.voiced());
  let inputPcm: Uint8Array | null = null;
  let callerStart = 0;

  const exceed = (limit: NonNullable<LimitUsage["exceeded"]>, value: number): LimitExceeded => {
    const hit = new LimitExceeded(limit, value);
    if (!limitHit) {
      limitHit = hit;
      usage.exceeded = limit;
      log("harness", "limit.exceeded", { limit, value, configured: limits[limit] });
      abort.abort(hit);
    }
    return hit;
  };

  const authorized = new Set(c.tools ?? Object.keys(c.world.operations));
  const usedCallIds = new Set<string>();
  const io: SessionIO = {
    clock,
    signal: abort.signal,
    emit(event) {
      agentEvents.push(event);
      if (event.type === "audio.delta") track.add(event.at_ms, event.pcm);
      completion.observe(event);
      log("target", event.type, loggable(event));
    },
    countProviderRequest(kind) {
      usage.provider_requests++;
      if (usage.provider_requests > limits.provider_requests) throw exceed("provider_requests", usage.provider_requests);
      log("harness", "provider.request", { kind, count: usage.provider_requests });
    },
    async callTool(request: ToolCallRequest): Promise<ToolReply> {
      if (abort.signal.aborted) throw abort.signal.reason ?? new Error("trial aborted");
      usage.tool_calls++;
      if (usage.tool_calls > limits.tool_calls) throw exceed("tool_calls", usage.tool_calls);
      // The harness owns call ids in the record: a target cannot collide with or overwrite earlier evidence.
      const proposed = typeof request.call_id === "string" && /^[A-Za-z0-9_.:-]{1,64}$/.test(request.call_id) ? request.call_id : "";
      const call_id = proposed && !usedCallIds.has(proposed) ? proposed : `hcall_${usage.tool_calls}`;
      usedCallIds.add(call_id);
      const raw = typeof request.arguments === "string" ? request.arguments : JSON.stringify(request.arguments ?? {});
      let args: Record<string, Json> | null = null;
      try {
        const parsed: unknown = JSON.parse(raw);
        if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) args = parsed as Record<string, Json>;
      } catch {
        args = null;
      }
      const requested_ms = clock.now();
      const name = String(request.name);
      completion.observeTool({ type: "tool.requested", at_ms: requested_ms, call_id, ...(request.delegation_id ? { delegation_id: String(request.delegation_id) } : {}) });
      log("harness", "tool.called", { call_id, name, arguments: raw, ...(request.delegation_id ? { delegation_id: request.delegation_id } : {}) });
      const execution: ToolExecution = { call_id, name, arguments: args, raw_arguments: raw, status: "failed", requested_ms, completed_ms: requested_ms, ...(request.delegation_id ? { delegation_id: String(request.delegation_id) } : {}) };
      if (!authorized.has(name)) {
        execution.error = { code: "unknown_tool", message: `tool "${name}" is not available in this case` };
      } else {
        try {
          const outcome = world!.perform(name, args ?? raw, { trial: spec.trial_id, call_id, ...(request.delegation_id ? { delegation_id: String(request.delegation_id) } : {}) });
          execution.world_seq = outcome.seq;
          if (outcome.outcome === "ok") {
            execution.status = "completed";
            execution.output = outcome.result ?? null;
          } else execution.error = { code: outcome.error!.code, message: outcome.error!.message };
        } catch (fault) {
          // A bug in the world, not the target's doing: end the trial as infrastructure_error.
          worldFault ??= new StageError("world", fault);
          abort.abort(worldFault);
          throw worldFault;
        }
      }
      execution.completed_ms = clock.now();
      tools.push(execution);
      completion.observeTool({ type: "tool.finished", at_ms: execution.completed_ms, call_id, ...(execution.delegation_id ? { delegation_id: execution.delegation_id } : {}) });
      log("harness", `tool.${execution.status}`, { call_id, name, ...(execution.error ? { error: execution.error } : { output: execution.output ?? null }) });
      const output = execution.status === "completed" ? JSON.stringify(execution.output ?? null) : JSON.stringify({ error: execution.error });
      return { call_id, status: execution.status, output };
    },
  };

  /**
   * Stream the caller audio on absolute deadlines, then keep the microphone open with silence until the
   * response is complete (§3) or the response timeout passes. Returns "timeout" or "complete".
   */
  const deliverAudio = async (live: TargetSession, pcm: Uint8Array): Promise<"complete" | "timeout"> => {
    if (!live.sendAudio) throw new StageError("respond", new Error(`target "${ctx.target_name}" takes audio but its session has no sendAudio()`));
    const send = live.sendAudio.bind(live);
    const pacer = new AudioPacer({
      clock,
      chunkMs: audio.chunk_ms,
      stream: "caller",
      signal: abort.signal,
      onLag: (lag) => log("harness", "audio.pacing_lag", { lag_ms: lag.lag_ms, chunk_ms: lag.chunk_ms, stream: lag.stream }),
    });
    const chunks = chunkPcm(pcm, { chunkMs: audio.chunk_ms });
    let first = true;
    log("harness", "caller_audio.started", { bytes: pcm.length, chunks: chunks.length, chunk_ms: audio.chunk_ms });
    await pacer.play(chunks, (chunk, timing) => {
      if (first) callerStart = timing.sent_ms;
      first = false;
      send(chunk);
    });
    const callerEnd = callerStart + (pcm.length / 2 / 24_000) * 1000;
    await clock.sleepUntil(callerEnd, abort.signal);
    completion.callerFinished(callerEnd);
    log("harness", "caller_audio.finished", { start_ms: callerStart, end_ms: callerEnd });
    const stop = new AbortController();
    let result = "timeout" as "complete" | "timeout";
    await pacer.streamSilenceUntil(stop.signal, (chunk, timing) => {
      send(chunk);
      if (completion.waitingFor(timing.sent_ms).length === 0) {
        result = "complete";
        stop.abort();
      } else if (timing.sent_ms >= callerEnd + audio.response_timeout_ms) stop.abort();
    });
    const stats = pacer.stats();
    log("harness", "audio.pacing", { chunks: stats.chunks, lag_events: stats.lag_events, max_lag_ms: stats.max_lag_ms, total_lag_ms: stats.total_lag_ms });
    log("harness", result === "complete" ? "response.complete" : "response.timeout", { caller_end_ms: callerEnd });
    return result;
  };

  try {
    log("harness", "trial.started", { trial_id: spec.trial_id, case_id: c.id, repetition: spec.repetition, seed: spec.seed, target: ctx.target_name });
    try {
      world = createWorld(c.world, { seed: spec.seed, trial: spec.trial_id, initialState: structuredClone(scenario.application.initial_state), now: () => clock.now() });
    } catch (e) {
      throw new StageError("world_setup", e);
    }
    if (audioMode && c.recording) {
      // WALK replays the saved recording exactly: its PCM data, never the container, never regenerated.
      let recording;
      try {
        recording = loadRecording(c.dataset_file, scenario, { id: c.recording.id, path: c.recording.path, condition: c.recording.condition, metadata: c.recording.metadata });
      } catch (e) {
        throw new StageError("recording", e);
      }
      inputPcm = concatPcm(chunkPcm(recording.pcm, { chunkMs: audio.chunk_ms }));
      // Offline only: the simulator has no recognizer, so it is told the words of these exact bytes (its
      // stand-in for speech recognition). Nothing crosses the wire; live targets ignore this.
      ctx.target.prepareCallerAudio?.({ pcm: inputPcm, text: scenario.input.text });
    } else if (audioMode) {
      if (!ctx.speech) throw new StageError("speech", new Error(`target "${ctx.target_name}" takes audio, but no speech synthesizer was configured`));
      let speech;
      try {
        speech = await ctx.speech.synthesize(scenario.input.text, { signal: abort.signal });
      } catch (e) {
        throw new StageError("speech", e);
      }
      if (speech.sampleRate !== 24_000) throw new StageError("speech", new Error(`synthesizer returned ${speech.sampleRate} Hz; the transport needs 24,000 Hz`));
      const chunks = chunkPcm(pcm16ToBytes(speech.samples), { chunkMs: audio.chunk_ms });
      inputPcm = concatPcm(chunks);
      ctx.target.prepareCallerAudio?.({ pcm: inputPcm, text: scenario.input.text });
    }
    const base = ctx.target.session();
    try {
      session = await ctx.target.start({ ...base, session_label: spec.trial_id, ...(scenario.input.context ? { context: callerContext(scenario) } : {}) }, io);
    } catch (e) {
      throw new StageError("session_start", e);
    }
    // The time limit's own timer is cancelled when the caller's turn ends; `abort` stays for real stops
    // (a limit, a world fault), so a finished session can still close cleanly.
    const timeLimitDone = new AbortController();
    abort.signal.addEventListener("abort", () => timeLimitDone.abort(), { once: true });
    const timeLimit = clock.sleep(limits.time_ms, timeLimitDone.signal).then(
      () => {
        throw exceed("time_ms", clock.now());
      },
      () => undefined,
    );
    try {
      if (audioMode) {
        const outcome = await Promise.race([deliverAudio(session, inputPcm!), timeLimit]);
        if (outcome === "timeout") {
          const waiting = completion.waitingFor(clock.now());
          throw new StageError("response_timeout", new Error(`no complete response within ${audio.response_timeout_ms / 1000} s of the end of caller audio (still waiting for: ${waiting.join(", ") || "nothing"})`));
        }
      } else {
        if (!session.respond) throw new StageError("respond", new Error(`target "${ctx.target_name}" takes text but its session has no respond()`));
        log("harness", "input.delivered", { kind: "text", characters: scenario.input.text.length });
        await Promise.race([session.respond({ kind: "text", text: scenario.input.text }), timeLimit]);
      }
      completed = true;
    } catch (e) {
      if (e instanceof StageError && !(limitHit || worldFault)) throw e;
      if (!(limitHit || worldFault)) throw new StageError(targetFault(e) ?? "respond", e);
    } finally {
      timeLimitDone.abort();
    }
    if (worldFault) throw worldFault;
    let report;
    try {
      report = await session.close();
    } catch (e) {
      throw new StageError("session_close", e);
    }
    log("harness", "session.closed", { closed_cleanly: report.closed_cleanly, reason: report.close_reason ?? null, frontend_seconds: report.frontend_seconds ?? null });
    if (!report.closed_cleanly) throw new StageError("session_close", new Error(`the session did not finalize cleanly (${report.close_reason ?? "no session.closed"})`));
  } catch (e) {
    const stageError = e instanceof StageError ? e : new StageError("harness", e);
    error = { stage: stageError.stage, message: stageError.message };
    log("harness", "trial.error", error);
    if (session && !completed) await Promise.resolve(session.close()).catch(() => undefined);
  }

  usage.time_ms = clock.now();
  const turns: Turn[] = groupTranscript(transcriptFragments(agentEvents)).turns;
  usage.turns = turns.filter((t) => t.role === "assistant").length;
  if (!limitHit && usage.turns > limits.turns) exceed("turns", usage.turns);
  const delegations = collectDelegations(agentEvents);
  const initial = (world?.initial ?? {}) as Json;
  const final = (world?.state() ?? {}) as Json;
  const worldEvents = world ? [...world.events()] : [];
  const diff = world ? world.diff() : [];
  const view = (world ? world.view() : {}) as Record<string, Json>;

  const completionNote = limitHit ? `stopped: ${(limitHit as LimitExceeded).message}` : error ? `${error.stage}: ${error.message}` : "completed";
  const gradingInput = {
    scenario,
    case_kind: c.kind,
    completed: completed && !limitHit && !error,
    completion_note: completionNote,
    turns,
    delegations,
    tool_executions: tools,
    world: { initial, final, view, events: worldEvents, diff },
  };
  const grading = grade(gradingInput);

  const provenance = provenanceDigest({
    package_digest: ctx.package_digest,
    crashlab_version: ctx.crashlab_version,
    target: ctx.target.describe(),
    scenario,
    input: inputPcm ?? scenario.input.text,
    seed: spec.seed,
    limits,
    git: ctx.git,
  });

  const placed = audioMode && inputPcm ? track.place() : null;
  // Metrics come from the audio and events captured, also when the trial ended early; a failure to
  // compute them is the harness's, recorded at stage "metrics" rather than lost.
  let audioResult: Record<string, Json> | null = null;
  if (placed) {
    try {
      audioResult = await audioMetrics({ detector: ctx.speech_detector ?? "rms", callerPcm: inputPcm!, callerStartMs: callerStart, assistant: placed, agentEvents, tools, turns, observationEndMs: clock.now() });
    } catch (e) {
      if (!error) error = { stage: "metrics", message: errorMessage(e) };
      log("harness", "metrics.error", { message: errorMessage(e) });
    }
  }
  function callerInputRecord(): CallerInputRecord {
    if (!inputPcm) return { kind: "text", sha256: sha256(scenario.input.text), duration_ms: null };
    if (c.recording)
      return {
        kind: "recording",
        sha256: sha256(inputPcm),
        duration_ms: (inputPcm.length / 2 / 24_000) * 1000,
        recording: { id: c.recording.id, path: c.recording.path, condition: c.recording.condition, metadata: c.recording.metadata },
      };
    const speech = ctx.speech;
    return {
      kind: "synthetic",
      sha256: sha256(inputPcm),
      duration_ms: (inputPcm.length / 2 / 24_000) * 1000,
      ...(speech?.provider ? { speech: { provider: speech.provider, model: speech.model ?? "", voice: speech.voice ?? "" } } : {}),
    };
  }
  const frontendSeconds = [...agentEvents].reverse().find((e): e is Extract<AgentEvent, { type: "usage" }> => e.type === "usage")?.seconds;
  const base: Omit<TrialRecord, "assessments" | "status"> = {
    record_version: TRIAL_RECORD_VERSION,
    trial_id: spec.trial_id,
    case_id: c.id,
    repetition: spec.repetition,
    scenario_id: scenario.id,
    case_kind: c.kind,
    target: ctx.target_name,
    seed: spec.seed,
    error,
    wall: { started_at: startedAt, duration_ms: Date.now() - wallStart },
    duration_ms: clock.now(),
    turns,
    delegations,
    tool_executions: tools,
    input: callerInputRecord(),
    world: { name: c.world.name, version: c.world.version, initial, final, diff: diff as unknown as Json[], events: worldEvents as unknown as Json[], view },
    events,
    dimensions: grading.dimensions,
    checks: grading.checks,
    metrics: {
      task: {
        task_completed: !error && grading.checks.every((ch) => !ch.required || ch.status !== "failed"),
        semantic_quality: { score: null, dimensions: {} },
        tool_accuracy: grading.tool_accuracy,
        tool_calls: { actual: tools.length, expected: scenario.expected.tools.required.length },
        delegation_accuracy: grading.delegation_accuracy,
        delegations: { actual: delegations.length, expected: scenario.expected.delegation },
        turns: { actual: turns.filter((t) => t.role === "user").length, expected: scenario.expected.golden_path?.turns ?? null },
      },
      audio: audioResult,
      consumption: { frontend: { audio_duration_ms: frontendSeconds === undefined ? null : frontendSeconds * 1000 }, backend: backendUsage(agentEvents) },
    },
    limits: { config: limits, usage },
    provenance,
    artifacts: {},
  };

  let assessments: Assessment[];
  if (error) {
    assessments = ctx.verifiers.map(({ verifier, required }) => ({
      verifier: verifier.id,
      version: verifier.version,
      kind: verifier.kind,
      status: "not_run" as const,
      required,
      rationale: `not run: infrastructure error at ${error!.stage}`,
      evidence_ids: [],
    }));
  } else {
    // The semantic layer runs first: its task_understanding feeds the §5 semantic_outcome check, which
    // the deterministic outcome verifier then reads. Partial credit never overrides a deterministic failure.
    const semantic: Assessment[] = [];
    for (const { verifier, required } of ctx.verifiers.filter((v) => v.verifier.kind === "semantic")) semantic.push(await runVerifier(verifier, { record: base, scenario }, required));
    const understanding = taskUnderstandingOutcome(semantic);
    if (understanding !== undefined) {
      const required = semantic.find((a) => a.verifier === "semantic.task_understanding")!.required;
      const regraded = grade({ ...gradingInput, semantic_task_understanding: understanding, semantic_task_understanding_required: required });
      base.checks = regraded.checks;
    }
    base.metrics.task.semantic_quality = semanticQuality(semantic);
    base.metrics.task.task_completed = base.checks.every((ch) => !ch.required || ch.status !== "failed");
    const deterministic: Assessment[] = [];
    for (const { verifier, required } of ctx.verifiers.filter((v) => v.verifier.kind !== "semantic")) deterministic.push(await runVerifier(verifier, { record: base, scenario }, required));
    assessments = [...deterministic, ...semantic];
  }
  const record: TrialRecord = { ...base, status: trialStatus(error, assessments), assessments };
  const media: TrialMedia | null = placed && inputPcm ? { input_pcm: inputPcm, caller_start_ms: callerStart, assistant: placed, sample_rate: 24_000 } : null;
  const catalog = buildEvidenceCatalog(record, { ...(scenario.input.context ? { context: scenario.input.context } : {}), ...(ctx.facts ? { facts: ctx.facts } : {}) });
  return { record, media, catalog };
}

/** passed | failed | inconclusive | infrastructure_error, from the required assessments. */
export function trialStatus(error: TrialError | null, assessments: readonly Assessment[]): TrialStatus {
  if (error) return "infrastructure_error";
  const required = assessments.filter((a) => a.required);
  if (required.some((a) => a.status === "failed")) return "failed";
  if (required.some((a) => a.status === "inconclusive" || a.status === "error" || a.status === "not_run")) return "inconclusive";
  return "passed";
}

function collectDelegations(events: readonly AgentEvent[]): Delegation[] {
  const byId = new Map<string, Delegation>();
  for (const e of events) {
    if (e.type === "delegation.created" && !byId.has(e.delegation_id))
      byId.set(e.delegation_id, { delegation_id: e.delegation_id, target: e.target, created_ms: e.at_ms });
    else if (e.type === "delegation.content") {
      const d = byId.get(e.delegation_id);
      if (d && d.content_ms === undefined) d.content_ms = e.at_ms;
    } else if (e.type === "delegation.completed") {
      const d = byId.get(e.delegation_id);
      if (d) d.completed_ms = e.at_ms;
    }
  }
  return [...byId.values()];
}

/** A target that reports a fatal protocol or provider error names its own stage (e.g. `protocol`, `provider`). */
function targetFault(error: unknown): string | undefined {
  const stage = (error as { stage?: unknown })?.stage;
  return typeof stage === "string" && /^[a-z_]+$/.test(stage) ? stage : undefined;
}
