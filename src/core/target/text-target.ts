/** The text target: an assistant policy run in-process at the text level, reporting the events a GPT-Live session would. */

import type { AssistantPolicy, PolicyToolResult } from "./policy";
import type {
  CallerInput,
  DelegationMode,
  HistoryMessage,
  SessionIO,
  SessionReport,
  SessionRequest,
  TargetAdapter,
  TargetDescriptor,
  TargetSession,
  ToolDeclaration,
} from "./types";
import type { Json } from "../world/types";

export interface PolicyTargetOptions {
  policy: AssistantPolicy;
  instructions: string;
  tools: ToolDeclaration[];
  voice?: string;
  delegation?: DelegationMode;
  /** Extra settings that define this target (for example a fault variant); they enter the provenance digest. */
  settings?: Record<string, Json>;
}

/**
 * Text-level timing model: no audio exists, so speech takes time proportional to its words (about
 * 200 words a minute) and the frontend and backend each take a fixed think time. On a virtual clock
 * this is exact and reproducible; the numbers only give transcripts a plausible timeline.
 */
const MS_PER_WORD = 300;
const FRONTEND_THINK_MS = 400;
const BACKEND_THINK_MS = 250;
/**
 * The voice frontend starts a new spoken turn for returned content: it leaves the settle gap of
 * after the acknowledgement, so the answer is not merged into the
 * acknowledgement's transcript group (which would make it count as spoken before the content existed).
 */
const NEW_TURN_GAP_MS = 600;

function speakingMs(text: string): number {
  return Math.max(1, text.trim().split(/\s+/).filter(Boolean).length) * MS_PER_WORD;
}

/**
 * A target that runs an assistant policy in-process at the text level and reports the same normalized
 * events a GPT-Live session would: transcripts, delegation lifecycle, backend responses, tool calls
 * (executed by the harness through `io.callTool`, never by the policy itself).
 */
export function policyTarget(options: PolicyTargetOptions): TargetAdapter {
  const delegation = options.delegation ?? "responses";
  const voice = options.voice ?? "marin";
  return {
    kind: "text-policy",
    accepts: ["text"],
    policy: options.policy,
    describe(): TargetDescriptor {
      return {
        kind: "text-policy",
        model: `policy:${options.policy.name}@${options.policy.version}`,
        instructions: options.instructions,
        tools: options.tools.map((t) => t.name),
        voice,
        delegation,
        settings: options.settings ?? {},
      };
    },
    session() {
      return { instructions: options.instructions, voice, delegation, tools: options.tools };
    },
    async start(request: SessionRequest, io: SessionIO): Promise<TargetSession> {
      return new PolicySession(options.policy, request, io);
    },
  };
}

class PolicySession implements TargetSession {
  private readonly transcript: HistoryMessage[];
  private delegations = 0;
  private calls = 0;
  private responses = 0;
  private closed = false;
  private lastSpeechEnd = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly policy: AssistantPolicy,
    private readonly request: SessionRequest,
    private readonly io: SessionIO,
  ) {
    this.transcript = [...(request.context?.history ?? [])];
    // The policy is the model that answers, in this process.
    io.emit({ type: "session.started", at_ms: io.clock.now(), session_id: `text_${request.session_label}`, model: `policy:${policy.name}@${policy.version}`, served_by: "in-process" });
  }

  async respond(input: CallerInput): Promise<void> {
    const { io } = this;
    const start = io.clock.now();
    await io.clock.sleep(speakingMs(input.text), io.signal);
    io.emit({ type: "transcript.delta", at_ms: io.clock.now(), role: "user", text: input.text, start_ms: start, end_ms: io.clock.now() });
    this.transcript.push({ role: "user", text: input.text });

    await io.clock.sleep(FRONTEND_THINK_MS, io.signal);
    const decision = this.policy.frontend({ request: input.text, context: this.request.context });
    if (decision.kind === "reply") {
      await this.speak(decision.text);
      return;
    }

    const delegationId = `del_${++this.delegations}`;
    const target = this.request.delegation;
    io.emit({ type: "delegation.created", at_ms: io.clock.now(), delegation_id: delegationId, target });
    const acknowledgement = decision.acknowledgement ? this.speak(decision.acknowledgement) : Promise.resolve();
    // If the backend fails (or the trial stops) first, nobody awaits the acknowledgement: it must not
    // become an unhandled rejection. Its own failure still surfaces where it is awaited below.
    acknowledgement.catch(() => undefined);

    const responseId = this.openResponse(delegationId);
    let currentResponse = responseId;
    const tools = {
      call: async (name: string, args: Record<string, unknown>): Promise<PolicyToolResult> => {
        await io.clock.sleep(BACKEND_THINK_MS, io.signal);
        const reply = await io.callTool({ name, arguments: JSON.stringify(args), call_id: `call_${++this.calls}`, delegation_id: delegationId });
        // Under managed (Responses) delegation each tool round ends the response and a follow-up continues it.
        if (target === "responses") {
          this.closeResponse(delegationId, currentResponse, "completed");
          currentResponse = this.openResponse(delegationId);
        }
        return { status: reply.status, output: parseOutput(reply.output) };
      },
    };
    let result;
    try {
      result = await this.policy.backend(
        { request: input.text, context: this.request.context, transcript: [...this.transcript] },
        tools,
      );
    } catch (error) {
      this.closeResponse(delegationId, currentResponse, "failed");
      throw error;
    }
    await io.clock.sleep(BACKEND_THINK_MS, io.signal);
    this.closeResponse(delegationId, currentResponse, "completed");
    io.emit({ type: "delegation.content", at_ms: io.clock.now(), delegation_id: delegationId, text: result.reply });
    await acknowledgement;
    await io.clock.sleepUntil(Math.max(io.clock.now(), this.lastSpeechEnd + NEW_TURN_GAP_MS), io.signal);
    await this.speak(result.reply);
    io.emit({ type: "delegation.completed", at_ms: io.clock.now(), delegation_id: delegationId });
  }

  async close(): Promise<SessionReport> {
    this.closed = true;
    return { closed_cleanly: true, close_reason: "close_requested" };
  }

  private openResponse(delegationId: string): string {
    this.io.countProviderRequest("backend_response");
    const id = `resp_${++this.responses}`;
    this.io.emit({ type: "backend.response", at_ms: this.io.clock.now(), delegation_id: delegationId, response_id: id, status: "created" });
    return id;
  }

  private closeResponse(delegationId: string, responseId: string, status: "completed" | "failed"): void {
    this.io.emit({ type: "backend.response", at_ms: this.io.clock.now(), delegation_id: delegationId, response_id: responseId, status });
  }

  private async speak(text: string): Promise<void> {
    if (this.closed) return;
    const start = this.io.clock.now();
    await this.io.clock.sleep(speakingMs(text), this.io.signal);
    this.lastSpeechEnd = this.io.clock.now();
    this.io.emit({ type: "transcript.delta", at_ms: this.io.clock.now(), role: "assistant", text, start_ms: start, end_ms: this.lastSpeechEnd });
    this.transcript.push({ role: "assistant", text });
  }
}

function parseOutput(output: string): unknown {
  try {
    return JSON.parse(output);
  } catch {
    return output;
  }
}
