// The trial worker thread's entry point (built as dist/worker.js).

import * as alpha from "./alpha/index";
import { engineSetup } from "./core/cli/run-settings";
import { serveTrials } from "./core/runner/worker";

// A trial worker thread's entry, built beside the bin: it serves the package the same `crashlab/alpha`
// the bin does (this copy of crashlab), so the package and the engine share every class and schema; the
// CLI's settings become engine options by the same function the main thread uses.
void serveTrials(alpha as Record<string, unknown>, engineSetup);
