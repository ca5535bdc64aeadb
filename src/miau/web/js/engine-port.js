// The engine port: the only module that talks to the engine. The engine runs
// on the server behind a WebSocket, or, on the static site, in the page's
// worker (site-worker.js, started by engine-port-pyodide.js), which takes the
// same frames through a connection of the same shape; nothing else in this
// module differs.

import { engineWorker, startEngine } from "./engine-port-pyodide.js";
import { isStaticSite } from "./site.js";

const RECONNECT_FIRST_MS = 150;
const RECONNECT_MAX_MS = 3000;

let socket = null; // the open connection (see directConnection and workerConnection)
let socketReady = null; // Promise of an open connection, while connecting
let reconnectDelay = RECONNECT_FIRST_MS;
let reconnectTimer = null;

// What is open: `{pack, level}` (a shipped or library level), `{share: CODE}`
// (a shared link's level) or `{draft: packJson}` (the editor's test-play).
// Re-opening after a drop sends the same kind again.
let current = null;
let levelReady = false; // the server has answered `opened` for `current`
let openWaiter = null; // {resolve, reject} for a caller's open()
let reopening = false; // an open sent by the port itself after a drop
let openSeq = null; // the seq of the latest open sent; its reply carries it back

let nextSeq = 1;
const inFlight = new Map(); // seq -> {resolve, reject}
const backlog = []; // intents waiting for the level to be (re)opened

const reopenedListeners = new Set();
const statusListeners = new Set();

/** A turn that could not be carried out; `code` says why. */
export class PortError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "PortError";
    this.code = code;
  }
}

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}

function setStatus(status) {
  for (const listener of statusListeners) listener(status);
}

// Two ways to hold the socket, with the same shape: `{send(text), isOpen(),
// expectReply()}`, calling `handlers.opened()`, `handlers.received(text, lane)` and
// `handlers.closed()`. The worker's way reaches the page sooner after a key
// press (see engine-port-worker.js); it needs a cross-origin isolated page
// for its shared mailbox, and the plain socket serves everywhere else.

function directConnection(url, handlers) {
  const candidate = new WebSocket(url);
  candidate.addEventListener("open", () => handlers.opened());
  candidate.addEventListener("message", (message) => handlers.received(message.data, "task"));
  candidate.addEventListener("close", () => handlers.closed());
  return {
    send: (text) => candidate.send(text),
    isOpen: () => candidate.readyState === WebSocket.OPEN,
    expectReply: () => {},
  };
}

const MAILBOX_BYTES = 1 << 20; // a reply larger than this comes by the posted copy only
const MAILBOX_HEADER_WORDS = 3; // version (odd while written), message number, byte length
const FRAMES_WATCHED = 2; // frames read for a reply after an intent is sent
// A frame's callback waits this long at most for a reply that is due: one
// that comes a little after the frame began is still drawn in it, instead of
// a whole frame later. Only while a reply is due (an intent went out less
// than REPLY_DUE_MS ago), so an idle page never waits.
const LATCH_MS = 4;
const REPLY_DUE_MS = 8;

let socketWorker = null; // {worker, header, bytes} once made; false if it cannot be
let workerHandlers = null; // the handlers of the worker's current connection
let workerOpen = false;
let taken = 0; // the number of the last message handed on, by either lane
let framesLeft = 0;
let frameAsked = false;
let replyDueBy = 0; // performance.now() past which a frame no longer waits for a reply
const decoder = new TextDecoder();

function makeSocketWorker() {
  if (socketWorker !== null) return socketWorker;
  socketWorker = false;
  if (!globalThis.crossOriginIsolated || typeof SharedArrayBuffer !== "function") return false;
  try {
    const worker = new Worker(new URL("./engine-port-worker.js", import.meta.url));
    const buffer = new SharedArrayBuffer(MAILBOX_HEADER_WORDS * 4 + MAILBOX_BYTES);
    worker.postMessage({ kind: "mailbox", buffer });
    worker.addEventListener("message", (event) => fromWorker(event.data));
    worker.addEventListener("error", () => {
      // The worker could not run: the plain socket takes over from now on.
      worker.terminate();
      socketWorker = false;
      workerOpen = false;
      workerHandlers?.closed();
      workerHandlers = null;
    });
    socketWorker = {
      worker,
      header: new Int32Array(buffer, 0, MAILBOX_HEADER_WORDS),
      bytes: new Uint8Array(buffer, MAILBOX_HEADER_WORDS * 4),
    };
  } catch {
    socketWorker = false;
  }
  return socketWorker;
}

