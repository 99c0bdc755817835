/**
 * The view lives in the URL hash, so a link opens the same filters, sort and trial:
 * `#status=failed,inconclusive&kind=walk&tag=…&condition=…&check=…&case=…&q=…&sort=latency&desc=1&trial=<id>&t=<ms>`.
 */

export interface ViewState {
  status: string[];
  kind: string;
  tag: string;
  condition: string;
  check: string;
  case: string;
  q: string;
  sort: string;
  desc: boolean;
  trial: string;
  /** Where to put the cursor when a trial opens (ms). */
  t: number | null;
}

export const EMPTY: ViewState = { status: [], kind: "", tag: "", condition: "", check: "", case: "", q: "", sort: "", desc: false, trial: "", t: null };

export function parseHash(hash: string): ViewState {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const t = Number(p.get("t"));
  return {
    status: (p.get("status") ?? "").split(",").filter(Boolean),
    kind: p.get("kind") ?? "",
    tag: p.get("tag") ?? "",
    condition: p.get("condition") ?? "",
    check: p.get("check") ?? "",
    case: p.get("case") ?? "",
    q: p.get("q") ?? "",
    sort: p.get("sort") ?? "",
    desc: p.get("desc") === "1",
    trial: p.get("trial") ?? "",
    t: p.has("t") && Number.isFinite(t) ? t : null,
  };
}

export function toHash(s: ViewState): string {
  const p = new URLSearchParams();
  if (s.status.length) p.set("status", s.status.join(","));
  for (const key of ["kind", "tag", "condition", "check", "case", "q", "sort"] as const) if (s[key]) p.set(key, s[key]);
  if (s.desc) p.set("desc", "1");
  if (s.trial) p.set("trial", s.trial);
  if (s.t !== null) p.set("t", String(Math.round(s.t)));
  const text = p.toString();
  return text ? `#${text}` : "#";
}
