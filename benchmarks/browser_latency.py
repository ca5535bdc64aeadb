"""Key press to settled frame in the browser game, and what a held key sustains.

Run: ``.venv/bin/python benchmarks/browser_latency.py [--moves N] [--hold SECONDS]``
(about three and a half minutes with the defaults).

Starts the game server (uvicorn in a thread on 127.0.0.1, a temporary
SQLite database) and drives the real page in headless Chromium
(``/usr/bin/chromium``) with real key presses. The cat of Clockwork's
``mouse-keeps-time`` walks back and forth along the open bottom corridor, so
every move is accepted (and the mouse's automaton ticks each turn, as in play).

Everything is measured inside the page, on its own clock:

- **key press**: the ``keydown`` event's time stamp, seen by a capture-phase
  listener on ``window`` (it runs before the game's own listener);
- **sent / reply**: timed at the socket itself: a wrapper around
  ``WebSocket`` records when the intent frame is sent and when its ``result``
  arrives. On a cross-origin isolated page the engine port holds its socket
  in a worker (``engine-port-worker.js``); the probe then replaces ``Worker``
  so that the same wrapper runs inside the worker, ahead of its script, and
  posts its times to the page (the port ignores those posts);
- **taken**: the port's ``miau:reply`` User Timing mark: when it handed the
  reply to the game, and by which lane: ``frame`` (read from the worker's
  shared mailbox in a ``requestAnimationFrame`` callback) or ``task`` (a
  message event);
- **drawn**: a ``MutationObserver`` on the board notes the board each time
  its ``data-move-count`` changes; a press is drawn at the first such change
  that shows the reply's move count, with every moved entity's
  ``data-x``/``data-y`` equal to the reply's state (and, with animation on,
  every board animation that was running at the key press already finished:
  skipped, not waited for);
- **settled frame**: if the port took the reply inside a frame's callbacks,
  that very frame (the HTML event loop runs a frame's animation callbacks,
  then its style, layout and paint, so the change is in that frame's paint);
  otherwise the ``requestAnimationFrame`` callback asked for when the board
  changed, i.e. the next frame. Either way the time is taken as the frame's
  callbacks run. (No standing frame loop: one would change what is measured.)

Modes: (a) ``prefers-reduced-motion: reduce`` (no animation; a key press once
the previous move is drawn) and (b) animation on, each key pressed about
``--gap`` ms after the previous move was drawn, while its slide (120 ms)
still runs, so that the new key skips it. Each press waits a further random
part of a frame, so presses fall at random points of the display's frames.
Then a held key: ``keyboard.down`` in alternating directions for about
``--hold`` seconds in all, counting the intents the page's input produced
(the first press plus each fire of its repeat timers, found by wrapping
``setTimeout``/``setInterval`` for the delays ``input.js`` exports), the
intents sent, the moves the server accepted, and the dropped input (produced
but never sent). Last, the server alone: a Python WebSocket client times the
same moves without a browser.

How to read the figures: after a key press Chromium holds the page's tasks
(``DeferRendererTasksAfterInput``), a socket's message among them, until its
next frame has been drawn, so a reply handed over as a task is painted one
frame later than it could be. The port's worker is not held: it puts each
reply in a shared mailbox, and the port reads it in that next frame's
callback (waiting there a few milliseconds at most for a reply that is
due), so a reply that is back in time is drawn in the first frame after the
key press. A reply that comes after that frame has begun is drawn in
the following one: with presses at random points of the frames, the key
press to settled frame time spreads over about one frame past the reply.
``--no-input-deferral`` launches Chromium with that policy off, to compare
(a diagnosis, not how players' browsers run). In headless Chromium an idle
page gets a frame as soon as it asks for one: the port asks for one at each
send, so with no animation the first frame after a key press often comes
before the reply and the board is drawn in the next, at the display's pace;
on a real display every frame waits for the display anyway.

The figures are printed, not asserted. Targets (loopback): key press to
settled frame p95 within 16 ms of the server's reply time; a held key
sustains at least 10 moves a second with no dropped input.
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright
from tests.support.local import CHROMIUM, CHROMIUM_ARGS, UNLOCK_ALL, running_server
from websockets.sync.client import connect as ws_connect
from websockets.typing import Origin

VIEWPORT = ViewportSize(width=1280, height=800)
PACK = "clockwork"
LEVEL = "mouse-keeps-time"
CORRIDOR = 11
"""Cells in the level's open bottom row, where the cat starts at the west end."""
FRAME_MS = 1000 / 60
"""One frame of a 60 Hz display (headless Chromium's pace)."""
DIRECT_PACE_MS = 40
"""Spacing of the browser-free client's intents (the server takes at most 30 a second)."""
CAT = ".board > .entity[data-noun='MIAU']"
INPUT_DEFERRAL = "DeferRendererTasksAfterInput"
"""Chromium's policy of holding a page's tasks after a key press until its next frame."""