function take(number, text, lane) {
  if (number <= taken) return; // the other lane handed it on already
  taken = number;
  workerHandlers?.received(text, lane);
}

function fromWorker(report) {
  if (report.kind === "open") {
    workerOpen = true;
    workerHandlers?.opened();
  } else if (report.kind === "message") {
    take(report.number, report.text, "task");
  } else if (report.kind === "close") {
    workerOpen = false;
    const handlers = workerHandlers;
    workerHandlers = null;
    handlers?.closed();
  }
}

// The next message, if the worker has put it in the mailbox: read in a
// frame's callback, where it is drawn in that very frame.
function readMailbox() {
  frameAsked = false;
  framesLeft -= 1;
  if (inFlight.size === 0) {
    framesLeft = 0; // every reply is in: nothing to wait or look for
    return;
  }
  const { header, bytes } = socketWorker || {};
  if (header) {
    const until = Math.min(performance.now() + LATCH_MS, replyDueBy);
    while (Atomics.load(header, 1) === taken && performance.now() < until) {
      // Waiting on shared memory: the reply's task would come only after this frame.
    }
    const version = Atomics.load(header, 0);
    const number = Atomics.load(header, 1);
    const length = Atomics.load(header, 2);
    if (version % 2 === 0 && number === taken + 1 && length >= 0) {
      const copy = bytes.slice(0, length); // decoding needs an unshared copy
      if (Atomics.load(header, 0) === version) {
        framesLeft = 0;
        take(number, decoder.decode(copy), "frame");
      }
    }
  }
  if (framesLeft > 0 && !frameAsked) {
    frameAsked = true;
    requestAnimationFrame(readMailbox);
  }
}

function workerConnection(url, handlers, made) {
  workerHandlers = handlers;
  workerOpen = false;
  made.worker.postMessage({ kind: "connect", url });
  return {
    send: (text) => made.worker.postMessage({ kind: "send", text }),
    isOpen: () => workerOpen && workerHandlers === handlers,
    expectReply: () => {
      replyDueBy = performance.now() + REPLY_DUE_MS;
      framesLeft = FRAMES_WATCHED;
      if (!frameAsked) {
        frameAsked = true;
        requestAnimationFrame(readMailbox);
      }
    },
  };
}

// On the static site the engine is the page's own worker (site-worker.js): play
// frames go to it and come back from it directly, in the shape of a socket
// connection (a page's engine never drops: `closed()` only if it cannot start).
let siteHandlers = null; // the site connection's current handlers

function siteConnection(handlers) {
  const worker = engineWorker();
  if (siteHandlers === null) {
    worker.addEventListener("message", (event) => {
      if (event.data.kind === "frame") siteHandlers?.received(event.data.text, "task");
    });
  }
  siteHandlers = handlers;
  let open = false;
  startEngine().then(
    () => {
      open = true;
      handlers.opened();
    },
    () => handlers.closed(),
  );
  return {
    send: (text) => worker.postMessage({ kind: "frame", text }),
    isOpen: () => open && siteHandlers === handlers,
    expectReply: () => {},
  };
}

function openConnection(handlers) {
  if (isStaticSite) return siteConnection(handlers);
  const made = makeSocketWorker();
  if (made) return workerConnection(socketUrl(), handlers, made);
  return directConnection(socketUrl(), handlers);
}

