// The text of crashlab's help pages: the main one, `run --help` and `init --help`.

export const MAIN_HELP = `crashlab — evaluate assembled agent systems inside controlled experiments

Usage:
  crashlab init [dir]             write a working evaluation package (world, dataset, verifier, targets)
                                  into dir (default: the current folder); never overwrites a file
  crashlab run [options]          run the evaluation package's cases as trials and apply the gates
  crashlab list [--package P] [--data F]
                                  list the package's targets, cases and verifiers
  crashlab validate <dataset>     check a scenario dataset (docs/datasets.md) and its recordings
  crashlab validate --package P [dataset]
                                  also check the package's datasets (or the one given, in the PLAN or
                                  not) against its world (initial states, tool and argument names), as
                                  \`run\` and \`run --data\` do before their first trial
  crashlab generate-audio [opts]  write WALK fixtures (recordings + dataset) from a single-turn dataset
  crashlab view <run-dir> [--trial ID] [--review]
                                  open a run's report.html (overview, or one trial's conversation viewer);
                                  --review serves it on 127.0.0.1 to record reviews from the page
  crashlab audio extract <run-dir> --trial ID [--track input|caller|assistant]
                                  cut one track out of a trial's conversation.wav (input: checked
                                  against the record's sha256)
  crashlab merge <run-dir>…       join the run folders of \`run --shard i/n\` into one run, report and
                                  gate decision (refused unless they are every shard of one plan)
  crashlab compare <base> <head>  is the candidate run worse than the baseline? per case and overall:
                                  regression, no regression detected, or cannot tell (with the repetitions
                                  needed); which parts of the target differ; P50/P90 latency and duration
  crashlab describe <run-dir>     what ran: every package file with its hash, git state of each
                                  repository, the target's digest by part, models asked for and reported
  crashlab review <run-dir> --trial ID --verifier ID --verdict passed|failed|unsure --reviewer NAME
                                  record one person's verdict on a trial (appends to reviews.jsonl)
  crashlab review-queue <run-dir> which trials to review first: those that did not pass, then a sample
                                  of passing ones spread over cases and acoustic conditions
  crashlab gates <run-dir>        decide the run's gates again with its reviews (human gates); writes
                                  nothing; exits as \`run\` does
  crashlab calibrate <run-dir>…   the semantic judge against people, per clause: agreement, Cohen's
                                  kappa with a 95% interval, disagreements (docs/review.md)
  crashlab schema [--reviews]     print the JSON Schema of results.json (--reviews: of a reviews.jsonl line)
  crashlab --version | --help

Exit codes:
  0  every required gate passed
  1  a gate failed (or nothing ran, or a required human gate awaits reviews)
  2  usage or input error (a bad flag or PLAN setting, dataset, recording, package, or results
     folder): one paragraph naming the file, scenario and field; nothing was written
  3  infrastructure errors prevented a decision (a dead connection, a refused session, a protocol
     violation by the service); the target's own silence or stall is a failure (1), not this
  4  a verifier or clause of the evaluation package raised an error: fix the package
  130 interrupted by SIGINT (Ctrl-C), 143 by SIGTERM, 129 by SIGHUP: finished trials and the outputs are
     written, the trials not run are listed; a second signal stops at once. No pass decision.

Run \`crashlab run --help\` for the run options.`;

