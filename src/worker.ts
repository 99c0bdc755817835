import * as alpha from "./alpha/index";
import { serveTrials } from "./core/cli/trial-worker";

// A trial worker thread's entry, built beside the bin: it serves the package the same `crashlab/alpha`
// the bin does (this copy of crashlab), so the package and the engine share every class and schema.
void serveTrials(alpha as Record<string, unknown>);
