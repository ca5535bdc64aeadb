// The palette of tools: move, erase, one tool per thing of the pack's
// palette, one per word tile (nouns, IS, AND, the core properties, the
// level's declared properties), and a small form that adds a new thing.

import { h } from "../dom.js";
import { CORE_PROPERTIES, wordTile } from "../words.js";
import { isFixedWord, isToken } from "./draft.js";

const CORE_ORDER = ["YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT"];

// Glyphs a new thing gets when the author types none: plain, distinct
// emoji that no stock thing uses, so the thing is playable at once and the
// glyph can simply be kept.
const DEFAULT_GLYPHS = ["⭐", "🌳", "💎", "🍎", "👻", "🌙", "🔥", "🐸", "🍄", "🎈", "⚙️", "🦊"];

/**
 * The glyph a new thing of `pack` gets when none is typed: the first of
 * DEFAULT_GLYPHS no thing of the palette shows yet (the last one when all are taken).
 */
export function defaultGlyph(pack) {
  const taken = new Set(Object.values(pack.palette).map(glyphOf));
  return DEFAULT_GLYPHS.find((glyph) => !taken.has(glyph)) ?? DEFAULT_GLYPHS[DEFAULT_GLYPHS.length - 1];
}

/** The tool id of a thing or word: `object:MIAU`, `word:IS`; plus `move` and `erase`. */
export function toolId(tool) {
  if (tool.kind === "object") return `object:${tool.noun}`;
  if (tool.kind === "word") return `word:${tool.text}`;
  return tool.kind;
}

/**
 * Every tool for this draft, in palette order. `builtIn` lists the words a
 * vocabulary feature adds (operators, nouns, properties), when the draft uses one.
 */
export function toolsFor(pack, declared, builtIn = []) {
  const nouns = Object.keys(pack.palette);
  for (const entry of pack.levels[0].objects) {
    if (entry.kind === "object" && !nouns.includes(entry.noun)) nouns.push(entry.noun);
  }
  const words = [...nouns];
  for (const entry of pack.levels[0].objects) {
    if (
      entry.kind === "word" &&
      !words.includes(entry.text) &&
      !isFixedWord(entry.text) &&
      !builtIn.includes(entry.text) &&
      !declared.includes(entry.text)
    ) {
      words.push(entry.text);
    }
  }
  return [
    { kind: "move", label: "Move" },
    { kind: "erase", label: "Erase" },
    ...nouns.map((noun) => ({ kind: "object", noun, label: noun })),
    ...words.map((text) => ({ kind: "word", text, label: `${text} word` })),
    { kind: "word", text: "IS", label: "IS word" },
    { kind: "word", text: "AND", label: "AND word" },
    ...CORE_ORDER.map((text) => ({ kind: "word", text, label: `${text} word` })),
    ...builtIn.map((text) => ({ kind: "word", text, label: `${text} word` })),
    ...declared
      .filter((word) => !CORE_PROPERTIES.has(word))
      .map((text) => ({ kind: "word", text, label: `${text} word` })),
  ];
}

function keyOf(index) {
  if (index < 9) return String(index + 1);
  if (index === 9) return "0";
  return null;
}

function glyphOf(entry) {
  return typeof entry === "string" ? entry : entry?.glyph || null;
}

/**
 * The palette drawn into `root`. `onPick(tool)` when a tool is chosen,
 * `onAddNoun(noun, glyph)` when the form adds a thing (returns an error
 * sentence or null).
 */
export class Palette {
  constructor(root, { onPick, onAddNoun }) {
    this.root = root;
    this.onPick = onPick;
    this.onAddNoun = onAddNoun;
    this.tools = [];
    this.selected = "object:MIAU";
    this.toolList = h("div", { class: "palette-tools", role: "toolbar", "aria-label": "Tools" });
    const nounInput = h("input", {
      class: "input",
      name: "new-noun",
      placeholder: "NOUN",
      maxlength: "32",
      autocomplete: "off",
      spellcheck: "false",
      "aria-label": "New thing: its noun",
      dataset: { field: "new-noun" },
    });
    const glyphInput = (this.glyphInput = h("input", {
      class: "input glyph-input",
      name: "new-glyph",
      placeholder: DEFAULT_GLYPHS[0],
      maxlength: "16",
      autocomplete: "off",
      "aria-label": "New thing: its glyph (an emoji or a short text; left empty, the one shown)",
      dataset: { field: "new-glyph" },
    }));
    const message = h("p", { class: "field-error", role: "alert", hidden: true });
    const form = h(
      "form",
      {
        class: "new-noun",
        onsubmit: (event) => {
          event.preventDefault();
          const noun = nounInput.value.trim().toUpperCase();
          // No glyph typed: the one the field shows as its placeholder, kept as the thing's own.
          const glyph = glyphInput.value.trim() || glyphInput.placeholder;
          const error = this.onAddNoun(noun, glyph);
          message.hidden = !error;
          message.textContent = error || "";
          if (!error) {
            nounInput.value = "";
            glyphInput.value = "";
          }
        },
      },
      h("span", { class: "form-label" }, "New thing"),
      h(
        "div",
        { class: "new-noun-row" },
        nounInput,
        glyphInput,
        h("button", { class: "button small", type: "submit" }, "Add"),
      ),
      message,
    );
    root.append(this.toolList, form);
    this.toolList.addEventListener("click", (event) => {
      const button = event.target instanceof Element ? event.target.closest("[data-tool]") : null;
      if (!button) return;
      const tool = this.tools.find((each) => toolId(each) === button.dataset.tool);
      if (tool) this.pick(tool);
    });
  }

