/**
 * Caller speech replayed from the cache alone (`--speech cache`): the audio a remote engine made earlier
 * (by default OpenAI speech with the run's model and voice), with no engine and no key. A line that was
 * never synthesized is an error naming it, never a silent fallback to another voice.
 */
import { SpeechError, type SpeechService, type SpeechSynthesizer, type SynthesizedSpeech } from "./synthesizer";

export class CacheOnlySynthesizer implements SpeechSynthesizer {
  readonly service: SpeechService = { endpoint: "cache-only", credential: "none" };

  /** `provider`, `model` and `voice` name the engine whose cached audio is replayed (they are the cache key). */
  constructor(
    readonly provider: string,
    readonly model: string,
    readonly voice: string,
  ) {}

  async synthesize(text: string): Promise<SynthesizedSpeech> {
    throw new SpeechError(
      "not_cached",
      this.provider,
      `"${text.length > 60 ? `${text.slice(0, 60)}…` : text}" is not in the speech cache for model ${this.model}, voice ${this.voice}; synthesize it once with --speech ${this.provider} (or copy the .audio_cache folder that has it)`,
    );
  }
}