PROBE = r"""
(() => {
  const probe = {
    recording: false,
    waiters: [],       // {count, resolve} of the harness waiting for presses to settle
    measures: [],      // one per key press while recording moves
    sent: [],          // {at, seq}: intents as the socket sent them
    replies: new Map(), // seq -> {at, lane}: the port's "miau:reply" marks
    raws: new Map(),   // seq -> {at, raw}: replies as the socket received them
    results: [],       // {at, seq, accepted}
    snapshots: [],     // the board each time its move count changed
    keys: [],          // {type, at, key}
    ticks: [],         // fires of the input's repeat timers
    repeatDelays: new Set(),
  };
  window.__latency = probe;

  const seqOf = (raw) => {
    const found = /"seq"\s*:\s*(\d+)/.exec(raw);
    return found ? Number(found[1]) : null;
  };

  // Every intent sent and every reply received, timed at the socket itself:
  // the page's own socket, or the one the engine port's worker holds (then
  // this probe runs inside the worker too, ahead of the worker's script, and
  // posts its records to the page; the port ignores them).
  const onSent = (at, text) => {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.type !== "intent") return;
    probe.sent.push({ at, seq: message.seq });
    const measure = probe.measures.find((m) => m.seq === null && m.keyAt <= at);
    if (measure && probe.recording) {
      measure.seq = message.seq;
      measure.sentAt = at;
    }
  };
  const onRaw = (at, raw) => {
    const seq = seqOf(raw);
    if (seq === null || !(raw.includes('"result"') || raw.includes('"error"'))) return;
    probe.raws.set(seq, { at, raw });
    if (raw.includes('"result"')) {
      probe.results.push({ at, seq, accepted: /"accepted"\s*:\s*true/.test(raw) });
    }
    settle();
  };
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (message) => onRaw(performance.now(), String(message.data)));
    }
    send(data) {
      onSent(performance.now(), String(data));
      return super.send(data);
    }
  };
  const workerProbe = (script) => {
    const clock = () => performance.timeOrigin + performance.now();
    const Native = self.WebSocket;
    self.WebSocket = class extends Native {
      constructor(...args) {
        super(...args);
        this.addEventListener("message", (message) =>
          postMessage({ kind: "probe-received", at: clock(), text: String(message.data) }),
        );
      }
      send(data) {
        postMessage({ kind: "probe-sent", at: clock(), text: String(data) });
        return super.send(data);
      }
    };
    importScripts(script);
  };
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(script, options) {
      const source = `(${workerProbe})(${JSON.stringify(String(new URL(script, location.href)))});`;
      super(URL.createObjectURL(new Blob([source], { type: "text/javascript" })), options);
      this.addEventListener("message", (event) => {
        const record = event.data || {};
        const at = record.at - performance.timeOrigin;
        if (record.kind === "probe-sent") onSent(at, record.text);
        else if (record.kind === "probe-received") onRaw(at, record.text);
      });
    }
  };

  // When the port took each reply, and by which lane.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === "miau:reply") {
        probe.replies.set(entry.detail.seq, { at: entry.startTime, lane: entry.detail.lane });
      }
    }
    settle();
  }).observe({ type: "mark" });

  // The input module's hold-to-repeat timers: each fire is one intent it hands the scene.
  const wrapTimer = (native) =>
    function (callback, delay, ...rest) {
      if (typeof callback === "function" && probe.repeatDelays.has(delay)) {
        const inner = callback;
        callback = function (...args) {
          probe.ticks.push({ at: performance.now(), delay });
          return inner.apply(this, args);
        };
      }
      return native.call(window, callback, delay, ...rest);
    };
  window.setTimeout = wrapTimer(window.setTimeout);
  window.setInterval = wrapTimer(window.setInterval);

  const boardAnimations = () => {
    const board = document.querySelector(".board");
    if (!board) return [];
    return board.getAnimations({ subtree: true }).filter((animation) => {
      const timing = animation.effect ? animation.effect.getComputedTiming() : null;
      return animation.playState === "running" && timing && timing.endTime !== Infinity;
    });
  };

  window.addEventListener(
    "keydown",
    (event) => {
      const now = performance.now();
      probe.keys.push({ type: "down", at: Math.min(event.timeStamp, now), key: event.key, repeat: event.repeat });
      if (!probe.recording || event.repeat) return;
      const measure = {
        keyAt: Math.min(event.timeStamp, now),
        running: boardAnimations(),
        runningAtKey: 0,
        seq: null,
        sentAt: null,
        replyAt: null,
        takenAt: null,
        lane: null,
        drawnAt: null,
        frameAt: null,
        accepted: null,
        error: null,
        skipped: null,
      };
      measure.runningAtKey = measure.running.length;
      probe.measures.push(measure);
    },
    { capture: true },
  );
  window.addEventListener(
    "keyup",
    (event) => probe.keys.push({ type: "up", at: Math.min(event.timeStamp, performance.now()), key: event.key }),
    { capture: true },
  );

  // The board as it is now: its move count, where each living entity
  // stands, which animations still run, and the port's latest reply mark.
  // The frame that paints it: if the port took that reply inside a frame's
  // requestAnimationFrame callback (its "frame" lane), that very frame, whose
  // style, layout and paint come after its callbacks; otherwise the first
  // frame after now, whose callback is asked for here. One callback per
  // change: a standing frame loop would change what is measured.
  const onBoardChange = () => {
    const now = performance.now();
    const board = document.querySelector(".board");
    const marks = performance.getEntriesByName("miau:reply");
    const mark = marks.length ? marks[marks.length - 1] : null;
    const snapshot = {
      at: now,
      moveCount: board.dataset.moveCount,
      places: new Map(),
      running: new Set(boardAnimations()),
      replySeq: mark ? mark.detail.seq : null,
      replyLane: mark ? mark.detail.lane : null,
      nextFrameAt: null,
    };
    for (const element of board.querySelectorAll(":scope > .entity:not([data-dying])")) {
      snapshot.places.set(element.dataset.id, `${element.dataset.x},${element.dataset.y}`);
    }
    probe.snapshots.push(snapshot);
    requestAnimationFrame(() => {
      snapshot.nextFrameAt = performance.now();
      settle();
    });
  };

  // Whether `snapshot` shows the reply of `measure`, with the slides that ran at its key press ended.
  const shows = (snapshot, measure, reply) => {
    if (snapshot.at < measure.keyAt || snapshot.moveCount !== String(reply.state.moveCount)) return false;
    const where = new Map(reply.state.entities.map((entity) => [entity.id, entity]));
    for (const move of reply.event.moved || []) {
      const entity = where.get(move.id);
      if (entity && snapshot.places.get(String(move.id)) !== `${entity.x},${entity.y}`) return false;
    }
    return measure.running.every((animation) => !snapshot.running.has(animation));
  };

  // Fills in what can be known of each measure now; true once it is complete.
  const resolve = (measure) => {
    if (measure.frameAt !== null || measure.accepted === false) return true;
    if (measure.seq === null) return false;
    const received = probe.raws.get(measure.seq);
    const mark = probe.replies.get(measure.seq);
    if (received === undefined) return false;
    measure.replyAt = received.at;
    const reply = JSON.parse(received.raw);
    if (reply.type === "error") {
      // Refused (for instance rate-limited): this press will never be drawn.
      measure.error = reply.code ?? "error";
      measure.accepted = false;
      return true;
    }
    if (!mark) return false;
    measure.takenAt = mark.at;
    measure.lane = mark.lane;
    measure.accepted = Boolean(reply.event.accepted);
    // A rejected move leaves the board as it was: nothing to wait for.
    if (!measure.accepted) return true;
    const snapshot = probe.snapshots.find((candidate) => shows(candidate, measure, reply));
    if (!snapshot) return false;
    measure.drawnAt = snapshot.at;
    measure.skipped = true;
    if (snapshot.replySeq === measure.seq && snapshot.replyLane === "frame") measure.frameAt = snapshot.at;
    else if (snapshot.nextFrameAt !== null) measure.frameAt = snapshot.nextFrameAt;
    return measure.frameAt !== null;
  };

  function settle() {
    for (const measure of probe.measures) resolve(measure);
    const waiters = probe.waiters.splice(0);
    for (const waiter of waiters) {
      if (probe.finished(waiter.count)) waiter.resolve();
      else probe.waiters.push(waiter);
    }
  }

  probe.start = () => {
    const board = document.querySelector(".board");
    probe.observer?.disconnect();
    probe.observer = new MutationObserver(onBoardChange);
    probe.observer.observe(board, { attributes: true, attributeFilter: ["data-move-count"] });
    probe.recording = true;
  };
  probe.stop = () => {
    probe.recording = false;
    probe.observer?.disconnect();
  };
  probe.finished = (count) => {
    if (probe.measures.length < count) return false;
    return probe.measures.slice(0, count).every(resolve);
  };
  // Resolves once the first `count` presses are settled (or rejected), without polling.
  probe.whenFinished = (count) =>
    new Promise((resolve) => {
      probe.waiters.push({ count, resolve });
      settle();
    });
  // The display's pace: the median gap between animation frames over `ms`.
  probe.frameInterval = (ms) =>
    new Promise((resolve) => {
      const times = [];
      const tick = (now) => {
        times.push(now);
        if (now - times[0] < ms) requestAnimationFrame(tick);
        else {
          const gaps = times.slice(1).map((time, index) => time - times[index]).sort((a, b) => a - b);
          resolve(gaps[Math.floor(gaps.length / 2)]);
        }
      };
      requestAnimationFrame(tick);
    });
  probe.export = () => ({
    measures: probe.measures.map(({ running, ...rest }) => rest),
    sent: probe.sent,
    results: probe.results,
    keys: probe.keys,
    ticks: probe.ticks,
    isolated: Boolean(window.crossOriginIsolated),
  });
})();
"""

