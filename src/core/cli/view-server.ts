/**
 * `crashlab view --review`: the run's report served on loopback so a person can record reviews from the
 * page. Only 127.0.0.1 is listened on, at a port the system picks. Every request must carry the session's
 * random token as the first path segment (`http://127.0.0.1:<port>/<token>/`), so another local user or a
 * web page that guesses the port can neither read the run nor write to it. A write (POST) must also be
 * JSON and, when the browser names an Origin, come from the page's own origin; the Host header must name
 * the loopback address, so a DNS name rebound to 127.0.0.1 cannot reach the server either. Each review is
 * appended with `appendReview`, which checks it against the run and writes nothing when it is refused.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { closeSync, createReadStream } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { machineFault, machineFaultLine } from "../files/machine-fault";
import { buildRunReport } from "../report/run-folder";
import { reviewsView } from "../report/reviews-view";
import { appendReview, humanVerdicts, latestReviews, readReviews, ReviewError, type Review } from "../review/reviews";
import { earlierRunDirs, readRunResults, reviewQueueForRun, type RunReviews, type SkippedRun } from "../review/run-reviews";
import { openRunFile, RunFolderError, type RunFile } from "../run-folder/files";
import { redactShapes } from "../services/redact";

export interface ServeOptions {
  reviewer: string;
  /** Passing trials the review queue samples (default 10) and its seed (default 1). */
  sample?: number;
  seed?: number;
}

export interface ViewServer {
  /** The page's address, token included: `http://127.0.0.1:<port>/<token>/`. */
  url: string;
  origin: string;
  token: string;
  /** Runs beside this one whose reviews could not be carried over (damaged), and why. */
  skipped: SkippedRun[];
  close(): Promise<void>;
}

/** The most a POST body may hold: one review with a long note. */
const MAX_BODY = 64 * 1024;

const TYPES: Record<string, string> = { wav: "audio/wav", json: "application/json; charset=utf-8", jsonl: "application/json; charset=utf-8" };

