// The static site's engine: Pyodide running Miau's in-page backend
// (miau.site.backend) in a module worker, with the player's records in
// IndexedDB.
//
// Page -> worker: {id, kind: "http", method, path, body} and {kind: "frame", text}.
// Worker -> page: {kind: "loading", fraction, label}, {kind: "ready"},
//                 {kind: "failed", message}, {id, kind: "answer", status, body},
//                 {kind: "frame", text}.
//
// Orders are carried out one at a time, in the order they came. Every answer's
// records are committed to IndexedDB (one transaction, strict durability)
// before the answer is posted: an intent is stored before its result is shown.

import { loadPyodide } from "../pyodide/pyodide.mjs";

const RUNTIME = new URL("../pyodide/", import.meta.url);
const ENGINE_ZIP = new URL("../miau.zip", import.meta.url);
const DOWNLOADS = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs"];
const DATABASE = "miau";
const RECORDS = "records";
const EXTRACT_DIR = "/home/pyodide/miau-site";

let backend = null;
let database = null;

function report(fraction, label) {
  postMessage({ kind: "loading", fraction, label });
}

function openDatabase() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(RECORDS);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function readRecords(db) {
  return new Promise((resolve, reject) => {
    const records = [];
    const request = db.transaction(RECORDS, "readonly").objectStore(RECORDS).openCursor();
    request.onsuccess = () => {
      const cursor = request.result;
      if (!cursor) {
        resolve(records);
        return;
      }
      records.push([cursor.key, cursor.value]);
      cursor.continue();
    };
    request.onerror = () => reject(request.error);
  });
}

function commit(writes) {
  if (!writes.length) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const transaction = database.transaction(RECORDS, "readwrite", { durability: "strict" });
    const store = transaction.objectStore(RECORDS);
    for (const [key, value] of writes) {
      if (value === null) store.delete(key);
      else store.put(value, key);
    }
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error || new Error("The browser refused to store progress."));
  });
}

// The runtime's big files, fetched once with their progress shown; Pyodide
// then finds them in the browser's cache.
async function download(onBytes) {
  const urls = [...DOWNLOADS.map((name) => new URL(name, RUNTIME)), ENGINE_ZIP];
  const bodies = [];
  const responses = await Promise.all(urls.map((url) => fetch(url)));
  const total = responses.reduce((sum, response) => sum + Number(response.headers.get("content-length") || 0), 0);
  let received = 0;
  for (const response of responses) {
    if (!response.ok) throw new Error(`${response.url} answered ${response.status}`);
    const reader = response.body.getReader();
    const chunks = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      onBytes(total ? Math.min(received / total, 1) : 0);
    }
    bodies.push(new Blob(chunks));
  }
  return bodies[bodies.length - 1].arrayBuffer();
}

// Milliseconds since the worker started at which each stage ended (for the benchmark).
const timings = {};
const stage = (name) => {
  timings[name] = Math.round(performance.now());
};

async function start() {
  report(0, "Loading Miau");
  const [db, engineZip] = await Promise.all([
    openDatabase(),
    download((fraction) => report(fraction * 0.6, "Loading Miau")),
  ]);
  database = db;
  stage("downloaded");
  report(0.6, "Starting the engine");
  const pyodide = await loadPyodide({ indexURL: RUNTIME.href, packages: [] });
  stage("runtime");
  report(0.85, "Opening your progress");
  pyodide.unpackArchive(engineZip, "zip", { extractDir: EXTRACT_DIR });
  pyodide.runPython(
    `import sys\nsys.path.insert(0, ${JSON.stringify(EXTRACT_DIR)})\n` +
      "from miau.site.backend import SiteBackend\nbackend = SiteBackend()\n",
  );
  stage("imported");
  backend = pyodide.globals.get("backend");
  const records = await readRecords(db);
  backend.restore(JSON.stringify(records));
  stage("restored");
  report(1, "Ready");
  postMessage({ kind: "ready", timings });
}

async function carryOut(order) {
  if (order.kind === "frame") {
    const answer = JSON.parse(backend.frame(order.text));
    await commit(answer.writes);
    postMessage({ kind: "frame", text: JSON.stringify(answer.reply) });
  } else if (order.kind === "http") {
    const body = order.body === undefined ? undefined : JSON.stringify(order.body);
    const answer = JSON.parse(backend.http(order.method, order.path, body));
    await commit(answer.writes);
    postMessage({ id: order.id, kind: "answer", status: answer.status, body: answer.body });
  }
}

const started = start();
let queue = started;

started.catch((error) => {
  postMessage({ kind: "failed", message: String(error?.message || error) });
});

self.addEventListener("message", (event) => {
  const order = event.data;
  queue = queue
    .then(() => carryOut(order))
    .catch((error) => {
      if (order.kind === "http") {
        postMessage({ id: order.id, kind: "answer", status: 500, body: { error: String(error?.message || error) } });
      } else {
        // Nothing was shown of a result that could not be stored: the page opens the level again.
        try {
          backend.current = null;
        } catch {
          // the backend never started
        }
        let seq = null;
        try {
          seq = JSON.parse(order.text).seq ?? null;
        } catch {
          seq = null;
        }
        const message = `Your progress could not be stored (${error?.message || error}).`;
        postMessage({ kind: "frame", text: JSON.stringify({ type: "error", seq, code: "server-error", message }) });
      }
    });
});