READY = ".play-scene[data-ready='true'] .board > .entity"
SETTLED = "document.querySelector('.play-scene')?.dataset.pending === '0'"

Mode = Literal["reduce", "no-preference"]


@dataclass(frozen=True)
class Spread:
    """The 50th, 95th and 99th percentiles of a sample, in milliseconds."""

    p50: float
    p95: float
    p99: float
    count: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        """The percentiles of ``values`` (linear between the closest ranks)."""
        if not values:
            return cls(float("nan"), float("nan"), float("nan"), 0)
        if len(values) == 1:
            return cls(values[0], values[0], values[0], 1)
        cuts = statistics.quantiles(values, n=100, method="inclusive")
        return cls(statistics.median(values), cuts[94], cuts[98], len(values))

    def row(self, label: str) -> str:
        """One line of the report table."""
        return f"  {label:<44} {self.p50:7.1f} {self.p95:7.1f} {self.p99:7.1f}"


@dataclass(frozen=True)
class MoveFigures:
    """The per-move timings of one mode."""

    key_to_frame: Spread
    server_reply: Spread
    page_share: Spread
    key_to_sent: Spread
    reply_to_taken: Spread
    taken_to_drawn: Spread
    drawn_to_frame: Spread
    taken_in_frame: int
    isolated: bool
    accepted: int
    rejected: int
    refused: int
    pressed_mid_animation: int
    animations_skipped: int


