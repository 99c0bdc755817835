/** report.html: one self-contained page per run, its data embedded, its styles and script inline. */

import { gunzipSync, gzipSync } from "node:zlib";
import type { ReportData } from "./client/data";
import { viewerScript } from "./viewer-bundle";

/**
 * report.html: one self-contained page per run. The run's data is embedded: the overview and trial list
 * as one JSON block, each trial's details in its own block as gzip in base64 (unpacked by the browser's
 * own DecompressionStream only when the trial is opened, so thousands of trials stay small and load
 * fast). The page script and styles are inline, and the only outside files are the run's own audio,
 * linked by relative path. A Content-Security-Policy forbids every network request.
 */

export function escapeHtml(text: unknown): string {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** JSON inside a script element: `<` escaped so no text can close the element. */
const scriptJson = (json: string) => json.replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");

/** Where the page is opened: as a file (no request at all), or served by `crashlab view --review` (its own server only). */
export type PageMode = "file" | "served";

const CSP: Record<PageMode, string> = {
  file: "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; media-src 'self' file:",
  served: "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; media-src 'self'; connect-src 'self'",
};

export const STYLE = `
:root{--fg:#1d1d1f;--muted:#6e6e73;--line:#e2e2e7;--bg:#fff;--soft:#f5f5f7;--caller:#2f6fd6;--caller-soft:#dce8fb;--assistant:#d9731a;--assistant-soft:#fbe7d3;
--pass:#1f7a3a;--pass-bg:#dcf3e2;--fail:#b3261e;--fail-bg:#fadcd9;--warn:#8a5a00;--warn-bg:#fff0c7;--err:#7a2f8f;--err-bg:#f1dcf6;--neutral:#55575c;--neutral-bg:#ececf0;--hl:#ffe56a}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:var(--fg);background:var(--bg)}
#app{max-width:1280px;margin:0 auto;padding:1.2rem 1.5rem 3rem}
h1{font-size:1.35rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.6rem 0 .5rem;padding-bottom:.2rem;border-bottom:1px solid var(--line)}h3{font-size:.95rem;margin:1rem 0 .4rem}
code,pre,.eid,.time,.clock{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--soft);padding:.4rem .6rem;border-radius:4px;overflow:auto;max-height:22rem;margin:.2rem 0;white-space:pre-wrap;word-break:break-word}
a{color:#0b57d0;text-decoration:none}a:hover{text-decoration:underline}
.muted{color:var(--muted)}.meta{color:var(--muted);margin:.2rem 0 .6rem}
table{border-collapse:collapse;width:100%;margin:.3rem 0}th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
th{font-weight:600;color:var(--muted);font-size:12px;background:var(--soft)}td.n,th.n{text-align:right;white-space:nowrap}
.badge{display:inline-block;padding:0 .45rem;border-radius:.7rem;font-size:12px;line-height:1.6;white-space:nowrap;font-weight:500}
.t-passed{background:var(--pass-bg);color:var(--pass)}.t-failed{background:var(--fail-bg);color:var(--fail)}.t-warn{background:var(--warn-bg);color:var(--warn)}
.t-error{background:var(--err-bg);color:var(--err)}.t-neutral{background:var(--neutral-bg);color:var(--neutral)}
.decision{display:flex;gap:1.2rem;align-items:flex-start;padding:.8rem 1rem;border-radius:6px;margin:.8rem 0}
.decision-word{font-size:1.3rem;font-weight:700;white-space:nowrap}.decision .reasons{margin:.3rem 0 0;padding-left:1.1rem}
.reasons{margin:.2rem 0 0;padding-left:1.1rem;color:var(--muted);font-size:13px}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(180px,1fr));gap:.6rem}
.card{border:1px solid var(--line);border-radius:6px;padding:.5rem .7rem}.card-label{color:var(--muted);font-size:12px}.card-value{font-size:1.25rem;font-weight:600}.card-sub{color:var(--muted);font-size:12px}
.stages{margin:.6rem 0}
.rate{display:inline-flex;align-items:center;gap:.5rem;white-space:nowrap}
.bar{position:relative;display:inline-block;width:140px;height:10px;background:var(--soft);border:1px solid var(--line);border-radius:5px}
.bar .ci{position:absolute;top:1px;bottom:1px;background:#9dbbe9;border-radius:4px}.bar .pt{position:absolute;top:-3px;width:2px;height:14px;margin-left:-1px;background:#1b3f7a}
.rate .num{min-width:2.6rem;text-align:right;font-variant-numeric:tabular-nums}.rate .ci-text{font-size:12px}
.breakdowns{display:grid;grid-template-columns:repeat(auto-fill,minmax(460px,1fr));gap:0 2rem}.breakdown{min-width:0;overflow-x:auto}
.breakdown .bar{width:110px}
.filters{display:flex;flex-wrap:wrap;gap:.4rem .6rem;align-items:center;margin:.4rem 0}
.filters input[type=search]{min-width:18rem;padding:.3rem .5rem;border:1px solid #c7c7cc;border-radius:4px;font:inherit}
.filters select,.filters button,.controls button,.controls select{font:inherit;padding:.2rem .4rem;border:1px solid #c7c7cc;border-radius:4px;background:#fff}
.chip{display:inline-flex;gap:.25rem;align-items:center;border:1px solid var(--line);border-radius:1rem;padding:.1rem .55rem;font-size:13px;cursor:pointer;user-select:none}
.count{color:var(--muted);margin:.3rem 0}
.scroll{overflow-x:auto}
table.trials td.said{color:var(--muted);max-width:26rem;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
table.trials .err{color:var(--err)}
button.sort{all:unset;cursor:pointer}button.sort.active{color:var(--fg)}
.trial-nav{display:flex;gap:1rem;align-items:baseline;margin-bottom:.4rem}
.banner{padding:.5rem .8rem;border-radius:6px}
.player{position:sticky;top:0;z-index:2;background:var(--bg);padding:.4rem 0;border-bottom:1px solid var(--line)}
.controls{display:flex;gap:.8rem;align-items:center;flex-wrap:wrap;margin-bottom:.3rem}
.controls .play{min-width:6.5rem;font-weight:600}
.timeline-box{width:100%;cursor:crosshair;user-select:none}
svg.timeline{display:block;font:11px system-ui,sans-serif}
svg .lane{fill:#fafafc}svg .lane-label{fill:var(--muted);font-size:12px}
svg .tick{stroke:#ececf0}svg .tick-label{fill:var(--muted)}
svg .wave{stroke-width:1.2;fill:none}svg .wave.caller{stroke:var(--caller)}svg .wave.assistant{stroke:var(--assistant)}
svg .speech.caller{fill:var(--caller-soft)}svg .speech.assistant{fill:var(--assistant-soft)}
svg .overlap{fill:rgba(200,30,60,.16);stroke:rgba(200,30,60,.5);stroke-dasharray:2 2}
svg .turn.user{fill:var(--caller)}svg .turn.assistant{fill:var(--assistant)}svg .turn.text-only{opacity:.55}
svg .span path{stroke-width:1.5;fill:none}svg .span text{font-size:11px}
svg .tone-ok path{stroke:#1f7a3a}svg .tone-ok text{fill:#1f7a3a}svg .tone-bad path{stroke:var(--fail)}svg .tone-bad text{fill:var(--fail)}svg .tone-warn path{stroke:var(--warn)}
svg .item rect{fill:#7b61c9}svg .item text{fill:var(--fg)}svg .item.failed rect{fill:var(--fail)}
svg .item.delegation rect{fill:#9aa5b8}svg .content-mark{fill:#3c4a60}
svg .item.world.read rect{fill:#b9b9c3}svg .item.world.write rect{fill:#2e8a57}svg .item.world text{fill:var(--muted)}
svg .cursor{stroke:#111;stroke-width:1.5;pointer-events:none}
svg .hl rect,svg rect.hl{stroke:#e0a800;stroke-width:3;fill:var(--hl)}svg .hl{outline:none}
.legend{font-size:12px;color:var(--muted);display:flex;gap:.35rem;align-items:center;flex-wrap:wrap;margin-top:.2rem}
.lg{display:inline-block;width:12px;height:10px;border-radius:2px;margin-left:.6rem}
.lg.caller{background:var(--caller)}.lg.assistant{background:var(--assistant)}.lg.overlap{background:rgba(200,30,60,.25)}.lg.speech{background:var(--caller-soft);border:1px solid var(--assistant-soft)}.lg.tool{background:#7b61c9}.lg.world{background:#2e8a57}
.cols{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 1.5rem}
.transcript .row{border-left:3px solid transparent;padding:.3rem .5rem;margin:.15rem 0;border-radius:4px;cursor:pointer}
.transcript .row.user{border-left-color:var(--caller)}.transcript .row.assistant{border-left-color:var(--assistant)}
.transcript .row:hover{background:var(--soft)}.transcript .row.now{background:#eaf1fd;box-shadow:inset 0 0 0 1px #b8cdf3}
.row-head{display:flex;gap:.6rem;align-items:baseline;flex-wrap:wrap;font-size:12px;color:var(--muted)}
.row-head .who{font-weight:600;color:var(--fg);text-transform:uppercase;font-size:11px;letter-spacing:.03em}
.row-head .eid{margin-left:auto}
.action{background:var(--neutral-bg);border-radius:3px;padding:0 .3rem;font-size:11px;font-weight:600}
.lat{color:var(--pass)}
.card-item{border:1px solid var(--line);border-radius:6px;padding:.4rem .6rem;margin:.4rem 0}
.kv{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:.6rem}.kv .k{font-size:12px;color:var(--muted)}
.lines .line{font:12px/1.45 ui-monospace,Menlo,Consolas,monospace;padding:.15rem .4rem;border-radius:3px;word-break:break-word}
.eid{color:var(--muted);margin-right:.5rem}
.semantic{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem;border-top:1px dashed var(--line);padding:.6rem 0}
.rationale{margin:.3rem 0}
.cited-item{margin:.25rem 0;font-size:13px}
button.cite{font:12px ui-monospace,Menlo,Consolas,monospace;color:#0b57d0;background:#eef3fd;border:1px solid #c9d8f6;border-radius:3px;padding:0 .3rem;cursor:pointer}
button.cite:hover{background:#dfe9fc}
.missing{color:var(--fail)}
.audio-note{background:var(--warn-bg);color:var(--warn);border-radius:4px;padding:.15rem .5rem;font-size:13px}
.hl{background:var(--hl) !important;outline:2px solid #e0a800;outline-offset:1px}
details{margin:.4rem 0}summary{cursor:pointer;color:var(--muted)}
ul.artifacts{padding-left:1.1rem;font-size:13px}
table.metrics td{font-size:13px}table.metrics pre{max-height:10rem}
.review{border:1px solid var(--line);border-radius:6px;padding:.2rem .8rem .6rem;margin:.8rem 0}.review h2{margin-top:.6rem}details.review{padding:.4rem .8rem}details.review summary{color:var(--fg)}
.review-table tr.dim td{vertical-align:middle}.review-table tr.focused{background:#eaf1fd;box-shadow:inset 3px 0 0 #0b57d0}
.verdicts{white-space:nowrap}button.verdict{font:inherit;font-size:13px;padding:.1rem .5rem;margin-right:.25rem;border:1px solid #c7c7cc;border-radius:4px;background:#fff;cursor:pointer}
button.verdict[aria-pressed=true].v-passed{background:var(--pass-bg);color:var(--pass);border-color:var(--pass);font-weight:600}
button.verdict[aria-pressed=true].v-failed{background:var(--fail-bg);color:var(--fail);border-color:var(--fail);font-weight:600}
button.verdict[aria-pressed=true].v-unsure{background:var(--warn-bg);color:var(--warn);border-color:var(--warn);font-weight:600}
.review-line{margin:.1rem 0;font-size:13px}.review .note{color:var(--fg);font-size:13px}.anchor{font:12px ui-monospace,Menlo,Consolas,monospace;color:var(--muted)}
.carried{font-size:11px;background:var(--neutral-bg);color:var(--neutral);border-radius:3px;padding:0 .3rem}
.note-box{display:grid;gap:.2rem;margin:.5rem 0}.note-box label{font-size:12px;color:var(--muted)}.note-box textarea{font:inherit;padding:.3rem .5rem;border:1px solid #c7c7cc;border-radius:4px;width:100%}
.review-status{min-height:1.3em;font-size:13px}.review-status.ok{color:var(--pass)}.review-status.error{color:var(--fail);font-weight:600}
.keyline{font-size:13px;color:var(--muted);margin:.2rem 0 .5rem}.hint{background:var(--soft);border-radius:4px;padding:.3rem .6rem}
kbd{font:12px ui-monospace,Menlo,Consolas,monospace;border:1px solid #c7c7cc;border-bottom-width:2px;border-radius:3px;padding:0 .3rem;background:#fff}
table.keymap{width:auto}table.keymap td{border:0;padding:.1rem .6rem .1rem 0;font-size:13px}
table.gates td:nth-child(3){white-space:nowrap}
.decision .again{color:var(--fg);margin:.5rem 0 0;padding-top:.4rem;border-top:1px solid rgba(0,0,0,.1)}
.review-banner{background:#eaf1fd;margin:.4rem 0}.human-status{font-size:12px;margin-top:.2rem}
@media (max-width:900px){.cols,.semantic,.kv{grid-template-columns:minmax(0,1fr)}}
`;

/** A trial's details as embedded: its JSON, gzipped, in base64. */
export function packTrial(json: string): string {
  return gzipSync(Buffer.from(json, "utf8"), { level: 9 }).toString("base64");
}

export function unpackTrial(packed: string): string {
  return gunzipSync(Buffer.from(packed, "base64")).toString("utf8");
}

/** The page: run data, one packed block per trial (`packTrial`), the viewer script. */
export function reportHtml(data: ReportData, packedTrials: readonly string[], mode: PageMode = "file"): string {
  const blocks = packedTrials.map((packed, i) => `<script type="application/x-crashlab-trial" id="trial-${i}">${packed}</script>`).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP[mode]}">
<title>crashlab ${escapeHtml(data.run.run_id)} — ${escapeHtml(data.decision.state)}</title><style>${STYLE}</style></head>
<body><div id="app"><noscript><p>This report draws itself with JavaScript: allow scripts for this file to see the run ${escapeHtml(data.run.run_id)}. The data is in results.json beside it.</p></noscript></div>
<script type="application/json" id="run-data">${scriptJson(JSON.stringify(data))}</script>
${blocks}
<script>${viewerScript().replace(/<\/script/gi, "<\\/script")}</script>
</body></html>
`;
}
