// The engine port's socket, held off the page's main thread.
//
// Why a worker: after a key press Chromium holds the page's tasks, a socket's
// reply among them, until its next frame has been drawn, so a reply that came
// in time for that frame is painted only in the one after. A worker is not
// held. It copies each message into a SharedArrayBuffer (when the page is
// cross-origin isolated and has given it one), where the port reads it from
// the next frame's requestAnimationFrame callback, and it also posts the
// message as usual, for when the page is not in a frame or the copy did not
// fit. Messages are numbered so that the page takes each one once, in order.
//
// Page -> worker: {kind: "mailbox", buffer}, {kind: "connect", url},
//                 {kind: "send", text}.
// Worker -> page: {kind: "open"}, {kind: "message", number, text},
//                 {kind: "close"}.
// The mailbox: Int32 words [version, number, byteLength] then the bytes of the
// latest message. The version is odd while a message is being written.

"use strict";

const HEADER_WORDS = 3;
const VERSION = 0;
const NUMBER = 1;
const LENGTH = 2;

let socket = null;
let header = null;
let bytes = null;
let number = 0;
const encoder = new TextEncoder();

function copyToMailbox(messageNumber, text) {
  if (!header) return;
  // Encoded apart first: encodeInto does not take a shared array.
  const encoded = encoder.encode(text);
  const fits = encoded.length <= bytes.length;
  Atomics.add(header, VERSION, 1);
  // A message that does not fit is left out; the posted copy carries it.
  if (fits) bytes.set(encoded);
  Atomics.store(header, LENGTH, fits ? encoded.length : -1);
  Atomics.store(header, NUMBER, messageNumber);
  Atomics.add(header, VERSION, 1);
}

function connect(url) {
  if (socket) socket.close(); // superseded: its close is not reported
  const candidate = new WebSocket(url);
  socket = candidate;
  candidate.addEventListener("open", () => {
    if (socket === candidate) postMessage({ kind: "open" });
  });
  candidate.addEventListener("message", (message) => {
    if (socket !== candidate) return;
    number += 1;
    const text = String(message.data);
    copyToMailbox(number, text);
    postMessage({ kind: "message", number, text });
  });
  candidate.addEventListener("close", () => {
    if (socket !== candidate) return;
    socket = null;
    postMessage({ kind: "close" });
  });
}

self.addEventListener("message", (event) => {
  const order = event.data;
  if (order.kind === "mailbox") {
    header = new Int32Array(order.buffer, 0, HEADER_WORDS);
    bytes = new Uint8Array(order.buffer, HEADER_WORDS * 4);
  } else if (order.kind === "connect") {
    connect(order.url);
  } else if (order.kind === "send") {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(order.text);
  }
});
