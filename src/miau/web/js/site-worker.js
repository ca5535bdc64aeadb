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
//
// Beside a game's records, the record ["view", pack, level] keeps the board each
// play reply shows ({build, log, state, world, level}), stored in the same
// transaction: the page draws it at its next start while this worker is still
// starting (stored-view.js), if the game's stored log is still `log`. The
// backend never reads views (readRecords skips them), and they share the
// records' store so that the database keeps its version: a tab of an older
// build still open would otherwise hold this one's upgrade, and its start.

import { SITE_ADDRESS, startRuntime } from "./pyodide-start.js";

const DATABASE = "miau";
const RECORDS = "records";
const VIEW = "view"; // the first part of a view's key
const PAST_VIEWS = [VIEW, []]; // an array sorts after every string: the first key past all views

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
      if (cursor.key[0] === VIEW) {
        cursor.continue(PAST_VIEWS); // the page's, not the backend's
        return;
      }
      records.push([cursor.key, cursor.value]);
      cursor.continue();
    };
    request.onerror = () => reject(request.error);
  });
}

// Other tabs of this browser run workers of their own: each tells the others
// what it stored, so that they answer from the same records.
const otherTabs = new BroadcastChannel("miau-records");

function commit(writes, view = null) {
  if (!writes.length && !view) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const transaction = database.transaction(RECORDS, "readwrite", { durability: "strict" });
    const store = transaction.objectStore(RECORDS);
    for (const [key, value] of view ? [...writes, view] : writes) {
      if (value === null) store.delete(key);
      else store.put(value, key);
    }
    transaction.oncomplete = () => {
      otherTabs.postMessage(JSON.stringify(writes));
      resolve();
    };
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error || new Error("The browser refused to store progress."));
  });
}

// The last world and level answers (by pack, and pack and level): the page
// needs them, beside the state, to draw a stored board.
const WORLD_PATH = /^\/api\/worlds\/([^/]+)$/;
const LEVEL_PATH = /^\/api\/worlds\/([^/]+)\/levels\/([^/]+)$/;
const worlds = new Map();
const levels = new Map();
let build = null; // this build's id (stored-view.js): views are written only when it is known

function remember(order, answer) {
  if (order.method !== "GET" || answer.status !== 200) return;
  const world = WORLD_PATH.exec(order.path);
  if (world) worlds.set(decodeURIComponent(world[1]), answer.body);
  const level = LEVEL_PATH.exec(order.path);
  if (level) levels.set(`${decodeURIComponent(level[1])}/${decodeURIComponent(level[2])}`, answer.body);
}

// The view a play reply leaves, as a record [key, value] (value null: forget
// it), or null to leave the views alone. Views are not told to other tabs:
// each tab's worker stores its own with the log it stores.
function viewOf(reply) {
  if (!build || !(reply.startsWith('{"type":"opened"') || reply.startsWith('{"type":"result"'))) return null;
  const saved = JSON.parse(backend.saved_game());
  if (!saved) return null; // a draft
  const key = [VIEW, saved.pack, saved.level];
  const world = worlds.get(saved.pack);
  const level = levels.get(`${saved.pack}/${saved.level}`);
  // A won game is not stored (a reload starts afresh): its board is not the next start's.
  if (!world || !level || (saved.log === null && reply.startsWith('{"type":"result"'))) return [key, null];
  return [key, { build, log: saved.log, state: JSON.parse(reply).state, world, level }];
}

async function start() {
  const [db, { pyodide, timings, build: built }] = await Promise.all([openDatabase(), startRuntime(report)]);
  database = db;
  build = built;
  report(0.85, "Opening your progress");
  pyodide.runPython(
    "from miau.site.backend import SiteBackend\n" + `backend = SiteBackend(base=${JSON.stringify(SITE_ADDRESS)})\n`,
  );
  backend = pyodide.globals.get("backend");
  backend.restore(JSON.stringify(await readRecords(db)));
  timings.restored = Math.round(performance.now());
  report(1, "Ready");
  postMessage({ kind: "ready", timings });
}

async function carryOut(order) {
  if (order.kind === "frame") {
    // The reply is encoded once, in Python, as the server sends it; its records are stored first.
    const reply = backend.frame_reply(order.text);
    const writes = JSON.parse(backend.take_writes());
    await commit(writes, viewOf(reply));
    postMessage({ kind: "frame", text: reply });
  } else if (order.kind === "http") {
    const body = order.body === undefined ? undefined : JSON.stringify(order.body);
    const answer = JSON.parse(backend.http(order.method, order.path, body));
    remember(order, answer);
    await commit(answer.writes);
    postMessage({ id: order.id, kind: "answer", status: answer.status, body: answer.body });
  }
}

const started = start();
let queue = started;

otherTabs.addEventListener("message", (event) => {
  queue = queue.then(() => backend.apply_records(event.data)).catch(() => {});
});

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
          backend.current = undefined; // undefined becomes None (null would be JsNull)
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
