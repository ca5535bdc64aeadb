// Test-play: the draft played on the game's own board and engine, through
// the engine port's draft games (`open({draft})`: played in memory on the
// server, nothing stored). Also plays a solver's moves back as a replay.

import { TurnAnnouncer } from "../announce.js";
import { Board, SLIDE_MS } from "../board.js";
import { GameController, intentOfLetter } from "../controller.js";
import { h, keyLabel } from "../dom.js";
import * as port from "../engine-port.js";
import { createInput } from "../input.js";
import { Ledger } from "../ledger.js";
import { dpad } from "../pad.js";
import { sound } from "../sound.js";
import { toast } from "../toast.js";
import { WinnableCheck } from "../play/winnable-check.js";
import { keysOrTouch } from "../touch.js";

const REPLAY_PAUSE_MS = 110;

/** The banner's lines when a move lost YOU: undo or restart bring it back. */
function lossLines() {
  return [
    h("p", { class: "loss-title" }, "Nothing is YOU"),
    h("p", { class: "loss-text" }, keysOrTouch("Undo (Z) or restart (R).", "Undo or restart.")),
  ];
}

/**
 * The banner's lines when the level has nothing YOU from its start, where
 * undo and restart only come back to the same: the level needs a sentence
 * that makes one of its things YOU (MIAU when it has a MIAU or no things).
 */
function noYouLines(state) {
  const nouns = state.entities.filter((entity) => entity.kind !== "word").map((entity) => entity.noun);
  const noun = nouns.length && !nouns.includes("MIAU") ? nouns[0] : "MIAU";
  const needs = nouns.length
    ? `This level needs a sentence like ${noun} IS YOU. `
    : "This level needs a thing, and a sentence like MIAU IS YOU that makes it YOU. ";
  return [
    h("p", { class: "loss-title" }, "Nothing is YOU from the start"),
    h(
      "p",
      { class: "loss-text" },
      needs,
      keysOrTouch("Press T to go back to editing.", "Edit goes back to editing."),
    ),
  ];
}

function actionButton(intent, label, key) {
  return h("button", { class: "button action", type: "button", dataset: { intent } }, keyLabel(label, key));
}

/**
 * The play view drawn into `root` (hidden until `start`). `onExit()` is
 * called when the player asks to go back to editing (Escape or the button);
 * `onWin(moves, pack)` when the player (not a replay) wins `pack`, with the
 * move letters of the win when the page knows them all. The win banner
 * offers "Store as solution" for those moves: `onStore(moves)` stores them,
 * `solution()` gives the draft's stored solution (so the banner can say it
 * is that one already).
 */
export class TestPlay {
  constructor(root, { onExit, onWin = () => {}, onStore = null, solution = () => null, sound = null }) {
    this.root = root;
    this.onExit = onExit;
    this.onWin = onWin;
    this.onStore = onStore;
    this.solution = solution;
    this.sound = sound;
    this.session = null;
    this.moveCount = h("strong", { class: "move-count", dataset: { role: "test-moves" } }, "0");
    this.status = h("span", { class: "test-status", role: "status" }, "Test-play");
    this.banner = h("div", { class: "test-banner", role: "alert", hidden: true });
    this.boardArea = h("div", { class: "board-area test-board-area" });
    this.ledgerList = h("ol", { class: "ledger", "aria-label": "Active rules" });
    this.winnableSlot = h("div", { class: "test-winnable" });
    root.append(
      h(
        "div",
        { class: "test-bar" },
        this.status,
        h("div", { class: "move-counter" }, h("span", { class: "label" }, "Moves"), this.moveCount),
        h(
          "div",
          { class: "play-actions" },
          actionButton("undo", "Undo", "Z"),
          actionButton("reset", "Restart", "R"),
          actionButton("wait", "Wait", "Space"),
          h(
            "button",
            { class: "button", type: "button", dataset: { intent: "back" } },
            keyLabel("Edit", "T"),
          ),
        ),
      ),
      h(
        "div",
        { class: "test-main" },
        h("div", { class: "board-wrap" }, this.boardArea),
        // The banner sits atop the side column, as the play scene's does: the board never moves for it.
        h(
          "div",
          { class: "test-side" },
          this.banner,
          this.winnableSlot,
          h("section", { class: "panel rules-panel" }, h("h2", {}, "Rules"), this.ledgerList),
        ),
      ),
      dpad(),
    );
  }