  /** The selected tool. */
  get tool() {
    return this.tools.find((each) => toolId(each) === this.selected) || this.tools[0];
  }

  /** Selects `tool` and tells the scene. */
  pick(tool) {
    this.selected = toolId(tool);
    this.markSelected();
    this.onPick(tool);
  }

  /** Selects the tool `delta` places before or after the current one ([ and ]). */
  cycle(delta) {
    const index = this.tools.findIndex((each) => toolId(each) === this.selected);
    const next = this.tools[(index + delta + this.tools.length) % this.tools.length];
    if (next) this.pick(next);
  }

  /** Selects the tool of a number key (1 to 9, then 0). */
  pickByKey(key) {
    const index = key === "0" ? 9 : Number(key) - 1;
    if (this.tools[index]) this.pick(this.tools[index]);
  }

  markSelected() {
    for (const button of this.toolList.querySelectorAll("[data-tool]")) {
      const on = button.dataset.tool === this.selected;
      button.setAttribute("aria-pressed", String(on));
      if (on) button.scrollIntoView?.({ block: "nearest", inline: "nearest" });
    }
  }

  /** Draws the tools of `pack` with `vocabulary` (word classes and accents). */
  render(pack, vocabulary, declared, builtIn = []) {
    this.tools = toolsFor(pack, declared, builtIn);
    this.glyphInput.placeholder = defaultGlyph(pack);
    if (!this.tools.some((each) => toolId(each) === this.selected)) this.selected = "move";
    const groups = [
      ["Tools", this.tools.filter((tool) => tool.kind === "move" || tool.kind === "erase")],
      ["Things", this.tools.filter((tool) => tool.kind === "object")],
      ["Words", this.tools.filter((tool) => tool.kind === "word")],
    ];
    const buttons = new Map();
    this.tools.forEach((tool, index) => buttons.set(tool, this.button(tool, keyOf(index), pack, vocabulary)));
    this.toolList.replaceChildren(
      ...groups.map(([name, tools]) =>
        h(
          "div",
          { class: "palette-group", role: "group", "aria-label": name },
          h("span", { class: "form-label" }, name),
          h(
            "div",
            { class: "palette-row" },
            tools.map((tool) => buttons.get(tool)),
          ),
        ),
      ),
    );
    this.markSelected();
  }

  button(tool, key, pack, vocabulary) {
    let face;
    if (tool.kind === "move") face = h("span", { class: "tool-icon", "aria-hidden": "true" }, "✥");
    else if (tool.kind === "erase") face = h("span", { class: "tool-icon", "aria-hidden": "true" }, "⌫");
    else if (tool.kind === "object") {
      const glyph = glyphOf(pack.palette[tool.noun]);
      face = glyph
        ? h("span", { class: "tool-glyph", "aria-hidden": "true" }, glyph)
        : h("span", { class: "tool-noun-box", "aria-hidden": "true" }, tool.noun);
    } else {
      // A chip as wide as its word: readable text (never shrunk to fit a square), in its class's colours.
      face = wordTile(tool.text, vocabulary, { lit: true, chip: true });
      face.setAttribute("aria-hidden", "true");
    }
    const title = key ? `${tool.label} (${key})` : tool.label;
    return h(
      "button",
      {
        class: "tool",
        type: "button",
        title,
        "aria-label": tool.label,
        "aria-pressed": "false",
        dataset: { tool: toolId(tool), kind: tool.kind },
      },
      face,
      key ? h("kbd", { class: "tool-key", "aria-hidden": "true" }, key) : null,
    );
  }
}

/** Why `noun` with `glyph` cannot join the palette, or null when it can. */
export function newNounProblem(noun, glyph, pack, declared) {
  if (!isToken(noun)) return "A noun is a capital letter, then up to 31 capitals, digits, _ or -.";
  if (isFixedWord(noun)) return `${noun} is a word of the game, not a thing.`;
  if (declared.includes(noun) || pack.properties?.[noun]) return `${noun} is a property of this level.`;
  if (pack.palette[noun]) return `${noun} is already in the palette.`;
  if (!glyph) return "Give it a glyph: an emoji or a short text.";
  if ([...glyph].length > 16) return "A glyph is at most 16 characters.";
  return null;
}
