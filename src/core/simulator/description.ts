/** The session object a simulated session describes itself with in `session.started`, `session.updated` and `session.closed`. */
import { GPT_LIVE_DEFAULT_VOICE, type SessionConfig } from "../live/protocol";
import type { Clock } from "../time/clock";

/** Backend model reported when the session names none. */
export const SIMULATED_BACKEND_MODEL = "simulated-backend";
const SESSION_LIFETIME_S = 2 * 60 * 60;
/** Virtual runs report expiry against a fixed epoch (2026-01-01T00:00:00Z) so their logs are reproducible. */
const VIRTUAL_EPOCH_S = 1_767_225_600;

export function describeSession(session: { id: string; config: SessionConfig; originMs: number; clock: Clock; reported?: { model?: string; backend_model?: string } }, status: "active" | "closed") {
  const { clock, config } = session;
  const nowS = clock.virtual ? VIRTUAL_EPOCH_S + Math.floor(clock.now() / 1000) : Math.floor(Date.now() / 1000);
  const startedS = nowS - Math.floor((clock.now() - session.originMs) / 1000);
  const delegation = config.delegation ?? { type: "client" as const };
  return {
    id: session.id,
    object: "live.session",
    model: session.reported?.model ?? config.model,
    status,
    expires_at: startedS + SESSION_LIFETIME_S,
    instructions: config.instructions ?? "",
    audio: { format: { type: "audio/pcm", rate: 24_000 }, output: { voice: config.audio?.output?.voice ?? GPT_LIVE_DEFAULT_VOICE } },
    input: config.input ?? [],
    delegation:
      delegation.type === "client"
        ? delegation
        : {
            type: "responses",
            responses: {
              model: SIMULATED_BACKEND_MODEL,
              instructions: "",
              tools: [],
              tool_choice: "auto",
              parallel_tool_calls: true,
              reasoning: { effort: "medium" },
              ...delegation.responses,
              ...(session.reported?.backend_model ? { model: session.reported.backend_model } : {}),
            },
          },
  };
}
