/** The report page's conversation viewer of one trial: player, timeline and transcript on one clock. */

import type { AssessmentView, EvidenceView, TrialDetail } from "./data";
import { badge, clock, esc, json, ms, statusBadge } from "./format";
import { timelineDuration, timelineSvg, type Geometry } from "./timeline";

/**
 * The conversation viewer of one trial: player and timeline on one clock, the transcript that follows
 * playback, tool activity, world, checks, semantic assessments whose citations point at the evidence,
 * metrics and provenance.
 */

const cite = (id: string) => `<button type="button" class="cite" data-cite="${esc(id)}">${esc(id)}</button>`;

function turnRows(d: TrialDetail): string {
  if (!d.turns.length) return '<p class="muted">no transcript</p>';
  return d.turns
    .map((t, i) => {
      const who = t.role === "user" ? "caller" : "assistant";
      const label = t.action ? `<span class="action">${esc(t.action)}</span>` : "";
      const latency = t.latency_ms !== null ? `<span class="lat" title="response latency">↳ ${esc(ms(t.latency_ms))}</span>` : "";
      return `<div class="row ${t.role}" data-eid="${esc(t.eid)}" data-row="${i}" data-start="${t.start_ms}" data-end="${t.end_ms}" tabindex="0" role="button" aria-label="play from ${(t.start_ms / 1000).toFixed(2)} s"><div class="row-head"><span class="who">${who}</span>${label}<span class="time">${(t.start_ms / 1000).toFixed(2)}–${(t.end_ms / 1000).toFixed(2)} s</span>${latency}<span class="eid">${esc(t.eid)}</span></div><div class="said">${esc(t.text)}</div></div>`;
    })
    .join("");
}

function toolCards(d: TrialDetail): string {
  if (!d.tools.length) return '<p class="muted">no tool calls</p>';
  return d.tools
    .map((t) => {
      const i = t.item;
      const error = i.error as { code: string; message: string } | null;
      return `<div class="card-item" data-eid="${esc(t.eid)}"><div class="row-head"><code>${esc(i.name)}</code> ${badge(String(i.status), i.status === "completed" ? "passed" : "failed")} <span class="time">${esc(ms(t.at_ms))} → ${esc(ms(t.end_ms))}</span>${i.delegation_id ? ` <span class="muted">delegation ${esc(i.delegation_id)}</span>` : ""}<span class="eid">${esc(t.eid)}</span></div><div class="kv"><div><div class="k">arguments</div><pre>${json(i.arguments)}</pre></div><div><div class="k">${error ? "error" : "result"}</div><pre>${error ? esc(`${error.code}: ${error.message}`) : json(i.output)}</pre></div></div></div>`;
    })
    .join("");
}

function evidenceList(items: readonly EvidenceView[], empty: string): string {
  if (!items.length) return `<p class="muted">${esc(empty)}</p>`;
  return `<div class="lines">${items.map((e) => `<div class="line" data-eid="${esc(e.eid)}"><span class="eid">${esc(e.eid)}</span>${esc(e.line)}</div>`).join("")}</div>`;
}

function lineOf(d: TrialDetail, id: string): string | null {
  const turn = d.turns.find((t) => t.eid === id);
  if (turn) return `${turn.role === "user" ? "CALLER" : "ASSISTANT"} ${turn.start_ms}..${turn.end_ms} ms: ${turn.text}`;
  const item = [...d.delegations, ...d.tools, ...d.world_events, ...d.state_changes, ...d.other_evidence].find((e) => e.eid === id);
  return item ? item.line : null;
}