@dataclass(frozen=True)
class HoldFigures:
    """What a held key did."""

    seconds: float
    presses: int
    repeats: int
    sent: int
    accepted: int
    rejected: int
    overall_rate: float
    steady_rate: float

    @property
    def received(self) -> int:
        """Intents the page's input produced: first presses and repeats."""
        return self.presses + self.repeats

    @property
    def dropped(self) -> int:
        """Intents produced but never sent."""
        return self.received - self.sent


def new_page(browser: Browser, base_url: str, motion: Mode) -> Page:
    """A fresh player (own cookie) on the benchmark level, probed, with ``motion``."""
    context = browser.new_context(viewport=VIEWPORT, reduced_motion=motion)
    context.add_init_script(PROBE)
    context.add_init_script(UNLOCK_ALL)  # the benchmark level is locked for a fresh player
    page = context.new_page()
    page.goto(f"{base_url}/#/play/{PACK}/{LEVEL}")
    page.wait_for_selector(READY)
    delay, interval = repeat_timings(page)
    page.evaluate(
        "(delays) => { window.__latency.repeatDelays = new Set(delays); }", [delay, interval]
    )
    return page


def repeat_timings(page: Page) -> tuple[int, int]:
    """The input module's repeat delay and interval, in milliseconds."""
    delay, interval = page.evaluate(
        """async () => {
            const input = await import('/js/input.js');
            return [input.REPEAT_DELAY_MS, input.REPEAT_INTERVAL_MS];
        }"""
    )
    return int(delay), int(interval)


