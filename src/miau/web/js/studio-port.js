// The studio port: the page's side of the `/studio` WebSocket, where the
// server runs the solver and `miau check` on a one-level pack in a worker
// process. One socket per page, opened on the first job; each job has an
// id of its own, and messages are routed to it by that id. On the static
// site the jobs run in the page instead (studio-port-pyodide.js), with the
// same messages.

import { isStaticSite } from "./site.js";
import { runInPage } from "./studio-port-pyodide.js";

/** A studio job that did not give a result; `code` says why ("cancelled", "busy", "offline", ...). */
export class StudioError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "StudioError";
    this.code = code;
  }
}

let socket = null;
let socketReady = null;
let counter = 0;
const jobs = new Map(); // job id -> {resolve, reject, onProgress, onStarted, onVariation, cancelling}

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/studio`;
}

function connect() {
  if (socket && socket.readyState === WebSocket.OPEN) return Promise.resolve(socket);
  if (socketReady) return socketReady;
  socketReady = new Promise((resolve, reject) => {
    const candidate = new WebSocket(socketUrl());
    candidate.addEventListener("open", () => {
      socket = candidate;
      socketReady = null;
      resolve(candidate);
    });
    candidate.addEventListener("message", (message) => receive(message.data));
    candidate.addEventListener("close", () => {
      if (socket === candidate) socket = null;
      if (socketReady) {
        socketReady = null;
        reject(new StudioError("offline", "The studio cannot be reached."));
      }
      // Closing the socket ends its job on the server, so nothing is left running.
      for (const [job, entry] of jobs) {
        jobs.delete(job);
        entry.reject(
          entry.cancelling
            ? new StudioError("cancelled", "Cancelled.")
            : new StudioError("offline", "The connection to the studio dropped."),
        );
      }
    });
  });
  return socketReady;
}

function finish(job, outcome) {
  const entry = jobs.get(job);
  if (!entry) return;
  jobs.delete(job);
  outcome(entry);
}

function receive(raw) {
  let message;
  try {
    message = JSON.parse(raw);
  } catch {
    return;
  }
  const entry = jobs.get(message.job);
  switch (message.type) {
    case "started":
      entry?.onStarted?.();
      break;
    case "progress":
      entry?.onProgress?.(message);
      break;
    case "variation":
      entry?.onVariation?.(message.variation);
      break;
    case "solved":
      finish(message.job, (done) => done.resolve(message.result));
      break;
    case "checked":
      finish(message.job, (done) => done.resolve(message.report));
      break;
    case "profiled":
      finish(message.job, (done) => done.resolve(message.profile));
      break;
    case "suggested":
      finish(message.job, (done) => {
        const { type, job, ...suggestion } = message;
        done.resolve(suggestion);
      });
      break;
    case "cancelled":
      finish(message.job, (done) => done.reject(new StudioError("cancelled", "Cancelled.")));
      break;
    case "error": {
      const error = new StudioError(message.code || "failed", message.message || "The studio refused that.");
      if (message.job != null && jobs.has(message.job)) finish(message.job, (done) => done.reject(error));
      else if (message.job == null) {
        // An error about no job in particular (a frame the server could not read) ends every job.
        for (const job of [...jobs.keys()]) finish(job, (done) => done.reject(error));
      }
      break;
    }
    default:
      break;
  }
}

function run(request, { onProgress, onStarted, onVariation, signal } = {}) {
  if (signal?.aborted) return Promise.reject(new StudioError("cancelled", "Cancelled."));
  counter += 1;
  const job = `${request.type}-${Date.now().toString(36)}-${counter}`;
  if (isStaticSite) return runHere({ ...request, job }, { onProgress, onStarted, onVariation, signal });
  return new Promise((resolve, reject) => {
    const entry = { resolve, reject, onProgress, onStarted, onVariation, cancelling: false, sent: false };
    jobs.set(job, entry);
    signal?.addEventListener(
      "abort",
      () => {
        if (!jobs.has(job)) return;
        entry.cancelling = true;
        if (entry.sent && socket && socket.readyState === WebSocket.OPEN) {
          socket.send(JSON.stringify({ type: "cancel", job }));
        } else {
          finish(job, (done) => done.reject(new StudioError("cancelled", "Cancelled.")));
        }
      },
      { once: true },
    );
    connect()
      .then((open) => {
        if (!jobs.has(job)) return;
        open.send(JSON.stringify({ ...request, job }));
        entry.sent = true;
      })
      .catch((error) => finish(job, (done) => done.reject(error)));
  });
}

// A job in the page: its frames go through the same `receive` as the socket's.
function runHere(request, { onProgress, onStarted, onVariation, signal }) {
  return new Promise((resolve, reject) => {
    jobs.set(request.job, { resolve, reject, onProgress, onStarted, onVariation, cancelling: false, sent: true });
    const cancel = runInPage(request, (frame) => receive(JSON.stringify(frame)));
    signal?.addEventListener("abort", cancel, { once: true });
  });
}

/**
 * Solves a one-level pack on the server. `onProgress({expanded, depth, seen,
 * rate, seconds})` runs while it searches, `onStarted()` once a worker took
 * the job; aborting `signal` cancels it (the promise then rejects with code
 * "cancelled" once the server confirms). Resolves with the search result
 * (`outcome` solved | unsolvable | limit, `moves`, `length`, `expanded`, `limit`, ...).
 */
export function solve(packJson, { max = null, onProgress, onStarted, signal } = {}) {
  return run({ type: "solve", pack: packJson, max }, { onProgress, onStarted, signal });
}

/**
 * `miau check` for a one-level pack, each search capped at `max` states
 * (null: the level's default). Resolves with the report:
 * `{problems: [{place, message, severity}], level: LevelReport | null}`
 * (`level.verdict`: passed, problems or undecided).
 */
export function check(packJson, { max = null, onProgress, onStarted, signal } = {}) {
  return run({ type: "check", pack: packJson, max }, { onProgress, onStarted, signal });
}

/**
 * The depth profile of a one-level pack (`miau.solver.depth.depth_profile`).
 * Resolves with `DepthProfile.to_json()`: `length`, `rulesFormed`,
 * `rulesBroken`, `expanded`, `shortestSolutions`, `deadEnds`, `deadSquares`,
 * `baselines`, `depth`, `tier`, `tierName`, ...
 */
export function depth(packJson, { max = null, onStarted, signal } = {}) {
  return run({ type: "depth", pack: packJson, max }, { onStarted, signal });
}

/**
 * Variations of a one-level pack's level with new ideas, within `seconds`
 * (a hard cap on the job). `onProgress({candidates, solved, bestDepth,
 * seconds})` runs while it evolves; `onVariation(variation)` hears each
 * variation as soon as it is finished (`{level, depth, tier, idea,
 * signature, changes}`). Resolves with `{variations, draftIdea,
 * draftDepth, dropped, seconds}`: up to `count` variations, each new,
 * minimal and no shallower than the draft, with its proven-shortest
 * `level.solution`; none is a fair answer.
 */
export function suggest(
  packJson,
  { seconds = 5, count = 3, seed = 0, onProgress, onStarted, onVariation, signal } = {},
) {
  return run(
    { type: "suggest", pack: packJson, seconds, count, seed },
    { onProgress, onStarted, onVariation, signal },
  );
}
