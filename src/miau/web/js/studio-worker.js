// The static site's studio: the editor's solve and check jobs under Pyodide,
// in a worker of their own so that a long search never holds up play.
// One job at a time. Cancelling a job terminates this worker (the page makes
// a new one for the next job), as the server terminates its worker process.
//
// Page -> worker: {kind: "job", job, type: "solve" | "check" | "depth" | "suggest",
//                 pack, max, seconds, count, seed}.
// Worker -> page: {kind: "frame", frame} with the server's studio frames
//                 (started, progress, variation, solved, checked, profiled, suggested, error).

import { startRuntime } from "./pyodide-start.js";

async function start() {
  const { pyodide } = await startRuntime();
  return pyodide.pyimport("miau.site.studio");
}

const studio = start();

self.addEventListener("message", async (event) => {
  const order = event.data;
  if (order.kind !== "job") return;
  const send = (frame) => postMessage({ kind: "frame", frame: { job: order.job, ...frame } });
  try {
    const module = await studio;
    send({ type: "started" });
    const report = (expanded, depth, seen, rate, seconds) =>
      send({ type: "progress", expanded, depth, seen, rate, seconds: Math.round(seconds * 100) / 100 });
    const generating = (candidates, solved, bestDepth, seconds) =>
      send({ type: "progress", candidates, solved, bestDepth, seconds: Math.round(seconds * 100) / 100 });
    // A finished variation arrives as JSON text (a Python dict does not cross as a plain object).
    const variation = (text) => send({ type: "variation", variation: JSON.parse(text) });
    const options = JSON.stringify({ seconds: order.seconds, count: order.count, seed: order.seed });
    const answer = module.run_job(
      order.type,
      order.job,
      JSON.stringify(order.pack),
      order.max ?? undefined,
      report,
      options,
      generating,
      variation,
    );
    postMessage({ kind: "frame", frame: JSON.parse(answer) });
  } catch (error) {
    send({ type: "error", code: "failed", message: `The ${order.type} job could not run in the page: ${error?.message || error}` });
  }
});
