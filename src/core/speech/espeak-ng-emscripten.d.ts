/**
 * The slice of @echogarden/espeak-ng-emscripten (an Emscripten build with no type declarations) that
 * espeak.ts uses. GPL-3.0: only espeak.ts may import the package.
 */
declare module "@echogarden/espeak-ng-emscripten" {
  export interface EspeakWorker {
    /** 0 on success; any other value means espeak has no voice by that name. */
    set_voice(name: string): number;
    get_samplerate(): number;
    /** Calls `onAudio` with each chunk of native-rate PCM16; returning true from it stops synthesis. */
    synthesize(text: string, onAudio: (samples: Int16Array | undefined, events: unknown[]) => boolean | void): void;
  }

  export interface EspeakModule {
    eSpeakNGWorker: new () => EspeakWorker;
    /** View of the module's whole linear memory; replaced (not resized) when the memory grows. */
    readonly HEAPU8: Uint8Array;
    /** The in-memory file system holding espeak-ng-data. */
    FS: { readdir(path: string): string[] };
  }

  const createEspeakModule: (moduleArg?: object) => Promise<EspeakModule>;
  export default createEspeakModule;
}
