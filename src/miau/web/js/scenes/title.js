// The title: the game's name written as a live rule of word tiles.

import { h, keyLabel } from "../dom.js";
import { Vocabulary, wordTile } from "../words.js";

const TITLE_RULE = ["MIAU", "IS", "YOU"];

/** Draws the title scene into `root`. */
export function mount(root, _params, { navigate, signal }) {
  document.title = "Miau";
  const vocabulary = new Vocabulary();
  const play = () => navigate("/worlds");
  const tiles = TITLE_RULE.map((text, index) => {
    const tile = wordTile(text, vocabulary, { lit: true });
    tile.style.setProperty("--i", String(index));
    return tile;
  });
  const button = h(
    "button",
    { class: "button primary big", type: "button", onclick: play },
    keyLabel("Play", "Enter"),
  );
  root.className = "scene title-scene";
  root.append(
    h(
      "main",
      { class: "title-stage" },
      h("div", { class: "title-glyph", "aria-hidden": "true" }, "🐈"),
      h("h1", { class: "title-rule", "aria-label": "Miau is you" }, tiles),
      h("p", { class: "tagline" }, "Push the words. Change the rules."),
      button,
      h(
        "p",
        { class: "title-keys" },
        h("kbd", {}, "←↑↓→"),
        " or ",
        h("kbd", {}, "WASD"),
        " move · ",
        h("kbd", {}, "Z"),
        " undo · ",
        h("kbd", {}, "R"),
        " restart · ",
        h("kbd", {}, "Space"),
        " wait · ",
        h("kbd", {}, "H"),
        " hint",
      ),
      // A touch screen shows this line instead (miau.css): it has no keys to name.
      h("p", { class: "title-touch" }, "Swipe on the board or use the pad to move · Undo, Restart and Wait are in the top bar"),
    ),
  );
  window.addEventListener(
    "keydown",
    (event) => {
      if (event.key !== "Enter" || event.target instanceof HTMLButtonElement) return;
      event.preventDefault();
      play();
    },
    { signal },
  );
  button.focus();
}
