// The engine port: the only module that talks to the engine. Today the engine
// runs on the server behind a WebSocket; an in-page engine can replace this
// file later with the same exports (open, send, close, onReopened, onStatus).

const RECONNECT_FIRST_MS = 150;
const RECONNECT_MAX_MS = 3000;

let socket = null;
let socketReady = null; // Promise of an open socket, while connecting
let reconnectDelay = RECONNECT_FIRST_MS;
let reconnectTimer = null;

let current = null; // {pack, level} of the open game
let levelReady = false; // the server has answered `opened` for `current`
let openWaiter = null; // {pack, level, resolve, reject} for a caller's open()
let reopening = false; // an open sent by the port itself after a drop

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

function connect() {
  if (socket && socket.readyState === WebSocket.OPEN) return Promise.resolve(socket);
  if (socketReady) return socketReady;
  socketReady = new Promise((resolve, reject) => {
    const candidate = new WebSocket(socketUrl());
    candidate.addEventListener("open", () => {
      socket = candidate;
      socketReady = null;
      reconnectDelay = RECONNECT_FIRST_MS;
      setStatus("online");
      resolve(candidate);
    });
    candidate.addEventListener("message", (message) => receive(message.data));
    candidate.addEventListener("close", () => {
      const wasOpen = socket === candidate;
      if (wasOpen) socket = null;
      if (socketReady && !wasOpen) {
        socketReady = null;
        reject(new PortError("offline", "The game server cannot be reached."));
      }
      dropped();
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

async function reopen() {
  try {
    const open = await connect();
    if (openWaiter) {
      open.send(JSON.stringify({ type: "open", pack: openWaiter.pack, level: openWaiter.level }));
    } else if (current) {
      reopening = true;
      open.send(JSON.stringify({ type: "open", pack: current.pack, level: current.level }));
    }
  } catch {
    dropped();
  }
}

function isCurrent(message) {
  if (!current) return false;
  const samePack = message.pack === undefined || message.pack === current.pack;
  const sameLevel = message.level === undefined || message.level === current.level;
  return samePack && sameLevel;
}

function receive(raw) {
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
      waiter.resolve({ state: message.state, resumed: Boolean(message.resumed) });
    } else if (reopening) {
      for (const listener of reopenedListeners) listener(message.state);
    }
    reopening = false;
    flushBacklog();
  } else if (message.type === "result") {
    const pending = inFlight.get(message.seq);
    if (!pending) return;
    inFlight.delete(message.seq);
    pending.resolve({
      event: message.event,
      state: message.state,
      progress: message.progress ?? null,
    });
  } else if (message.type === "error") {
    const error = new PortError(message.code, message.message || "The server refused that.");
    if (message.seq != null && inFlight.has(message.seq)) {
      inFlight.get(message.seq).reject(error);
      inFlight.delete(message.seq);
    } else if (openWaiter) {
      const waiter = openWaiter;
      openWaiter = null;
      waiter.reject(error);
    }
  }
}

function transmit(entry) {
  const seq = nextSeq++;
  inFlight.set(seq, entry);
  socket.send(JSON.stringify({ type: "intent", seq, ...entry.intent }));
}

function flushBacklog() {
  while (backlog.length && levelReady && socket && socket.readyState === WebSocket.OPEN) {
    transmit(backlog.shift());
  }
}

/**
 * Opens a level: resumes this player's game in progress there or starts a
 * new one. Resolves with `{state, resumed}`.
 */
export async function open(pack, level) {
  current = { pack, level };
  levelReady = false;
  for (const entry of backlog.splice(0)) {
    entry.reject(new PortError("superseded", "Another level was opened."));
  }
  if (openWaiter) openWaiter.reject(new PortError("superseded", "Another level was opened."));
  return new Promise((resolve, reject) => {
    openWaiter = { pack, level, resolve, reject };
    connect()
      .then((open) => open.send(JSON.stringify({ type: "open", pack, level })))
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
    if (levelReady && socket && socket.readyState === WebSocket.OPEN) transmit(entry);
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