def wait_settled(page: Page) -> None:
    """Wait until every intent sent has its reply drawn (polling by timer, not by frame)."""
    page.wait_for_function(SETTLED, polling=10)


RECORDED = """() => {
  const probe = window.__latency;
  const sent = new Set(probe.sent.map((entry) => entry.seq));
  return sent.size === probe.raws.size && [...probe.raws.keys()].every((seq) => sent.has(seq));
}"""
"""Whether the probe holds a send record for every reply and a reply for every send.

The worker's send records reach the page as messages, which Chromium may
hold after a key press while the reply (read in a frame callback) is already
drawn: counting sends right after a settle can miss the last one."""


def wait_recorded(page: Page) -> None:
    """Wait until every send and every reply of the intents so far is in the probe's records."""
    page.wait_for_function(RECORDED, polling=10)


def cat_x(page: Page) -> int:
    """The cat's column as the board shows it."""
    return int(page.get_attribute(CAT, "data-x") or "0")


def next_key(page: Page, key: str) -> str:
    """``key`` again, or the other way once the cat stands at an end of the corridor."""
    x = cat_x(page)
    if x == 0:
        return "ArrowRight"
    if x == CORRIDOR - 1:
        return "ArrowLeft"
    return key


def walk_west(page: Page) -> None:
    """Bring the cat back to the west end of the corridor, one press a move."""
    while cat_x(page) > 0:
        page.keyboard.press("ArrowLeft")
        wait_settled(page)


def measure_moves(page: Page, moves: int, gap_ms: float, rng: random.Random) -> dict[str, Any]:
    """Press ``moves`` keys, each ``gap_ms`` after the previous move was drawn; the raw records.

    A random extra wait of up to one frame before each press gives the
    presses a random phase against the display's frames, as a player's have.
    """
    page.evaluate("window.__latency.start()")
    key = "ArrowRight"
    for index in range(moves):
        key = next_key(page, key)
        page.wait_for_timeout(gap_ms + rng.uniform(0, FRAME_MS))
        page.keyboard.press(key)
        page.evaluate("(n) => window.__latency.whenFinished(n)", index + 1)
    wait_settled(page)
    page.evaluate("window.__latency.stop()")
    records: dict[str, Any] = page.evaluate("window.__latency.export()")
    return records


def move_figures(records: dict[str, Any]) -> MoveFigures:
    """Percentiles of the per-move timings."""
    done = [m for m in records["measures"] if m["accepted"] and m["frameAt"] is not None]
    return MoveFigures(
        key_to_frame=Spread.of([m["frameAt"] - m["keyAt"] for m in done]),
        server_reply=Spread.of([m["replyAt"] - m["sentAt"] for m in done]),
        page_share=Spread.of(
            [(m["frameAt"] - m["keyAt"]) - (m["replyAt"] - m["sentAt"]) for m in done]
        ),
        key_to_sent=Spread.of([m["sentAt"] - m["keyAt"] for m in done]),
        reply_to_taken=Spread.of([m["takenAt"] - m["replyAt"] for m in done]),
        taken_to_drawn=Spread.of([m["drawnAt"] - m["takenAt"] for m in done]),
        drawn_to_frame=Spread.of([m["frameAt"] - m["drawnAt"] for m in done]),
        taken_in_frame=sum(1 for m in done if m["lane"] == "frame"),
        isolated=bool(records["isolated"]),
        accepted=len(done),
        rejected=sum(1 for m in records["measures"] if m["accepted"] is False and not m["error"]),
        refused=sum(1 for m in records["measures"] if m["error"]),
        pressed_mid_animation=sum(1 for m in done if m["runningAtKey"] > 0),
        animations_skipped=sum(1 for m in done if m["runningAtKey"] > 0 and m["skipped"]),
    )


