/** The speech room: caller speech behind one interface (CRAWL input), offline or live, and its cache. */
export { SPEECH_SAMPLE_RATE, SpeechError, requireSpeakableText } from "./synthesizer";
export type { SpeechSynthesizer, SynthesizedSpeech, SynthesizeOptions, SpeechErrorCode } from "./synthesizer";
export {
  EspeakSynthesizer,
  checkEspeakVoice,
  resolveEspeakVoice,
  ESPEAK_VOICE_FOR_OPENAI_VOICE,
  ESPEAK_PROVIDER,
  ESPEAK_MODEL,
  ESPEAK_MAX_TEXT_LENGTH,
  DEFAULT_ESPEAK_REQUESTED_VOICE,
} from "./espeak";
export type { EspeakSynthesizerOptions } from "./espeak";
export {
  OpenAISpeechSynthesizer,
  OPENAI_SPEECH_VOICES,
  OPENAI_SPEECH_PROVIDER,
  DEFAULT_OPENAI_SPEECH_MODEL,
  DEFAULT_OPENAI_SPEECH_VOICE,
  DEFAULT_OPENAI_BASE_URL,
  OPENAI_SPEECH_MAX_TEXT_LENGTH,
} from "./openai-tts";
export type { OpenAISpeechOptions } from "./openai-tts";
export { CacheOnlySynthesizer } from "./cache-only";
export type { SpeechService } from "./synthesizer";
export { CachedSynthesizer, speechCacheKey, SPEECH_CACHE_FORMAT_VERSION, DEFAULT_SPEECH_CACHE_DIR } from "./cache";
export type { CachedSynthesizerOptions, SpeechCacheKeyFields, SpeechCacheStats } from "./cache";
export { MemoSynthesizer, DEFAULT_MEMO_SAMPLES, memoizedEspeak } from "./memo";
