/** The conversation viewer's timeline: both channels' waveforms, speech, latency, tool calls and events as one SVG. */

import { WAVEFORM_ALPHABET, type LabelledSpan, type Span, type TrialDetail } from "./data";
import { esc } from "./format";

/**
 * The conversation timeline as one SVG: both channels' waveforms with their speech regions (the metrics'
 * own detector), overlaps, response-latency and yield spans with values, delegations, tool calls and
 * world events, and the playback cursor. Every evidence item carries its id (`data-eid`), so a citation
 * can light it up here too.
 */

export const GUTTER = 92;
const RIGHT = 12;

export interface Geometry {
  width: number;
  height: number;
  duration_ms: number;
  x(ms: number): number;
  /** The time under a horizontal position in the SVG (clamped to the timeline). */
  at(x: number): number;
}

interface Lane {
  key: string;
  label: string;
  height: number;
  top: number;
}

export function timelineDuration(d: TrialDetail): number {
  const ends = [d.duration_ms, d.audio?.duration_ms ?? 0, ...d.turns.map((t) => t.end_ms), ...d.tools.map((t) => t.end_ms ?? t.at_ms ?? 0), ...d.world_events.map((w) => w.at_ms ?? 0)];
  return Math.max(1000, ...ends.filter((x) => Number.isFinite(x)));
}

export function geometry(width: number, duration_ms: number, height: number): Geometry {
  const plot = Math.max(50, width - GUTTER - RIGHT);
  return {
    width,
    height,
    duration_ms,
    x: (ms) => GUTTER + (Math.min(Math.max(ms, 0), duration_ms) / duration_ms) * plot,
    at: (x) => (Math.min(Math.max(x - GUTTER, 0), plot) / plot) * duration_ms,
  };
}

function lanesOf(d: TrialDetail): Lane[] {
  const lanes: Array<Omit<Lane, "top">> = [
    { key: "axis", label: "", height: 20 },
    { key: "caller", label: "caller", height: 58 },
    { key: "assistant", label: "assistant", height: 58 },
  ];
  if (d.latency_spans.length) lanes.push({ key: "latency", label: "response", height: 24 });
  if (d.yield_spans.length) lanes.push({ key: "yield", label: "yield", height: 24 });
  if (d.delegations.length) lanes.push({ key: "delegation", label: "delegation", height: 22 });
  if (d.tools.length) lanes.push({ key: "tools", label: "tool calls", height: 24 });
  if (d.world_events.length) lanes.push({ key: "world", label: "world", height: 24 });
  let top = 0;
  return lanes.map((l) => {
    const lane = { ...l, top };
    top += l.height;
    return lane;
  });
}

function tickStep(duration: number, width: number): number {
  const target = duration / Math.max(1, width / 90);
  for (const step of [100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000]) if (step >= target) return step;
  return 600_000;
}

const f1 = (x: number) => x.toFixed(1);

function waveform(levels: string, binMs: number, g: Geometry, lane: Lane, cls: string): string {
  const mid = lane.top + lane.height / 2;
  const half = lane.height / 2 - 3;
  let path = "";
  for (let i = 0; i < levels.length; i++) {
    const level = WAVEFORM_ALPHABET.indexOf(levels[i]!);
    if (level <= 0) continue;
    const h = Math.max(0.6, (level / 63) * half);
    const x = g.x((i + 0.5) * binMs);
    path += `M${f1(x)} ${f1(mid - h)}V${f1(mid + h)}`;
  }
  return `<path class="wave ${cls}" d="${path}"/>`;
}

function regions(spans: readonly Span[], g: Geometry, top: number, height: number, cls: string, what: string): string {
  return spans
    .map(([s, e]) => `<rect class="${cls}" x="${f1(g.x(s))}" y="${top}" width="${f1(Math.max(1, g.x(e) - g.x(s)))}" height="${height}"><title>${esc(what)} ${s}–${e} ms (${e - s} ms)</title></rect>`)
    .join("");
}

/** Labelled spans (latency, yield): a bracket with its value, written only where it fits. */
function labelled(spans: readonly LabelledSpan[], g: Geometry, lane: Lane): string {
  const y = lane.top + lane.height / 2;
  return spans
    .map((s) => {
      const x1 = g.x(s.start_ms);
      const x2 = Math.max(x1 + 2, g.x(s.end_ms));
      const text = x2 - x1 > s.label.length * 6.2 ? `<text x="${f1((x1 + x2) / 2)}" y="${f1(y - 4)}" text-anchor="middle">${esc(s.label)}</text>` : `<text x="${f1(x2 + 3)}" y="${f1(y - 4)}">${esc(s.label)}</text>`;
      return `<g class="span tone-${s.tone}"><title>${esc(s.label)} (${Math.round(s.start_ms)}–${Math.round(s.end_ms)} ms)</title><path d="M${f1(x1)} ${f1(y - 3)}V${f1(y + 5)}M${f1(x1)} ${f1(y + 1)}H${f1(x2)}M${f1(x2)} ${f1(y - 3)}V${f1(y + 5)}"/>${text}</g>`;
    })
    .join("");
}

