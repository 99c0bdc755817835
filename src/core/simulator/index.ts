/** The local GPT-Live simulator: a loopback server that speaks the Live protocol, driven by an assistant policy. */
export { startLiveSimulator, LIVE_SESSIONS_PATH } from "./server";
export type { LiveSimulator, LiveSimulatorOptions, LiveSimulatorStats } from "./server";
export { LIVE_FAULT_KINDS, UnknownLiveFaultError } from "./faults";
export type { LiveFault, LiveFaultKind } from "./faults";
export { DEFAULT_SIMULATOR_TIMING } from "./timing";
export type { SimulatorTiming } from "./timing";
export type { SimulatedSessionStats } from "./stats";
export { SIMULATED_BACKEND_MODEL } from "./description";
export { estimateTokens } from "./usage";
export type { SimulatorSynthesizer, Placement } from "./voice";
export { CallerAudioRegistry, CallerListener, chunkFingerprint, spreadWords } from "./caller-speech";
export type { RegisteredUtterance, HeardFragment, TimedWord } from "./caller-speech";
