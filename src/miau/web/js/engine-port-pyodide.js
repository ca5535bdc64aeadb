// The in-page engine: on the static site, Miau's Python engine and backend run
// in a worker (site-worker.js) under Pyodide, and this module is how the page
// reaches them: it starts the worker, gives the engine port the worker to send
// play frames to (the same frames as the server's play WebSocket), and offers
// a request function for the API (the same paths and answers as the server's
// HTTP API). Nothing else in the client knows the difference.
//
// While the runtime loads (the first visit downloads about 13 MB; later ones
// start from the browser's cache) the page shows a progress bar.

import { isStaticSite } from "./site.js";

let worker = null;
let ready = null; // Promise that settles once the runtime has started
let nextId = 1;
const answers = new Map(); // id -> {resolve}

function progressBar() {
  let bar = document.getElementById("site-loading");
  if (bar) return bar;
  bar = document.createElement("div");
  bar.id = "site-loading";
  bar.setAttribute("role", "progressbar");
  bar.setAttribute("aria-label", "Loading Miau");
  bar.setAttribute("aria-valuemin", "0");
  bar.setAttribute("aria-valuemax", "100");
  bar.style.cssText =
    "position:fixed;left:0;right:0;bottom:0;z-index:1000;padding:0.5rem 1rem;" +
    "background:rgba(10,14,25,0.92);color:#e8ecf8;font:14px system-ui,sans-serif;";
  const label = document.createElement("div");
  label.className = "site-loading-label";
  const track = document.createElement("div");
  track.style.cssText = "height:6px;margin-top:0.35rem;background:#263048;border-radius:3px;overflow:hidden;";
  const fill = document.createElement("div");
  fill.className = "site-loading-fill";
  fill.style.cssText = "height:100%;width:0;background:#f2c14e;transition:width 120ms linear;";
  track.append(fill);
  bar.append(label, track);
  document.body.append(bar);
  return bar;
}

function showLoading(fraction, label) {
  const bar = progressBar();
  const percent = Math.round(fraction * 100);
  bar.setAttribute("aria-valuenow", String(percent));
  bar.querySelector(".site-loading-label").textContent = `${label}… ${percent}%`;
  bar.querySelector(".site-loading-fill").style.width = `${percent}%`;
}

function hideLoading() {
  document.getElementById("site-loading")?.remove();
}

function fromWorker(message) {
  if (message.kind === "loading") {
    showLoading(message.fraction, message.label);
  } else if (message.kind === "answer") {
    const pending = answers.get(message.id);
    answers.delete(message.id);
    pending?.resolve({ status: message.status, body: message.body });
  }
  // A "frame" is the engine port's (engine-port.js listens to the worker itself).
}

/** Starts the in-page engine (once); resolves when it can answer. */
export function startEngine() {
  if (ready) return ready;
  worker = new Worker(new URL("./site-worker.js", import.meta.url), { type: "module" });
  ready = new Promise((resolve, reject) => {
    worker.addEventListener("message", (event) => {
      const message = event.data;
      if (message.kind === "ready") {
        hideLoading();
        performance.mark("miau:engine-ready", { detail: message.timings });
        resolve();
      } else if (message.kind === "failed") {
        const bar = progressBar();
        bar.querySelector(".site-loading-label").textContent = `Miau could not start: ${message.message}`;
        reject(new Error(message.message));
      } else {
        fromWorker(message);
      }
    });
    worker.addEventListener("error", (event) => {
      reject(new Error(event.message || "The engine's worker could not run."));
    });
  });
  return ready;
}

/**
 * An API request answered in the page: resolves with `{status, body}` as
 * the server would have answered `method path` with the JSON `body`.
 */
export async function siteRequest(method, path, body) {
  await startEngine();
  const id = nextId++;
  return new Promise((resolve) => {
    answers.set(id, { resolve });
    worker.postMessage({ id, kind: "http", method, path, body });
  });
}

/** The in-page engine's worker (started if it was not): the engine port sends it play frames. */
export function engineWorker() {
  startEngine();
  return worker;
}

// A library pack's Export link points at the server's `/api/library/ID/export`;
// on the static site the pack's file is made in the page instead, and saved
// as the link's download name.
const EXPORT_PATH = /\/api\/library\/([^/]+)\/export$/;

async function saveExport(anchor, packId) {
  const { status, body } = await siteRequest("GET", `/api/library/${packId}/export`);
  if (status !== 200) return;
  const url = URL.createObjectURL(new Blob([body.text], { type: "application/json" }));
  const save = document.createElement("a");
  save.href = url;
  save.download = anchor.getAttribute("download") || `${decodeURIComponent(packId)}.json`;
  document.body.append(save);
  save.click();
  save.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

if (isStaticSite) {
  // The runtime starts as soon as the page's modules are in, before the first scene asks.
  startEngine().catch(() => {});
  document.addEventListener(
    "click",
    (event) => {
      const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
      const match = anchor && EXPORT_PATH.exec(new URL(anchor.href, location.href).pathname);
      if (!match) return;
      event.preventDefault();
      saveExport(anchor, match[1]);
    },
    { capture: true },
  );
}