function semanticBlock(d: TrialDetail, a: AssessmentView): string {
  const j = a.judge;
  const facts = [a.required ? "required" : "advisory", a.score === null ? "score —" : `score ${a.score}`, j ? `clause ${esc(j.clause)}` : `v${esc(a.version)}`];
  const judgeLine = j
    ? `<p class="muted">judge ${esc(j.model)} · ${j.repetitions} repetition(s) · ${esc(ms(j.latency_ms))} · ${j.tokens} tokens · ${j.cost_usd === null ? "cost unknown" : `$${j.cost_usd.toFixed(5)}`}${j.reason ? ` · reason <code>${esc(j.reason)}</code>` : ""}${j.task_completed === null ? "" : ` · task completed: ${j.task_completed ? "yes" : "no"}`}</p>`
    : "";
  const cited = a.evidence_ids.length
    ? a.evidence_ids
        .map((id) => {
          const line = lineOf(d, id);
          return `<div class="cited-item">${cite(id)} ${line === null ? '<span class="missing">(not in the evidence catalog)</span>' : `<span class="said">${esc(line)}</span>`}</div>`;
        })
        .join("")
    : '<p class="muted">no evidence cited</p>';
  return `<div class="semantic" data-verifier="${esc(a.verifier)}"><div><p><code>${esc(a.verifier)}</code> ${statusBadge(a.status)} <span class="muted">${facts.join(" · ")}</span></p><p class="rationale">${esc(a.rationale)}</p>${judgeLine}</div><div class="cited">${cited}</div></div>`;
}