/** Bars for items with a start and end (tool calls, delegations), each citable by its evidence id. */
function bars(items: TrialDetail["tools"], g: Geometry, lane: Lane, name: (item: Record<string, unknown>) => string, cls: string): string {
  return items
    .map((it) => {
      const x1 = g.x(it.at_ms ?? 0);
      const x2 = Math.max(x1 + 3, g.x(it.end_ms ?? it.at_ms ?? 0));
      const label = name(it.item);
      const status = String(it.item.status ?? "");
      const y = lane.top + lane.height / 2 + 4;
      // The label goes after the bar, or before it when the bar runs to the right edge.
      const after = x2 + 3 + label.length * 6.2 <= g.width - RIGHT;
      const text = after ? `<text x="${f1(x2 + 3)}" y="${y}">${esc(label)}</text>` : `<text x="${f1(x1 - 3)}" y="${y}" text-anchor="end">${esc(label)}</text>`;
      return `<g class="item ${cls}${status === "failed" ? " failed" : ""}" data-eid="${esc(it.eid)}"><title>${esc(it.line)}</title><rect x="${f1(x1)}" y="${lane.top + 5}" width="${f1(x2 - x1)}" height="${lane.height - 10}" rx="2"/>${text}</g>`;
    })
    .join("");
}

export function timelineSvg(d: TrialDetail, width: number): { svg: string; geometry: Geometry } {
  const lanes = lanesOf(d);
  const height = lanes.reduce((h, l) => h + l.height, 0) + 4;
  const g = geometry(width, timelineDuration(d), height);
  const lane = (key: string) => lanes.find((l) => l.key === key);
  const out: string[] = [];
  // Lane backgrounds and labels.
  for (const l of lanes) {
    if (l.key === "axis") continue;
    out.push(`<rect class="lane lane-${l.key}" x="${GUTTER}" y="${l.top}" width="${f1(width - GUTTER - RIGHT)}" height="${l.height}"/><text class="lane-label" x="${GUTTER - 8}" y="${l.top + l.height / 2 + 4}" text-anchor="end">${esc(l.label)}</text>`);
  }
  // Time axis.
  const step = tickStep(g.duration_ms, width - GUTTER);
  for (let t = 0; t <= g.duration_ms; t += step) {
    const x = f1(g.x(t));
    out.push(`<line class="tick" x1="${x}" x2="${x}" y1="14" y2="${height}"/><text class="tick-label" x="${x}" y="11" text-anchor="middle">${step < 1000 ? (t / 1000).toFixed(1) : Math.round(t / 1000)} s</text>`);
  }
  const caller = lane("caller")!;
  const assistant = lane("assistant")!;
  const audio = d.audio;
  if (audio) {
    out.push(regions(audio.caller_speech, g, caller.top + 2, caller.height - 4, "speech caller", "caller speech"));
    out.push(regions(audio.assistant_speech, g, assistant.top + 2, assistant.height - 4, "speech assistant", "assistant speech"));
    out.push(waveform(audio.caller, audio.bin_ms, g, caller, "caller"));
    out.push(waveform(audio.assistant, audio.bin_ms, g, assistant, "assistant"));
    out.push(regions(audio.overlaps, g, caller.top, caller.height + assistant.height, "overlap", "overlap: both speaking"));
  }
  // Transcript turns as bars under each channel (what was said, citable as utt.*); without audio they
  // fill the lane, standing in for the waveform.
  for (const t of d.turns) {
    const l = t.role === "user" ? caller : assistant;
    const x1 = g.x(t.start_ms);
    const [y, h] = audio ? [l.top + l.height - 6, 4] : [l.top + 8, l.height - 16];
    out.push(`<rect class="turn ${t.role}${audio ? "" : " text-only"}" data-eid="${esc(t.eid)}" x="${f1(x1)}" y="${y}" width="${f1(Math.max(2, g.x(t.end_ms) - x1))}" height="${h}" rx="${audio ? 0 : 3}"><title>${esc(t.eid)} ${t.start_ms}–${t.end_ms} ms: ${esc(t.text)}</title></rect>`);
  }
  const lat = lane("latency");
  if (lat) out.push(labelled(d.latency_spans, g, lat));
  const yl = lane("yield");
  if (yl) out.push(labelled(d.yield_spans, g, yl));
  const del = lane("delegation");
  if (del) {
    out.push(bars(d.delegations, g, del, (i) => `${String(i.target)}`, "delegation"));
    for (const dl of d.delegations) {
      const content = dl.item.content_ms;
      if (typeof content === "number") out.push(`<circle class="content-mark" cx="${f1(g.x(content))}" cy="${del.top + del.height / 2}" r="3"><title>backend content at ${content} ms</title></circle>`);
    }
  }
  const tools = lane("tools");
  if (tools) out.push(bars(d.tools, g, tools, (i) => String(i.name), "tool"));
  const world = lane("world");
  if (world) {
    let lastLabelEnd = -Infinity;
    for (const w of d.world_events) {
      const x = g.x(w.at_ms ?? 0);
      const label = String(w.item.operation);
      const write = w.item.operation_kind === "write";
      const show = x > lastLabelEnd;
      if (show) lastLabelEnd = x + label.length * 6.2 + 8;
      out.push(
        `<g class="item world ${write ? "write" : "read"}${w.item.outcome === "error" ? " failed" : ""}" data-eid="${esc(w.eid)}"><title>${esc(w.line)}</title><rect x="${f1(x - 1.5)}" y="${world.top + 4}" width="3" height="${world.height - 8}"/>${show ? `<text x="${f1(x + 4)}" y="${world.top + world.height / 2 + 4}">${esc(label)}</text>` : ""}</g>`,
      );
    }
  }
  out.push(`<line id="cursor" class="cursor" x1="${GUTTER}" x2="${GUTTER}" y1="0" y2="${height}"/>`);
  return {
    svg: `<svg id="timeline-svg" class="timeline" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="conversation timeline">${out.join("")}</svg>`,
    geometry: g,
  };
}