export async function serveRun(runDir: string, options: ServeOptions): Promise<ViewServer> {
  const results = readRunResults(runDir);
  const earlier = earlierRunDirs(runDir, results.run.started_at);
  const carry_from = earlier.dirs;
  const { run, queue } = reviewQueueForRun(runDir, { carry_from, ...(options.sample !== undefined ? { sample: options.sample } : {}), ...(options.seed !== undefined ? { seed: options.seed } : {}) });
  const carried = run.carried;
  const carrying = carry_from.length > 0;
  /** The run's reviews as they stand: its own reviews.jsonl read again, the carried ones as loaded. */
  const current = (): RunReviews => {
    const own = readReviews(runDir, run.scope);
    const latest = latestReviews([...carried, ...own]);
    return { ...run, own, latest, verdicts: humanVerdicts(latest) };
  };
  const page = await buildRunReport(runDir, redactShapes, false, { reviews: reviewsView(current(), carrying), review_mode: { reviewer: options.reviewer, queue: queue.map((q) => q.trial_id) } });
  // Only the run's own artifacts are served (its audio and transcripts), never any other path.
  const artifacts = new Set(run.results.trials.flatMap((t) => Object.values(t.artifacts)).filter((p): p is string => typeof p === "string"));
  const token = randomBytes(24).toString("base64url");
  const expected = Buffer.from(`/${token}`);
  let origin = "";
  let host = "";

  const send = (res: ServerResponse, status: number, body: string, type = "text/plain; charset=utf-8") => {
    res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" });
    res.end(body);
  };
  const json = (res: ServerResponse, status: number, value: unknown) => send(res, status, JSON.stringify(value), "application/json; charset=utf-8");

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.host !== host) return send(res, 403, "forbidden: this server answers only on its loopback address\n");
    const path = (req.url ?? "/").split("?")[0]!;
    const head = Buffer.from(path.slice(0, expected.length));
    if (head.length !== expected.length || !timingSafeEqual(head, expected)) return send(res, 403, "forbidden: open the URL `crashlab view --review` printed (it holds the session's token)\n");
    const rest = path.slice(expected.length);
    if (rest === "") {
      res.writeHead(302, { Location: `/${token}/` });
      return res.end();
    }
    if (!rest.startsWith("/")) return send(res, 403, "forbidden\n");
    let route: string;
    try {
      route = decodeURIComponent(rest.slice(1));
    } catch {
      return send(res, 400, "bad request: the address holds a malformed %-escape\n");
    }
    if (route === "reviews" && req.method === "POST") return postReview(req, res);
    if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "method not allowed\n");
    if (route === "") return send(res, 200, page, "text/html; charset=utf-8");
    if (route === "reviews") return json(res, 200, reviewsView(current(), carrying));
    if (artifacts.has(route)) return sendFile(req, res, runDir, route, TYPES[route.split(".").pop() ?? ""] ?? "application/octet-stream");
    return send(res, 404, "not found\n");
  };

  const postReview = async (req: IncomingMessage, res: ServerResponse) => {
    const from = req.headers.origin;
    if (from !== undefined && from !== origin) return json(res, 403, { error: `a review may be written only from the page this server serves (${origin}), not from ${from}` });
    if ((req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase() !== "application/json") return json(res, 415, { error: "a review is sent as application/json" });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY) return json(res, 413, { error: `a review is at most ${MAX_BODY} bytes` });
      chunks.push(chunk);
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      if (!body || typeof body !== "object" || Array.isArray(body)) throw new Error("expected a JSON object");
    } catch (error) {
      return json(res, 400, { error: `not a JSON review: ${(error as Error).message}` });
    }
    // The server says who and when; the page says what.
    const review = { trial_id: body.trial_id, verifier: body.verifier, verdict: body.verdict, reviewer: options.reviewer, note: body.note ?? "", at: new Date().toISOString(), ...(body.anchor !== undefined ? { anchor: body.anchor } : {}) } as Review;
    try {
      // The file is read first: a damaged line is named, and nothing is appended after it.
      current();
      appendReview(runDir, review, run.scope);
    } catch (error) {
      if (error instanceof ReviewError) return json(res, 400, { error: error.message });
      throw error;
    }
    return json(res, 200, { saved: review, view: reviewsView(current(), carrying) });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      // A reviews.jsonl that cannot be read or written (a link planted in its place, no permission, a full
      // disk) is said in words the page shows; nothing was written.
      const fault = machineFault(error);
      if (error instanceof ReviewError) json(res, 400, { error: error.message });
      else if (error instanceof RunFolderError) json(res, 500, { error: error.message });
      else if (fault) json(res, 500, { error: machineFaultLine(fault, "view --review") });
      else json(res, 500, { error: `internal error: ${(error as Error)?.message ?? String(error)}` });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  host = `127.0.0.1:${port}`;
  origin = `http://${host}`;
  return {
    url: `${origin}/${token}/`,
    origin,
    token,
    skipped: earlier.skipped,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * One of the run's artifacts, with byte ranges (the browser's audio element seeks with them). It is opened
 * through the run folder's checks at each request: a link out of the folder (also one planted after the
 * server started), a FIFO, a folder or a file this user may not read is answered 404, never followed.
 */
function sendFile(req: IncomingMessage, res: ServerResponse, runDir: string, route: string, type: string): void {
  let file: RunFile | null;
  try {
    file = openRunFile(runDir, route);
  } catch (error) {
    if (!(error instanceof RunFolderError) && !machineFault(error)) throw error;
    file = null;
  }
  if (!file) {
    res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
    res.end("not found\n");
    return;
  }
  const { fd, stats } = file;
  const size = stats.size;
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
  const headers = { "Content-Type": type, "Accept-Ranges": "bytes", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };
  const stream = (start: number, end: number) => createReadStream("", { fd, start, end, autoClose: true }).pipe(res);
  if (range && (range[1] || range[2])) {
    const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start > end || start >= size) {
      closeSync(fd);
      res.writeHead(416, { "Content-Range": `bytes */${size}` });
      res.end();
      return;
    }
    res.writeHead(206, { ...headers, "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": String(end - start + 1) });
    if (req.method === "HEAD") return void (closeSync(fd), res.end());
    stream(start, end);
    return;
  }
  res.writeHead(200, { ...headers, "Content-Length": String(size) });
  if (req.method === "HEAD" || size === 0) return void (closeSync(fd), res.end());
  stream(0, size - 1);
}
