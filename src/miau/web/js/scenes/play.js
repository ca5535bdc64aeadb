// The play scene: top bar, board, rule ledger, hint, loss banner, win
// overlay. It turns input into intents, sends them through the engine port
// one at a time (a few may wait their turn) and hands each reply to the
// board, the ledger and the live region.

import * as api from "../api.js";
import { announceTurn, say } from "../announce.js";
import { Board, prefersReducedMotion, SLIDE_MS } from "../board.js";
import { h, keyLabel } from "../dom.js";
import * as port from "../engine-port.js";
import { createInput } from "../input.js";
import { Ledger } from "../ledger.js";
import { toast } from "../toast.js";
import { Vocabulary, wordTile } from "../words.js";
import { showWin } from "./win.js";

/** How many intents may wait behind the one whose reply is pending. */
export const MAX_WAITING_INTENTS = 4;
const SEEN_WORDS_KEY = "miau.seenWords";

function actionButton(intent, label, key, extra = {}) {
  return h(
    "button",
    { class: "button action", type: "button", dataset: { intent, ...extra } },
    keyLabel(label, key),
  );
}

function dpad() {
  const pad = (direction, arrow, label) =>
    h(
      "button",
      {
        class: "dpad-button",
        type: "button",
        "aria-label": label,
        dataset: { intent: "step", direction, pad: direction },
      },
      arrow,
    );
  return h(
    "nav",
    { class: "dpad", "aria-label": "Move" },
    pad("up", "▲", "Up"),
    pad("left", "◀", "Left"),
    h(
      "button",
      {
        class: "dpad-button wait",
        type: "button",
        "aria-label": "Wait",
        dataset: { intent: "wait", pad: "wait" },
      },
      "Wait",
    ),
    pad("right", "▶", "Right"),
    pad("down", "▼", "Down"),
  );
}

