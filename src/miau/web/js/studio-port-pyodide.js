// The studio on the static site: solve, check, depth and suggest run in the page, in a worker
// (studio-worker.js) that answers with the server's studio frames. Cancelling
// terminates the worker at once; so does the time cap. The worker is kept
// between jobs, so only the first job waits for the runtime to start.

const JOB_SECONDS = 120; // as the server's STUDIO_JOB_SECONDS

let worker = null;
let listener = null; // the running job's frame handler

function studioWorker() {
  if (worker) return worker;
  worker = new Worker(new URL("./studio-worker.js", import.meta.url), { type: "module" });
  worker.addEventListener("message", (event) => listener?.(event.data.frame));
  worker.addEventListener("error", (event) => {
    listener?.({ type: "error", code: "failed", message: event.message || "The studio's worker stopped." });
    stopWorker();
  });
  return worker;
}

function stopWorker() {
  worker?.terminate();
  worker = null;
}

/**
 * Runs one studio request (`{type, job, pack, max, seconds, count, seed}`) in the page; `receive(frame)`
 * hears every frame the server's studio would send for it. Returns `cancel()`,
 * which terminates the worker and answers `cancelled`.
 */
export function runInPage(request, receive) {
  let done = false;
  const finish = (frame) => {
    if (done) return;
    if (["solved", "checked", "profiled", "suggested", "error", "cancelled"].includes(frame.type)) {
      done = true;
      listener = null;
      clearTimeout(timer);
    }
    receive(frame);
  };
  const timer = setTimeout(() => {
    stopWorker();
    finish({
      type: "error",
      job: request.job,
      code: "failed",
      message: `The ${request.type} job ran for more than ${JOB_SECONDS} seconds and was stopped; try a smaller max.`,
    });
  }, JOB_SECONDS * 1000);
  listener = finish;
  studioWorker().postMessage({ kind: "job", ...request, type: request.type });
  return () => {
    if (done) return;
    stopWorker();
    finish({ type: "cancelled", job: request.job });
  };
}