export const RUN_HELP = `crashlab run — run every selected case as independent trials, then apply the release gates

Usage: crashlab run [options]

Package and selection:
  --package <path>            evaluations.ts, or a folder holding evaluations.ts or crashlab/evaluations.ts
                              (default: ./crashlab/evaluations.ts)
  --data <file>               run this dataset's scenarios instead of the PLAN's cases (repeatable), against
                              the package's world, targets, verifiers and gates: multi-turn scenarios
                              become RUN conversations, recorded ones WALK cases, the rest CRAWL cases
  --target <name>             which of the PLAN's targets to evaluate (default: the PLAN's default or first)
  --example <id>, --scenario <id>
                              run only this scenario (repeatable)
  --tag <tag>                 run only scenarios with this tag (repeatable)
  --max-examples <n>          run at most n cases (after the filters above; 0 = all)

Target and audio:
  --live                      every service on OpenAI's own endpoints (needs OPENAI_API_KEY) unless named
                              below; default: offline, the local GPT-Live simulator, the package's own
                              backend, espeak-ng caller speech
  --assistant <mode>          GPT-Live delegation: responses (server-managed backend, default) or client
  --model <id>                voice frontend model, or an Azure deployment name (default gpt-live-1)
  --backend-model <id>        reasoning backend model (default gpt-5.6-terra)
  --voice <name>              caller voice (default coral): with espeak-ng an OpenAI voice name or an
                              espeak-ng voice (en-us, en-gb, en-us+f2, …); otherwise one of OpenAI's voices
  --tts-model <id>            OpenAI caller speech model (--speech openai or cache; default gpt-4o-mini-tts)
  --refresh-audio             synthesize caller speech again instead of using .audio_cache/
  --chunk-ms <ms>             caller audio chunk length, 10–200 in steps of 10 (default 20)
  --response-timeout-seconds <s>
                              wait for a complete response after the caller's audio, 0.001–86400
                              (default 30)

Each service on its own endpoint, with its own key (docs/azure.md has a worked Azure configuration):
  --endpoint <ws-url>         the target's GPT-Live endpoint (default: the local simulator; with --live
                              OpenAI's); a remote endpoint runs in real time
  --endpoint-api-key-env <NAME>
                              the environment variable holding --endpoint's key
  --responses-endpoint <url>  the Responses API that answers client delegations (default: the package's
                              own offline backend; with --live OpenAI's)
  --responses-api-key-env <NAME>
  --speech <provider>         caller speech, CRAWL and the offline RUN caller: espeak (default), openai
                              (OpenAI-compatible speech, default with --live) or cache (replay OpenAI
                              speech from .audio_cache/ only)
  --speech-endpoint <url>     the speech API base for --speech openai (default OpenAI's)
  --speech-api-key-env <NAME>
  --caller-endpoint <ws-url>  RUN: the simulated caller's own GPT-Live endpoint (a live caller; with --live
                              OpenAI's)
  --caller-api-key-env <NAME>
  --completion-endpoint <url> RUN, live caller: the Responses API that decides when the call is over
  --completion-api-key-env <NAME>
  --azure                     every custom endpoint is Azure OpenAI: keys go in the api-key header and a
                              URL may carry ?api-version=… (automatic for *.openai.azure.com,
                              *.cognitiveservices.azure.com and *.services.ai.azure.com)
                              A custom endpoint gets only the key named for it, or none; OPENAI_API_KEY
                              goes only to OpenAI's own hosts. No credentials in URLs. The PLAN may set all
                              of these in defaults.services; a flag overrides an endpoint with its key.

WALK (recorded callers) and RUN (simulated callers):
  --condition <preset>        WALK: only recordings with this acoustic condition (repeatable); RUN: the
                              simulated caller's speech is degraded by it (one only): clean, noisy,
                              telephony, background_speech, echo, packet_loss, realistic
  --where <key=value>         only recordings whose metadata matches, e.g. accent=scottish (repeatable)
  --speech-detector <name>    rms (default; docs/audio-and-metrics.md) or webrtc (WebRTC VAD) for the timeline
  --listen                    play each conversation (caller left, assistant right) after its trial;
                              needs an audio player; not with --concurrency above 1
  --log-audio-events          log an event for every audio chunk sent and received (payloads never);
                              by default each kind is counted in one audio.frames event per trial

RUN (a simulated caller in one full-duplex conversation):
  --max-duration-seconds <s>  a conversation longer than this fails with duration_limit, 1–3600 (default: the
                              case's own, declared or 30 s + 20 s per expected turn, at least 90)
  --assistant-opening-prompt <file>
                              the assistant opens the call, asked with this text (default: the caller opens
                              with the scenario's input.text)
  --caller-voice <name>       the simulated caller's voice instead of its persona's (must differ from the
                              assistant's)
  --completion-model <id>     live caller: the model that judges when the conversation is over
                              (default gpt-5.6-luna)
  --no-semantic-drain         live caller: decide the end by the completion rule, without that model
  --response-deadline-ms <ms> the response deadline, 0–600000 (default 5000); CRAWL and WALK too

Semantic judge (docs/verifiers-and-clauses.md):
  --judge                     run the judge (default only with --live); needs OPENAI_API_KEY or --judge-endpoint
  --no-judge                  do not run the judge, also in live runs
  --judge-model <id>          judge model (default gpt-5.6-terra)
  --judge-reasoning-effort <e>  none, minimal, low, medium, high, xhigh
  --judge-repetitions <n>     judge calls per clause, 1–15; majority verdict, mean score (default 1)
  --judge-endpoint <url>      base URL of any Responses-compatible server, e.g. http://127.0.0.1:8080/v1
  --judge-api-key-env <NAME>  the environment variable holding the key for a custom --judge-endpoint;
                              without it a custom endpoint gets no key
  --judge-timeout-seconds <s> per judge request, 0.001–3600 (default 60)
  --judge-retries <n>         retries per judge request on outages and timeouts, 0–10 (default 1)

Trials:
  --repetitions <n>           independent trials per case, each with a fresh world, 1–1,000,000 (default 1)
  --concurrency <n>           trials at once, 1–8 with virtual time, 1–64 in real time (default:
                              offline, the number of cores up to 8, each trial in a worker thread;
                              in real time and with --listen, 1); 1 runs every trial in one thread
  --seed <n>                  run seed, >= 0; each trial's seed derives from it and the trial id (default 1)
  --max-trials <n>            refuse a run of more trials than this, 1–1,000,000 (default 10,000)
  --no-real-time              virtual time: no waiting, reproducible (default offline)
  --real-time                 wall-clock time: audio is paced at its real rate (default with a remote
                              Live endpoint: --live, --endpoint, --caller-endpoint)
  --trial-timeout-seconds <s> limit on a trial's timeline, 0.001–86400 (default 120)
  --max-tool-calls <n>        limit on tool calls per trial, 1–100,000 (default 20)
  --max-turns <n>             limit on assistant turns per trial, 1–100,000 (default 16)
  --max-provider-requests <n> limit on backend/model requests per trial, 1–100,000 (default 50)

Gates (override the PLAN's gate configuration):
  --require <verifier>        make a verifier required (repeatable)
  --advisory <verifier>       make a verifier advisory (repeatable)
  --min-pass-rate <0..1>      minimum per-case pass rate for every gate, a number from 0 to 1 (default 1)
  --wilson                    compare the 95% Wilson lower bound instead of the raw pass rate

Resume, rerun and shards:
  --resume <run-dir>          finish an interrupted run (Ctrl-C, SIGTERM, a kill, a crash) in its own
                              folder, with the settings it started with: the trials its journal holds are
                              not run again; a plan changed since (package, target, settings) is refused
  --force                     with --resume: finish the run although its plan changed
  --shard <i/n>               run only slice i of n (1 <= i <= n <= 1000): every trial of the selection
                              is in exactly one slice, balanced by expected duration; each shard's run
                              folder is a blob that \`crashlab merge\` joins into one run
  --last-failed               run only the cases that had a trial not pass in the last run (in --results-dir)

Output:
  --results-dir <dir>         where run folders go (default ./results)
  --run-name <name>           prefix of the run id
  --artifacts <which>         whose audio (conversation.wav) is kept: failures (default: failed,
                              inconclusive and errored trials, and each case's first repetition), all,
                              or none; every trial's transcript and events are always kept
  --json                      print results.json to stdout instead of the summary table
  --quiet                     no per-trial progress lines
  --verbose                   per trial: the transcript, tool calls, assessments and timing; RUN
                              conversations are also printed as they unfold, each caller line with
                              what it meant (answer, correct, interrupt, …)
  --visualize                 open report.html in the browser when the run ends (as \`crashlab view\`)
  -h, --help                  this help

Every flag except the repeatable ones may be given once, and every value must be non-empty; a bad
value is a usage error (exit 2) before the package is loaded.
Settings resolve as: command line, then the PLAN's \`defaults\`, then the defaults above.`;

export const INIT_HELP = `crashlab init — write a working evaluation package into a folder

Usage:
  crashlab init [dir]        dir defaults to the current folder; it is created when missing

Writes crashlab/ (a bike shop's booking world, its offline policy, targets, a verifier, and three
datasets: four CRAWL scenarios, one WALK scenario with its recording made by generate-audio, one RUN
call), plus package.json and tsconfig.json when the folder has none. An existing package.json only
gains the scripts and dependencies it lacks; an existing tsconfig.json is left alone (the package gets
crashlab/tsconfig.json). Nothing is ever overwritten: if any file it would write exists, it writes
nothing and says which (exit 2).

  -h, --help                 this text

Then: npm install, npx crashlab run (exit 0), npx crashlab run --target faulty (exit 1).`;
