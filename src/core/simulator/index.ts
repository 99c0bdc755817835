/** The local GPT-Live simulator: a loopback server that speaks the Live protocol, driven by an assistant policy. */
export { startLiveSimulator, UnknownLiveFaultError, LIVE_SESSIONS_PATH } from "./server";
export type { LiveSimulator, LiveSimulatorOptions, LiveSimulatorStats } from "./server";
export { LIVE_FAULT_KINDS, DEFAULT_SIMULATOR_TIMING, SIMULATED_BACKEND_MODEL, estimateTokens } from "./session";
export type { LiveFault, LiveFaultKind, SimulatorTiming, SimulatedSessionStats } from "./session";
export type { SimulatorSynthesizer, Placement } from "./voice";
export { CallerAudioRegistry, CallerListener, chunkFingerprint, spreadWords } from "./caller-speech";
export type { RegisteredUtterance, HeardFragment, TimedWord } from "./caller-speech";