function seenWords() {
  try {
    return new Set(JSON.parse(localStorage.getItem(SEEN_WORDS_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function rememberWords(words) {
  try {
    localStorage.setItem(SEEN_WORDS_KEY, JSON.stringify([...words]));
  } catch {
    // Private windows may refuse storage; the card simply shows again.
  }
}

/** Draws the play scene of `pack`/`level` into `root`. */
export async function mount(root, { pack, level: levelId }, { navigate, signal }) {
  const backToMap = () => navigate(`/world/${encodeURIComponent(pack)}`);
  root.className = "scene play-scene";
  root.dataset.pending = "0";
  root.dataset.ready = "false";

  const worldName = h("span", { class: "play-world" }, "");
  const levelTitle = h("h1", { class: "play-title" }, "Loading…");
  const moveCount = h("strong", { id: "move-count", class: "move-count" }, "0");
  const connection = h("span", { class: "connection", role: "status", hidden: true }, "Reconnecting…");
  const boardArea = h("div", { class: "board-area" });
  const lossBanner = h(
    "div",
    { class: "loss-banner", role: "alert", hidden: true },
    h("p", { class: "loss-title" }, "Nothing is YOU"),
    h("p", { class: "loss-text" }, "Undo the last move or restart the level."),
    h(
      "div",
      { class: "loss-actions" },
      actionButton("undo", "Undo", "Z", { primary: "true" }),
      actionButton("reset", "Restart", "R"),
    ),
  );
  const ledgerList = h("ol", { class: "ledger", "aria-label": "Active rules" });
  const glossaryList = h("ul", { class: "glossary" });
  const wordsPanel = h(
    "section",
    { class: "panel words-panel", hidden: true },
    h("h2", {}, "Words here"),
    glossaryList,
  );
  const hint = h("p", { class: "hint" });
  const hintPanel = h("section", { class: "panel hint-panel", hidden: true }, h("h2", {}, "Hint"), hint);

  root.append(
    h(
      "header",
      { class: "topbar" },
      h("button", { class: "button ghost back", type: "button", dataset: { intent: "back" } }, [
        h("span", { class: "label" }, "‹", h("span", { class: "back-word" }, " Levels")),
        h("kbd", {}, "Esc"),
      ]),
      h("div", { class: "play-titles" }, worldName, levelTitle),
      h("div", { class: "move-counter" }, h("span", { class: "label" }, "Moves"), moveCount),
      h(
        "div",
        { class: "play-actions" },
        actionButton("undo", "Undo", "Z"),
        actionButton("reset", "Restart", "R"),
        actionButton("wait", "Wait", "Space"),
      ),
      connection,
    ),
    h(
      "main",
      { class: "play-main" },
      h("div", { class: "board-wrap" }, boardArea, lossBanner),
      h(
        "aside",
        { class: "side", "aria-label": "Rules and hints" },
        h("section", { class: "panel rules-panel" }, h("h2", {}, "Rules"), ledgerList),
        wordsPanel,
        hintPanel,
      ),
    ),
    dpad(),
  );

  signal.addEventListener("abort", () => port.close());
  let world;
  let level;
  let opened;
  try {
    [world, level, opened] = await Promise.all([
      api.world(pack),
      api.level(pack, levelId),
      port.open(pack, levelId),
    ]);
  } catch (error) {
    if (signal.aborted) return;
    levelTitle.textContent = "This level could not be opened";
    boardArea.replaceChildren(
      h(
        "div",
        { class: "card error-card", role: "alert" },
        h("p", {}, error?.message || "Something went wrong."),
        h(
          "button",
          { class: "button", type: "button", onclick: () => navigate(`/play/${pack}/${levelId}`) },
          "Try again",
        ),
        h("button", { class: "button ghost", type: "button", onclick: backToMap }, "Back to the map"),
      ),
    );
    const escape = (event) => event.key === "Escape" && backToMap();
    window.addEventListener("keydown", escape, { signal });
    return;
  }
  if (signal.aborted) return;

  document.title = `${level.title} · Miau`;
  worldName.textContent = world.name;
  levelTitle.textContent = level.title;
  if (level.hint) {
    hint.textContent = level.hint;
    hintPanel.hidden = false;
  }
  const vocabulary = new Vocabulary(level, world);
  const board = new Board(boardArea, { vocabulary, palette: world.palette });
  const ledger = new Ledger(ledgerList, { vocabulary, onHighlight: (ids) => board.highlight(ids) });
  let state = null;
  let won = false;
  let closeWin = null;
  const queue = [];
  let waitingForReply = false;

  function showState(next, event) {
    state = next;
    if (event) board.apply(event, next);
    else board.draw(next);
    ledger.show(next);
    moveCount.textContent = String(next.moveCount);
    lossBanner.hidden = !next.controlLost || next.won;
    root.dataset.controlLost = String(Boolean(next.controlLost));
  }

  // Declared words (automata and pair properties) get a card beside the
  // board; the first time a player meets one it is marked new, and on a
  // narrow screen, where the side panel is below the fold, it also pops up.
  function showWords(entities) {
    const declared = [
      ...new Set(
        entities.filter((e) => e.kind === "word" && vocabulary.isDeclared(e.text)).map((e) => e.text),
      ),
    ];
    const seen = seenWords();
    const fresh = new Set(declared.filter((word) => !seen.has(word)));
    wordsPanel.hidden = declared.length === 0;
    glossaryList.replaceChildren(
      ...declared.map((word) =>
        h(
          "li",
          { class: "glossary-entry", dataset: { word, new: String(fresh.has(word)) } },
          wordTile(word, vocabulary, { chip: true }),
          h("span", {}, vocabulary.describe(word) || ""),
          fresh.has(word) ? h("span", { class: "badge new" }, "New") : null,
        ),
      ),
    );
    if (!fresh.size) return;
    for (const word of fresh) seen.add(word);
    rememberWords(seen);
    if (!window.matchMedia("(max-width: 860px)").matches) return;
    for (const word of fresh) {
      toast(
        [
          h("span", { class: "toast-kicker" }, "New word"),
          wordTile(word, vocabulary, { chip: true }),
          h("span", {}, vocabulary.describe(word) || ""),
        ],
        {
          tone: "word",
          duration: 7000,
        },
      );
    }
  }

  function setPending() {
    root.dataset.pending = String(queue.length + (waitingForReply ? 1 : 0));
  }

  function onWin(progress) {
    won = true;
    queue.length = 0;
    input.setEnabled(false);
    const open = () => {
      if (signal.aborted) return;
      closeWin = showWin(root, {
        title: level.title,
        moves: state.moveCount,
        bestMoves: progress?.bestMoves ?? null,
        onNext: level.next
          ? () =>
              navigate(`/play/${encodeURIComponent(level.next.pack)}/${encodeURIComponent(level.next.level)}`)
          : null,
        onMap: backToMap,
        onReplay: () => navigate(`/play/${encodeURIComponent(pack)}/${encodeURIComponent(levelId)}`),
        signal,
      });
    };
    if (prefersReducedMotion()) open();
    else setTimeout(open, SLIDE_MS + 180);
  }

  async function pump() {
    if (waitingForReply || !queue.length) return;
    waitingForReply = true;
    const intent = queue.shift();
    setPending();
    try {
      const reply = await port.send(intent);
      if (signal.aborted) return;
      showState(reply.state, reply.event);
      announceTurn(reply.event, reply.state);
      if (reply.state.won && !won) onWin(reply.progress);
    } catch (error) {
      if (signal.aborted) return;
      queue.length = 0;
      if (error?.code !== "offline" && error?.code !== "superseded") {
        toast(error?.message || "That did not work.", { tone: "error" });
      }
    } finally {
      waitingForReply = false;
      setPending();
    }
    pump();
  }

  function onIntent(intent, { repeat }) {
    if (intent.intent === "back") {
      backToMap();
      return;
    }
    if (won) return;
    // The player has moved on: the running animation ends now, not when the
    // reply comes, so the next turn is drawn in the first frame after it.
    board.finishAnimations();
    // A held key adds a repeat only when nothing is waiting to be sent, so
    // holding a key never builds a backlog; a real press may wait behind a few.
    if (repeat && queue.length > 0) return;
    if (queue.length >= MAX_WAITING_INTENTS) return;
    queue.push(intent);
    setPending();
    pump();
  }

  const input = createInput({ onIntent, swipeSurface: boardArea, buttonRoot: root });
  const stopReopened = port.onReopened((next) => {
    queue.length = 0;
    setPending();
    root.dataset.reopened = String(Number(root.dataset.reopened || "0") + 1);
    if (!won) showState(next, null);
  });
  const stopStatus = port.onStatus((status) => {
    connection.hidden = status !== "offline";
    root.dataset.connection = status;
  });
  signal.addEventListener("abort", () => {
    input.destroy();
    board.destroy();
    stopReopened();
    stopStatus();
    closeWin?.();
  });

  showState(opened.state, null);
  showWords(opened.state.entities);
  root.dataset.ready = "true";
  root.dataset.resumed = String(opened.resumed);
  if (opened.resumed && opened.state.moveCount > 0) {
    toast(`Resumed at move ${opened.state.moveCount}. Restart with R.`, { duration: 3500 });
  }
  say(
    `${level.title}. ${opened.state.rules.map((rule) => `${rule.subject} is ${rule.predicate}`).join(". ")}.`,
  );
  if (opened.state.won) onWin(null);
}