def hold_keys(page: Page, seconds: float) -> HoldFigures:
    """Hold arrow keys (each hold as long as the corridor allows) for about ``seconds``."""
    delay, interval = repeat_timings(page)
    # Long enough for one move per cell of the corridor: the press, then the repeats.
    steps = CORRIDOR - 1
    hold_ms = delay + (steps - 2) * interval + interval / 2
    holds = max(1, round(seconds * 1000 / hold_ms))
    walk_west(page)
    wait_recorded(page)
    before: dict[str, Any] = page.evaluate("window.__latency.export()")
    for _ in range(holds):
        key = "ArrowRight" if cat_x(page) == 0 else "ArrowLeft"
        page.keyboard.down(key)
        # A second key-down is the system's auto-repeat (repeat=true): the page repeats a key
        # only once the system says it is held (input.js).
        page.keyboard.down(key)
        page.wait_for_timeout(hold_ms)
        page.keyboard.up(key)
        wait_settled(page)
    wait_recorded(page)
    records: dict[str, Any] = page.evaluate("window.__latency.export()")
    keys = records["keys"][len(before["keys"]) :]
    downs = [k for k in keys if k["type"] == "down" and not k["repeat"]]
    ups = [k for k in keys if k["type"] == "up"]
    held = sum(up["at"] - down["at"] for down, up in zip(downs, ups, strict=True)) / 1000
    sent = records["sent"][len(before["sent"]) :]
    sent_seqs = {entry["seq"] for entry in sent}
    results = [r for r in records["results"] if r["seq"] in sent_seqs]
    accepted = [r for r in results if r["accepted"]]
    steady: list[float] = []
    for down, up in zip(downs, ups, strict=True):
        times = sorted(r["at"] for r in accepted if down["at"] <= r["at"] <= up["at"] + 500)
        # From the first repeat on: the press and the repeat delay are not the steady pace.
        steady.extend(later - earlier for earlier, later in itertools.pairwise(times[1:]))
    return HoldFigures(
        seconds=held,
        presses=len(downs),
        repeats=len(records["ticks"]) - len(before["ticks"]),
        sent=len(sent),
        accepted=len(accepted),
        rejected=len(results) - len(accepted),
        overall_rate=len(accepted) / held if held else float("nan"),
        steady_rate=1000 / statistics.median(steady) if steady else float("nan"),
    )


def direct_replies(base_url: str, moves: int) -> Spread:
    """The server's reply time without a browser: a plain WebSocket client on loopback.

    One intent every `DIRECT_PACE_MS`, under the server's limit on messages a second.
    """
    host = base_url.removeprefix("http://")
    times: list[float] = []
    with ws_connect(f"ws://{host}/ws", origin=Origin(base_url)) as socket_:
        socket_.send(json.dumps({"type": "open", "pack": PACK, "level": LEVEL}))
        json.loads(socket_.recv())
        x = 0
        direction = "right"
        next_send = time.perf_counter()
        for seq in range(1, moves + 1):
            if x == 0:
                direction = "right"
            elif x == CORRIDOR - 1:
                direction = "left"
            intent = {"type": "intent", "seq": seq, "intent": "step", "direction": direction}
            time.sleep(max(0.0, next_send - time.perf_counter()))
            start = time.perf_counter()
            next_send = start + DIRECT_PACE_MS / 1000
            socket_.send(json.dumps(intent))
            reply = json.loads(socket_.recv())
            times.append((time.perf_counter() - start) * 1000)
            if reply.get("type") != "result" or not reply["event"]["accepted"]:
                raise RuntimeError(f"the server refused move {seq}: {reply}")
            x += 1 if direction == "right" else -1
    return Spread.of(times)