  /**
   * Opens `pack` (a one-level pack) as a draft game and plays it; with
   * `replay` (a move string) the moves play themselves, one after another.
   * `stored` (`{pack, level}`): the draft is that library level, unchanged
   * since it was saved, so that level's own game is played from its start
   * instead, and a win counts as a win of it.
   */
  async start(pack, vocabulary, palette, { replay = null, stored = null } = {}) {
    this.stop();
    // The author sees the whole level at once, however large: its cells shrink to fit (no panning).
    const board = new Board(this.boardArea, { vocabulary, palette, fitsWhole: true });
    const session = { closed: false, replay, board, input: null, pack, youAtStart: true };
    this.session = session;
    const ledger = new Ledger(this.ledgerList, { vocabulary, onHighlight: (ids) => board.highlight(ids) });
    session.controller = new GameController({
      port,
      board,
      ledger,
      announcer: new TurnAnnouncer(),
      sound: this.sound ?? sound(),
      afterWin: ["undo", "reset"],
      onState: (state) => {
        this.show(state);
        session.winnable?.showState(state);
      },
      onPending: (count) => {
        if (!session.closed) this.root.dataset.pending = String(count);
      },
      onError: (error) => toast(error?.message || "That did not work.", { tone: "error" }),
    });
    this.root.dataset.ready = "false";
    this.root.dataset.pending = "0";
    this.root.dataset.won = "false";
    this.root.dataset.replay = replay ? "running" : "none";
    this.status.textContent = `${replay ? "Replay" : "Test-play"}${stored ? " · wins count" : ""}`;
    this.root.dataset.counts = String(Boolean(stored));
    this.banner.hidden = true;
    this.moveCount.textContent = "0";
    // "Can I still win?" while this draft is played; its key goes with the session.
    session.keys = new AbortController();
    session.winnable = new WinnableCheck({
      ask: () => session.controller.ask("winnable"),
      signal: session.keys.signal,
      isCovered: () => session.closed,
    });
    this.winnableSlot.replaceChildren(session.winnable.element);
    session.input = createInput({
      onIntent: (intent, options) => this.onIntent(session, intent, options),
      swipeSurface: this.boardArea,
      buttonRoot: this.root,
    });
    if (replay) session.input.setEnabled(false);
    let opened;
    try {
      opened = await port.open(stored ?? { draft: pack });
    } catch (error) {
      if (session.closed) return;
      this.banner.hidden = false;
      this.banner.dataset.tone = "error";
      delete this.banner.dataset.cause;
      this.banner.replaceChildren(
        h("p", { class: "loss-title" }, "This draft cannot be played yet"),
        h("p", { class: "loss-text" }, error?.message || "The server refused it."),
      );
      this.root.dataset.ready = "error";
      return;
    }
    if (session.closed) return;
    session.controller.start(opened.state, { title: "Test-play" });
    // The library level's game resumes where the player left it: test-play starts from the beginning.
    if (stored && (opened.state.moveCount > 0 || opened.state.won)) {
      try {
        await session.controller.send({ intent: "reset" });
      } catch {
        if (session.closed) return;
      }
      if (session.closed) return;
    }
    this.root.dataset.ready = "true";
    if (replay) this.runReplay(session, replay);
  }

  /** Leaves test-play: closes the draft game and drops the board. */
  stop() {
    const session = this.session;
    if (!session) return;
    session.closed = true;
    session.keys?.abort();
    session.controller.close();
    session.input.destroy();
    session.board.destroy();
    session.board.element.remove();
    port.close();
    this.session = null;
  }

  /** Shows `state`'s move count and, once it is won or YOU is gone, the banner that says what now. */
  show(state) {
    const session = this.session;
    this.moveCount.textContent = String(state.moveCount);
    this.root.dataset.moves = String(state.moveCount);
    // A state at move 0 is the level's start (after a restart or undoing every move too).
    if (state.moveCount === 0) session.youAtStart = !state.controlLost;
    if (state.won && !session.won) {
      session.won = true;
      // The author's own win: Save may store it as the level's solution.
      const moves = session.controller.moves;
      const winMoves = !session.replay && moves?.length ? moves.join("") : null;
      if (winMoves) this.onWin(winMoves, session.pack);
      this.root.dataset.won = "true";
      this.banner.hidden = false;
      this.banner.dataset.tone = "win";
      delete this.banner.dataset.cause;
      this.banner.replaceChildren(
        h("p", { class: "loss-title" }, `Won in ${state.moveCount} move${state.moveCount === 1 ? "" : "s"}`),
        h(
          "p",
          { class: "loss-text" },
          keysOrTouch("Press T to go back to editing, R to play again.", "Edit goes back to editing, Restart plays again."),
        ),
        winMoves && this.onStore ? this.storeButton(winMoves) : null,
      );
    } else if (!state.won) {
      session.won = false;
      this.root.dataset.won = "false";
      this.banner.hidden = !state.controlLost;
      if (state.controlLost) {
        this.banner.dataset.tone = "loss";
        this.banner.dataset.cause = session.youAtStart ? "lost" : "none-at-start";
        this.banner.replaceChildren(...(session.youAtStart ? lossLines() : noYouLines(state)));
      }
    }
  }

  /**
   * The win banner's "Store as solution" button for `moves`: it stores them
   * once, and says so when they already are the stored solution.
   */
  storeButton(moves) {
    const button = h("button", { class: "button small primary", type: "button", dataset: { action: "store-win" } });
    const showStored = () => {
      button.textContent = "Stored as the solution";
      button.disabled = true;
    };
    if (this.solution() === moves) showStored();
    else {
      button.textContent = `Store these ${moves.length} moves as the solution`;
      button.addEventListener("click", () => {
        this.onStore(moves);
        showStored();
      });
    }
    return h("p", { class: "loss-actions" }, button);
  }

  onIntent(session, intent, { repeat }) {
    if (intent.intent === "back") {
      this.onExit();
      return;
    }
    session.controller.request(intent, { repeat });
  }

  async runReplay(session, moves) {
    for (const letter of moves) {
      if (session.closed) return;
      const intent = intentOfLetter(letter);
      if (!intent) continue;
      try {
        await session.controller.send(intent);
        if (session.closed) return;
      } catch {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, SLIDE_MS + REPLAY_PAUSE_MS));
    }
    if (session.closed) return;
    this.root.dataset.replay = "done";
    session.input.setEnabled(true);
  }
}
