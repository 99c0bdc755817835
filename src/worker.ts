// The trial worker thread's entry point (built as dist/worker.js).

import * as alpha from "./alpha/index";
import { serveTrials } from "./core/runner/worker";

// A trial worker thread's entry, built beside the bin: it serves the package the same `crashlab/alpha`
// the bin does (this copy of crashlab), so the package and the engine share every class and schema; the
// run's settings become engine options by the same function the main thread uses (src/core/runner/engine.ts).
void serveTrials(alpha as Record<string, unknown>);