def print_moves(title: str, figures: MoveFigures, direct: Spread, *, animated: bool) -> None:
    """The table of one mode, and how it compares with the target."""
    print(title)
    socket_home = (
        "the port's worker (the page is cross-origin isolated)"
        if figures.isolated
        else "the page (not cross-origin isolated: no worker)"
    )
    print(f"  the socket is held by {socket_home}")
    print(f"  {'(milliseconds)':<44} {'p50':>7} {'p95':>7} {'p99':>7}")
    print(figures.key_to_frame.row("key press -> settled frame"))
    print(figures.server_reply.row("server reply at the browser's socket"))
    print(figures.page_share.row("page's share (the first minus the second)"))
    print(figures.key_to_sent.row("  key press -> intent sent by the socket"))
    print(figures.reply_to_taken.row("  reply at the socket -> taken by the port"))
    print(figures.taken_to_drawn.row("  taken -> board drawn"))
    print(figures.drawn_to_frame.row("  board drawn -> its frame"))
    line = (
        f"  {figures.accepted} moves accepted, {figures.rejected} rejected by the engine, "
        f"{figures.refused} refused by the server; {figures.taken_in_frame} replies taken "
        "inside a frame, the rest by a task"
    )
    if animated:
        line += (
            f"; {figures.pressed_mid_animation} keys pressed while the previous slide ran, "
            f"{figures.animations_skipped} of them skipped it at once"
        )
    print(line)
    p95 = figures.key_to_frame.p95
    for name, reply in (("at the browser's socket", figures.server_reply), ("alone", direct)):
        bound = 16 + reply.p95
        verdict = "met" if p95 <= bound else "NOT met"
        print(
            f"  target p95 <= 16 ms + server reply {name} (p95 {reply.p95:.1f}): "
            f"{p95:.1f} <= {bound:.1f}: {verdict}"
        )
    print()


def print_hold(title: str, figures: HoldFigures) -> None:
    """The held-key figures of one mode."""
    print(title)
    print(
        f"  held {figures.presses} times, {figures.seconds:.2f} s in all: "
        f"{figures.received} intents from the input ({figures.presses} presses + "
        f"{figures.repeats} repeats), {figures.sent} sent, {figures.accepted} accepted, "
        f"{figures.rejected} rejected, {figures.dropped} dropped"
    )
    verdict = "met" if figures.overall_rate >= 10 and figures.dropped == 0 else "NOT met"
    print(
        f"  {figures.overall_rate:.1f} moves/s over the holds (repeat delay included), "
        f"{figures.steady_rate:.1f} moves/s once repeating; target >= 10/s, none dropped: {verdict}"
    )
    print()


def main() -> None:
    """Measure both modes, the held key and the server alone; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="key presses per mode")
    parser.add_argument("--hold", type=float, default=3.0, help="seconds of held keys per mode")
    parser.add_argument(
        "--gap",
        type=float,
        default=40.0,
        help="with animation: ms between a move being drawn and the next key press",
    )
    parser.add_argument("--seed", type=int, default=7, help="seed of the press phase jitter")
    parser.add_argument(
        "--no-input-deferral",
        action="store_true",
        help="diagnosis: launch Chromium without DeferRendererTasksAfterInput (see the docstring)",
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    browser_args = list(CHROMIUM_ARGS)
    if args.no_input_deferral:
        browser_args.append(f"--disable-features={INPUT_DEFERRAL}")
    with running_server() as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=browser_args)
        try:
            page = new_page(browser, server.url, "reduce")
            frame_ms: float = page.evaluate("window.__latency.frameInterval(500)")
            still = move_figures(measure_moves(page, args.moves, 0, rng))
            still_hold = hold_keys(page, args.hold)
            page.context.close()
            page = new_page(browser, server.url, "no-preference")
            animated = move_figures(measure_moves(page, args.moves, args.gap, rng))
            animated_hold = hold_keys(page, args.hold)
            page.context.close()
            version = browser.version
        finally:
            browser.close()
        direct = direct_replies(server.url, args.moves)
    print(
        f"Miau browser latency: {PACK}/{LEVEL}, headless Chromium {version}, "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{args.moves} moves per mode, frame interval {frame_ms:.1f} ms"
        + (f"; {INPUT_DEFERRAL} off (diagnosis)" if args.no_input_deferral else "")
    )
    print()
    print("server alone (a Python WebSocket client on loopback, no browser)")
    print(f"  {'(milliseconds)':<44} {'p50':>7} {'p95':>7} {'p99':>7}")
    print(direct.row("intent sent -> result"))
    print()
    print_moves("(a) no animation (prefers-reduced-motion: reduce)", still, direct, animated=False)
    print_moves(
        f"(b) animation on, next key {args.gap:.0f} ms after each move is drawn",
        animated,
        direct,
        animated=True,
    )
    print_hold("held key, no animation", still_hold)
    print_hold("held key, animation on", animated_hold)


if __name__ == "__main__":
    main()
