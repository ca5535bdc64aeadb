// The play scene's page: the top bar above, the board with its loss banner,
// the pad, and the side panels (rules, words here, hint), drawn into the
// scene's root. It shows what the game says; it decides nothing.

import { h } from "../dom.js";
import { dpad } from "../pad.js";
import { HintPanel, hintsOf } from "./hint-panel.js";
import { PlayHeader, worldLabel } from "./header.js";
import { LossBanner } from "./loss-banner.js";

/**
 * Draws the page of a play scene of `kind` into `root`. `header` gets
 * PlayHeader's options; `wordsPanel` is the WordsPanel to show.
 * `boardArea` is where the board goes, `ledgerList` where the ledger does.
 */
export class PlayPage {
  constructor(root, { kind, header, wordsPanel }) {
    this.root = root;
    this.kind = kind;
    root.className = "scene play-scene";
    root.dataset.pending = "0";
    root.dataset.ready = "false";
    root.dataset.kind = kind;
    this.header = new PlayHeader(header);
    this.boardArea = h("div", { class: "board-area" });
    this.lossBanner = new LossBanner();
    this.ledgerList = h("ol", { class: "ledger", "aria-label": "Active rules" });
    this.wordsPanel = wordsPanel;
    this.hintPanel = new HintPanel();
    root.append(
      this.header.element,
      h(
        "main",
        { class: "play-main" },
        h("div", { class: "board-wrap" }, this.boardArea, this.lossBanner.element),
        // Under the board, before the rules: on a phone the rules follow in the
        // page, so the pad stays where it is however many rules there are.
        dpad(),
        h(
          "aside",
          { class: "side", "aria-label": "Rules and hints" },
          h("section", { class: "panel rules-panel" }, h("h2", {}, "Rules"), this.ledgerList),
          wordsPanel.element,
          this.hintPanel.element,
        ),
      ),
    );
  }

  /** Shows the opened level: the page's title, the names, the board's shape; its hints wait to be asked for. */
  showLevel(world, level) {
    document.title = `${level.title} · Miau`;
    this.header.showTitles(worldLabel(this.kind, world), level.title);
    // A phone gives the board a height from the level's shape alone (miau.css), never from the rules.
    this.root.style.setProperty("--level-aspect", String(level.height / level.width));
    this.hintPanel.offer(hintsOf(level));
  }

  /** Shows a drawn state: the move count and the loss banner. */
  showState(state) {
    this.header.showMoves(state.moveCount);
    this.lossBanner.update(state);
    this.root.dataset.controlLost = String(Boolean(state.controlLost));
  }

  /** Records how many intents wait for a reply (the browser tests wait on it). */
  showPending(count) {
    this.root.dataset.pending = String(count);
  }

  /** Shows the engine port's connection status. */
  showConnection(status) {
    this.header.showConnection(status);
    this.root.dataset.connection = status;
  }

  /** Counts a game the engine port opened again after a dropped connection. */
  countReopened() {
    this.root.dataset.reopened = String(Number(this.root.dataset.reopened || "0") + 1);
  }
}
