// The play scene's top bar: the way back, the world and level names, the
// move count, the action buttons (with Share and the sound switch) and the
// connection status.

import { h, keyLabel } from "../dom.js";
import { actionButton } from "./buttons.js";

/**
 * The top bar. `backWord` names the way back, `shareKey` is the key shown
 * on Share, `soundSwitch` the sound control's element. `element` is the
 * `<header>`; `shareButton` the Share button.
 */
export class PlayHeader {
  constructor({ backWord, shareKey, soundSwitch }) {
    this.worldName = h("span", { class: "play-world" }, "");
    this.levelTitle = h("h1", { class: "play-title" }, "Loading…");
    // No count until the game's state is known: a "0" here would say a saved game was lost.
    this.moveCount = h("strong", { id: "move-count", class: "move-count", dataset: { known: "false" } }, "–");
    this.connection = h("span", { class: "connection", role: "status", hidden: true }, "Reconnecting…");
    this.shareButton = h(
      "button",
      { class: "button action share-button", type: "button", dataset: { action: "share" } },
      keyLabel("Share", shareKey.toUpperCase()),
    );
    this.element = h(
      "header",
      { class: "topbar" },
      h("button", { class: "button ghost back", type: "button", dataset: { intent: "back" } }, [
        h("span", { class: "label" }, "‹", h("span", { class: "back-word" }, backWord)),
        h("kbd", {}, "Esc"),
      ]),
      h("div", { class: "play-titles" }, this.worldName, this.levelTitle),
      h("div", { class: "move-counter" }, h("span", { class: "label" }, "Moves"), this.moveCount),
      h(
        "div",
        { class: "play-actions" },
        actionButton("undo", "Undo", "Z"),
        actionButton("reset", "Restart", "R"),
        actionButton("wait", "Wait", "Space"),
        this.shareButton,
        soundSwitch,
      ),
      this.connection,
    );
  }

  /** Shows the world's and the level's names (null leaves one as it is). */
  showTitles(world, title) {
    if (world !== null) this.worldName.textContent = world;
    if (title !== null) this.levelTitle.textContent = title;
  }

  /** Shows the number of moves made. */
  showMoves(count) {
    this.moveCount.textContent = String(count);
    this.moveCount.dataset.known = "true";
  }

  /** Shows "Reconnecting…" while the engine port is offline. */
  showConnection(status) {
    this.connection.hidden = status !== "offline";
  }
}

/** The name shown above the level's title: a shared level and a draft say what they are. */
export function worldLabel(kind, world) {
  if (kind === "shared") return "Shared level";
  if (kind === "draft") return "Test play";
  return world.name;
}