function connect() {
  if (socket && socket.isOpen()) return Promise.resolve(socket);
  if (socketReady) return socketReady;
  socketReady = new Promise((resolve, reject) => {
    // The handlers run later, from events, once `candidate` is set.
    const candidate = openConnection({
      opened() {
        socket = candidate;
        socketReady = null;
        reconnectDelay = RECONNECT_FIRST_MS;
        setStatus("online");
        resolve(candidate);
      },
      received(text, lane) {
        receive(text, lane);
      },
      closed() {
        const wasOpen = socket === candidate;
        if (wasOpen) socket = null;
        if (socketReady && !wasOpen) {
          socketReady = null;
          reject(new PortError("offline", "The game server cannot be reached."));
        }
        dropped();
      },
    });
  });
  return socketReady;
}

function dropped() {
  levelReady = false;
  for (const pending of inFlight.values()) {
    pending.reject(new PortError("offline", "The connection dropped before the reply."));
  }
  inFlight.clear();
  setStatus("offline");
  if ((current || openWaiter) && !reconnectTimer) {
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_MAX_MS);
      reopen();
    }, reconnectDelay);
  }
}

function openMessage(target) {
  const seq = nextSeq++;
  openSeq = seq;
  if (target.share !== undefined) return { type: "open", seq, share: target.share };
  if (target.draft !== undefined) return { type: "open", seq, draft: target.draft };
  return { type: "open", seq, pack: target.pack, level: target.level };
}

function sendOpen(open) {
  open.send(JSON.stringify(openMessage(current)));
}

async function reopen() {
  try {
    const open = await connect();
    if (!current) return;
    if (!openWaiter) reopening = true;
    sendOpen(open);
  } catch {
    dropped();
  }
}

// Whether an `opened` reply answers the latest open. The server echoes the
// open's seq; without it, the kind of game opened has to match.
function isCurrent(message) {
  if (!current) return false;
  if (message.seq !== undefined && message.seq !== null) return message.seq === openSeq;
  if (current.draft !== undefined) return message.draft === true;
  if (current.share !== undefined) return typeof message.pack === "string" && message.pack.startsWith("share-");
  const samePack = message.pack === undefined || message.pack === current.pack;
  const sameLevel = message.level === undefined || message.level === current.level;
  return samePack && sameLevel;
}

// Whether an `error` reply without an intent's seq answers the latest open.
function answersOpen(message) {
  if (message.seq === undefined || message.seq === null) return true;
  return message.seq === openSeq;
}

// A User Timing mark of each reply taken (with the lane that brought it:
// "task" or "frame"), for profilers and the latency benchmark. Only the
// latest is kept in the timeline.
function mark(name, detail) {
  performance.clearMarks(name);
  performance.mark(name, { detail });
}

function receive(raw, lane) {
  let message;
  try {
    message = JSON.parse(raw);
  } catch {
    return;
  }
  if (message.type === "opened") {
    if (!isCurrent(message)) return; // the answer to an open that was superseded
    levelReady = true;
    if (openWaiter) {
      const waiter = openWaiter;
      openWaiter = null;
      waiter.resolve({
        state: message.state,
        resumed: Boolean(message.resumed),
        pack: message.pack ?? null,
        level: message.level ?? null,
        draft: Boolean(message.draft),
        notice: typeof message.notice === "string" ? message.notice : null,
      });
    } else if (reopening) {
      for (const listener of reopenedListeners) listener(message.state);
    }
    reopening = false;
    flushBacklog();
  } else if (message.type === "result") {
    const pending = inFlight.get(message.seq);
    if (!pending) return;
    inFlight.delete(message.seq);
    mark("miau:reply", { seq: message.seq, lane });
    pending.resolve({
      event: message.event,
      state: message.state,
      progress: message.progress ?? null,
    });
  } else if (message.type !== "error" && inFlight.get(message.seq)?.query === message.type) {
    // The answer to a question about the open game (ask()).
    const pending = inFlight.get(message.seq);
    inFlight.delete(message.seq);
    pending.resolve(message);
  } else if (message.type === "error") {
    const error = new PortError(message.code, message.message || "The server refused that.");
    if (message.seq != null && inFlight.has(message.seq)) {
      inFlight.get(message.seq).reject(error);
      inFlight.delete(message.seq);
    } else if (openWaiter && answersOpen(message)) {
      const waiter = openWaiter;
      openWaiter = null;
      current = null; // a refused open is not retried after a drop
      waiter.reject(error);
    }
  }
}

