/** Types for @echogarden/fvad-wasm (libfvad compiled by Emscripten; the package ships none). */
declare module "@echogarden/fvad-wasm" {
  export interface FvadModule {
    _fvad_new(): number;
    _fvad_free(handle: number): void;
    _fvad_set_mode(handle: number, mode: number): number;
    _fvad_set_sample_rate(handle: number, rate: number): number;
    /** 1 voiced, 0 not, -1 for an invalid frame length. */
    _fvad_process(handle: number, frame: number, length: number): number;
    _malloc(bytes: number): number;
    _free(pointer: number): void;
    HEAP16: Int16Array;
  }
  const createFvadModule: () => Promise<FvadModule>;
  export default createFvadModule;
}