function table(head: readonly string[], rows: readonly string[][], cls = ""): string {
  return `<table class="${cls}"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
}

/** Scalar metrics as a table; nested values as JSON. */
function metricsTable(values: Record<string, unknown> | null, skip: readonly string[] = []): string {
  if (!values) return '<p class="muted">none (a text-level target has no audio)</p>';
  const rows = Object.entries(values)
    .filter(([k]) => !skip.includes(k))
    .map(([k, v]) => [`<code>${esc(k)}</code>`, v !== null && typeof v === "object" ? `<pre>${json(v)}</pre>` : esc(v === null ? "null" : String(v))]);
  return table(["metric", "value"], rows, "metrics");
}

export function trialHtml(d: TrialDetail, nav: { back: string; prev: string | null; next: string | null; position: string }): string {
  const condition = (d.input.recording as { condition?: string } | undefined)?.condition;
  const semantic = d.assessments.filter((a) => a.kind === "semantic");
  const other = d.assessments.filter((a) => a.kind !== "semantic");
  const audio = d.audio;
  const out: string[] = [];
  out.push(
    `<nav class="trial-nav"><a href="${esc(nav.back)}" id="back">← all trials</a><span class="muted">${esc(nav.position)}</span>${nav.prev ? `<a href="${esc(nav.prev)}" id="prev">‹ previous</a>` : ""}${nav.next ? `<a href="${esc(nav.next)}" id="next">next ›</a>` : ""}</nav>`,
  );
  out.push(
    `<header class="trial-head"><h1>${esc(d.id)} ${statusBadge(d.status)}</h1><p class="meta">case <code>${esc(d.case)}</code> · ${esc(d.kind)}${condition ? ` · condition <b>${esc(condition)}</b>` : ""} · repetition ${d.repetition} · seed ${d.seed} · target ${esc(d.target)} · timeline ${esc(ms(d.duration_ms))} · wall ${esc(ms(d.wall_ms))}</p></header>`,
  );
  if (d.error) out.push(`<p class="banner t-error">infrastructure error at <code>${esc(d.error.stage)}</code>: ${esc(d.error.message)}</p>`);
  for (const p of d.problems) out.push(`<p class="banner t-warn">${esc(p)}</p>`);
  const reported = d.reported_evidence;
  if (reported)
    out.push(
      `<p class="banner t-warn" id="reported-evidence">Reported by the target: ${reported.tool_calls} tool call(s) and ${reported.state_snapshots} state snapshot(s) came from the client-delegation service itself; crashlab did not observe them, and the state checks ran on the state it reported. ${
        reported.initial_state === "applied" ? "It received the scenario's initial state." : reported.initial_state === "not_accepted" ? "It accepts no fixtures: its owner provisioned its state." : "It received no initial state."
      }</p>`,
    );
  out.push(
    `<section class="player"><div class="controls"><button type="button" id="play" class="play"${audio ? "" : " disabled"} aria-label="play">▶ play</button><span id="clock" class="clock">${clock(0)} / ${clock(timelineDuration(d) / 1000)}</span><label>speed <select id="speed">${[0.5, 0.75, 1, 1.5, 2]
      .map((r) => `<option value="${r}"${r === 1 ? " selected" : ""}>${r}×</option>`)
      .join("")}</select></label>${
      audio
        ? `<a href="${esc(audio.src)}" class="muted">conversation.wav</a><span class="muted">speech: ${esc(audio.detector)} · caller left, assistant right</span><audio id="audio" preload="auto" src="${esc(audio.src)}"></audio>`
        : d.audio_note
          ? `<span class="audio-note">${esc(d.audio_note)}. The timeline, transcript and metrics below are complete; the cursor follows clicks only.</span>`
          : '<span class="muted">no audio for this trial: the cursor follows clicks only</span>'
    }</div><div id="timeline" class="timeline-box"></div><div class="legend"><span class="lg caller"></span>caller <span class="lg assistant"></span>assistant <span class="lg overlap"></span>overlap <span class="lg speech"></span>speech region <span class="lg tool"></span>tool call <span class="lg world"></span>world write</div></section>`,
  );
  out.push(
    `<div class="cols"><section><h2>Transcript</h2><div class="transcript" id="transcript">${turnRows(d)}</div>${d.other_evidence.length ? `<h3>Context and facts</h3>${evidenceList(d.other_evidence, "")}` : ""}</section><section><h2>Tool activity</h2>${toolCards(d)}${
      d.delegations.length ? `<h3>Delegations</h3>${evidenceList(d.delegations, "")}` : ""
    }<h2>World${reported ? " (as reported by the target)" : ""}</h2><h3>State diff</h3>${evidenceList(d.state_changes, "no change to the world's state")}<details class="world-events"${d.world_events.length <= 8 ? " open" : ""}><summary>World events (${d.world_events.length})</summary>${evidenceList(d.world_events, "no world events")}</details></section></div>`,
  );
  out.push(
    `<section><h2>Checks</h2>${table(
      ["check", "", "status", "rationale", "evidence"],
      d.checks.map((c) => [`<code>${esc(c.id)}</code>`, c.required ? "required" : "diagnostic", statusBadge(c.status), esc(c.rationale), c.evidence_ids.map(cite).join(" ")]),
      "checks",
    )}</section>`,
  );
  out.push(`<section><h2>Semantic assessments</h2>${semantic.length ? semantic.map((a) => semanticBlock(d, a)).join("") : '<p class="muted">none</p>'}</section>`);
  out.push(
    `<section><h2>Verifiers and dimensions</h2>${table(
      ["verifier", "", "status", "rationale", "evidence"],
      other.map((a) => [`<code>${esc(a.verifier)}</code> <span class="muted">v${esc(a.version)}</span>`, a.required ? "required" : "advisory", statusBadge(a.status), esc(a.rationale), a.evidence_ids.map(cite).join(" ")]),
    )}${table(
      ["dimension", "status", "rationale"],
      Object.entries(d.dimensions).map(([k, v]) => [`<code>${esc(k)}</code>`, statusBadge(v.status), esc(v.rationale)]),
    )}</section>`,
  );
  out.push(
    `<section class="cols"><div><h2>Metrics</h2><h3>Audio</h3>${metricsTable(d.metrics.audio, ["opportunities", "yield_opportunities"])}</div><div><h3>Task</h3>${metricsTable(d.metrics.task)}<h3>Consumption (target)</h3>${metricsTable(d.metrics.consumption)}<h3>Limits</h3><pre>${json(d.limits)}</pre></div></section>`,
  );
  out.push(
    `<section class="cols"><div><h2>Provenance</h2><pre>${json(d.provenance)}</pre></div><div><h2>Input</h2><pre>${json(d.input)}</pre><h3>Artifacts</h3><ul class="artifacts">${Object.entries(d.artifacts)
      .map(([k, v]) => `<li>${esc(k)}: <a href="${esc(v)}">${esc(v)}</a></li>`)
      .join("")}</ul></div></section>`,
  );
  return out.join("\n");
}

/** Light up every element an evidence id points at and bring the first readable one into view. */
export function highlight(root: HTMLElement, id: string): void {
  for (const el of root.querySelectorAll(".hl")) el.classList.remove("hl");
  const targets = [...root.querySelectorAll(`[data-eid="${CSS.escape(id)}"]`)];
  for (const el of targets) {
    el.classList.add("hl");
    const details = el.closest("details");
    if (details) details.open = true;
  }
  const primary = targets.find((el) => !(el instanceof SVGElement)) ?? targets[0];
  primary?.scrollIntoView({ block: "center" });
}

/** The mounted player: stop everything, read the cursor, play or pause. */
export interface Mounted {
  stop(): void;
  /** The cursor, in ms of the timeline. */
  now(): number;
  toggle(): void;
  /** The utterance at the cursor (the last one started by then), if any. */
  utteranceAt(): string | null;
}

/** Wire the player, timeline and transcript to one clock. */
export function mountTrial(root: HTMLElement, d: TrialDetail, startMs: number | null): Mounted {
  const audio = root.querySelector<HTMLAudioElement>("#audio");
  const box = root.querySelector<HTMLElement>("#timeline")!;
  const clockEl = root.querySelector<HTMLElement>("#clock")!;
  const play = root.querySelector<HTMLButtonElement>("#play")!;
  const speed = root.querySelector<HTMLSelectElement>("#speed")!;
  const rows = [...root.querySelectorAll<HTMLElement>("#transcript .row")];
  const total = timelineDuration(d);
  let g: Geometry;
  let virtualMs = 0;
  let frame = 0;
  let activeRow = -1;

  const now = () => (audio ? audio.currentTime * 1000 : virtualMs);
  const draw = () => {
    const { svg, geometry } = timelineSvg(d, Math.max(480, box.clientWidth));
    box.innerHTML = svg;
    g = geometry;
    sync();
  };
  const sync = () => {
    const t = now();
    const cursor = box.querySelector("#cursor");
    if (cursor && g) {
      const x = g.x(t).toFixed(1);
      cursor.setAttribute("x1", x);
      cursor.setAttribute("x2", x);
    }
    clockEl.textContent = `${clock(t / 1000)} / ${clock(total / 1000)}`;
    // The row being heard: the last one that started at or before the cursor.
    let current = -1;
    for (let i = 0; i < d.turns.length; i++) if (d.turns[i]!.start_ms <= t + 1) current = i;
    if (current !== activeRow) {
      rows[activeRow]?.classList.remove("now");
      rows[current]?.classList.add("now");
      activeRow = current;
      const playing = audio && !audio.paused;
      if (playing && rows[current]) rows[current]!.scrollIntoView({ block: "nearest" });
    }
  };
  const seek = (t: number) => {
    const clamped = Math.min(Math.max(0, t), total);
    if (audio) audio.currentTime = clamped / 1000;
    virtualMs = clamped;
    sync();
  };
  const loop = () => {
    sync();
    if (audio && !audio.paused) frame = requestAnimationFrame(loop);
  };

  box.addEventListener("click", (event) => {
    const svg = box.querySelector("svg");
    if (!svg || !g) return;
    const rect = svg.getBoundingClientRect();
    seek(g.at(((event.clientX - rect.left) / rect.width) * g.width));
  });
  for (const row of rows) {
    const go = () => seek(Number(row.dataset.start));
    row.addEventListener("click", go);
    row.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        go();
      }
    });
  }
  const toggle = () => {
    if (!audio || play.disabled) return;
    if (audio.paused) void audio.play().catch((error: unknown) => (clockEl.textContent = `cannot play: ${String(error)}`));
    else audio.pause();
  };
  play.addEventListener("click", toggle);
  speed.addEventListener("change", () => {
    if (audio) audio.playbackRate = Number(speed.value);
  });
  if (audio) {
    audio.addEventListener("play", () => {
      play.textContent = "❚❚ pause";
      play.setAttribute("aria-label", "pause");
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(loop);
    });
    audio.addEventListener("pause", () => {
      play.textContent = "▶ play";
      play.setAttribute("aria-label", "play");
      sync();
    });
    audio.addEventListener("timeupdate", sync);
    audio.addEventListener("seeked", sync);
    audio.addEventListener("error", () => {
      clockEl.textContent = `conversation.wav could not be loaded (${audio.error?.message || "missing file"}): keep the report beside its audio/ folder`;
      play.disabled = true;
    });
  }
  let resizeTimer = 0;
  const onResize = () => {
    clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(draw, 120);
  };
  window.addEventListener("resize", onResize);
  draw();
  if (startMs !== null) seek(startMs);
  return {
    stop() {
      cancelAnimationFrame(frame);
      window.removeEventListener("resize", onResize);
      audio?.pause();
    },
    now,
    toggle,
    utteranceAt() {
      const t = now();
      let id: string | null = null;
      for (const turn of d.turns) if (turn.start_ms <= t + 1) id = turn.eid;
      return id;
    },
  };
}