function transmit(entry) {
  const seq = nextSeq++;
  inFlight.set(seq, entry);
  const frame = entry.query ? { type: entry.query, seq } : { type: "intent", seq, ...entry.intent };
  socket.send(JSON.stringify(frame));
  socket.expectReply();
}

function flushBacklog() {
  while (backlog.length && levelReady && socket && socket.isOpen()) {
    transmit(backlog.shift());
  }
}

function target(what, level) {
  if (typeof what === "string") return { pack: what, level };
  if (what && typeof what.share === "string") return { share: what.share };
  if (what && what.draft && typeof what.draft === "object") return { draft: what.draft };
  if (what && typeof what.pack === "string" && typeof what.level === "string") {
    return { pack: what.pack, level: what.level };
  }
  throw new PortError("bad-message", "open() needs {pack, level}, {share} or {draft}.");
}

/**
 * Opens a game and resolves with `{state, resumed, pack, level, draft, notice}`:
 * - `open({pack, level})` (or the older `open(pack, level)`): resumes this
 *   player's game on that level, or starts one;
 * - `open({share: CODE})`: the level of a share link, stored under its
 *   content key (`pack` in the answer is `share-…`), resumed like any other;
 * - `open({draft: packJson})`: a one-level pack played in memory only (the
 *   editor's test-play): nothing is stored, `pack` is null, `draft` true.
 * A refused open rejects with a PortError whose message is the server's.
 */
export async function open(what, level) {
  const next = target(what, level);
  current = next;
  levelReady = false;
  for (const entry of backlog.splice(0)) {
    entry.reject(new PortError("superseded", "Another level was opened."));
  }
  if (openWaiter) openWaiter.reject(new PortError("superseded", "Another level was opened."));
  return new Promise((resolve, reject) => {
    openWaiter = { resolve, reject };
    connect()
      .then((open) => {
        if (current === next) sendOpen(open);
      })
      .catch(() => dropped());
  });
}

/**
 * Sends one intent (`{intent: "step", direction}`, `{intent: "wait"}`,
 * `{intent: "undo"}`, `{intent: "reset"}` or `{intent: "restore", state}`)
 * and resolves with `{event, state, progress}`. While the connection is being
 * restored the intent waits and is sent once the level is open again.
 */
export function send(intent) {
  return new Promise((resolve, reject) => {
    const entry = { intent, resolve, reject };
    if (levelReady && socket && socket.isOpen()) transmit(entry);
    else if (current) backlog.push(entry);
    else reject(new PortError("no-game", "No level is open."));
  });
}

/**
 * Asks a question about the open game that changes nothing (`"winnable"`:
 * can it still be won?) and resolves with the host's reply frame, in turn
 * with the intents sent before it. Waits like an intent while the level is
 * being (re)opened.
 */
export function ask(query) {
  return new Promise((resolve, reject) => {
    const entry = { query, resolve, reject };
    if (levelReady && socket && socket.isOpen()) transmit(entry);
    else if (current) backlog.push(entry);
    else reject(new PortError("no-game", "No level is open."));
  });
}

/** Forgets the open level (leaving the play scene). */
export function close() {
  current = null;
  levelReady = false;
  for (const entry of backlog.splice(0)) {
    entry.reject(new PortError("superseded", "The level was closed."));
  }
}

/**
 * Calls `listener(state)` when the port re-opened the level by itself after
 * the connection dropped: the scene should draw that state as it is.
 * Returns a function that removes the listener.
 */
export function onReopened(listener) {
  reopenedListeners.add(listener);
  return () => reopenedListeners.delete(listener);
}

/** Calls `listener("online" | "offline")` on connection changes. */
export function onStatus(listener) {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}
