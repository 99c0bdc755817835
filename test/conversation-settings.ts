import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OfflineCaller } from "../src/core/caller/offline-caller";
import { CachedSynthesizer, EspeakSynthesizer } from "../src/core/speech/index";
import type { ConversationSettings } from "../src/core/trial/context";

/**
 * RUN conversations in tests as `crashlab run` holds them offline: the deterministic agenda-driven caller,
 * speaking with espeak-ng in its persona's voice (cached per voice in a temporary folder).
 */
export function offlineConversation(overrides: Partial<ConversationSettings> = {}): ConversationSettings {
  const root = mkdtempSync(join(tmpdir(), "run-caller-speech-"));
  const voices = new Map<string, CachedSynthesizer>();
  const synthesizer = (voice: string) => voices.get(voice) ?? voices.set(voice, new CachedSynthesizer(new EspeakSynthesizer({ voice }), { root })).get(voice)!;
  return { caller: (persona) => new OfflineCaller({ voice: persona.voice, synthesizer }), ...overrides };
}
