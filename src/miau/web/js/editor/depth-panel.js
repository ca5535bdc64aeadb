// The depth panel: the studio's `depth` job measures the draft's depth
// profile (miau.solver.depth) and the panel says what it found in plain
// words, with the tier and what it means; the static dead squares go to the
// grid as marks. Below it, "Suggest a variation" runs the studio's `suggest`
// job (the level generator on the draft, capped at a few seconds, with
// `miau generate`'s finishing: new ideas only, minimised, none shallower)
// and shows each variation as a card the moment it is found: its board with
// the cells it changes marked, its idea, its solution (copy or watch it)
// and "Use this".

import { h } from "../dom.js";
import * as studio from "../studio-port.js";
import { jobControls } from "./job-controls.js";
import {
  changeLabel,
  changesLine,
  depthHeadline,
  measuredIn,
  movesAsArrows,
  previewCells,
  profileFacts,
  tierLine,
  variationSummary,
} from "./depth-words.js";

const SUGGEST_SECONDS = 5;
const SUGGEST_COUNT = 3;
const SUGGEST_MAX_SECONDS = 20; // as miau.play.studio_suggest.SUGGEST_MAX_SECONDS

/**
 * Suggest's time budget: 5 s, or `localStorage["miau.suggestSeconds"]` (1 to 20) where
 * an author on a slow machine, or a test, asks for longer.
 */
function suggestSeconds() {
  let asked = NaN;
  try {
    asked = Number(localStorage.getItem("miau.suggestSeconds"));
  } catch {
    // Storage can be off: the default stands.
  }
  return asked >= 1 && asked <= SUGGEST_MAX_SECONDS ? asked : SUGGEST_SECONDS;
}

const DROPPED_WORDS = [
  ["sameIdeaAsDraft", "asked for your level's own idea"],
  ["nearCopy", "copied its solution"],
  ["repeatedIdea", "repeated another's idea"],
  ["walk", "needed no rule change"],
  ["shallower", "were shallower"],
  ["outOfTime", "could not be finished in time"],
];

/** Why the levels found were not offered ("dropped": counts by reason), as a clause. */
function droppedLine(dropped = {}) {
  const parts = DROPPED_WORDS.filter(([key]) => dropped[key]).map(([key, words]) => `${dropped[key]} ${words}`);
  return parts.length ? `: of the levels found, ${parts.join(", ")}` : "";
}

/**
 * The panel drawn into `root`. `pack()` gives the one-level pack;
 * `onDeadSquares(squares, walls)` shows a profile's dead squares on the grid;
 * `onUse(level)` puts a suggested level in the draft; `onWatch(level)` plays
 * its solution back without touching the draft; `glyphs()` gives the
 * draft's palette (noun -> glyph) for the previews.
 */
export class DepthPanel {
  constructor(root, { pack, onDeadSquares, onUse, onWatch = () => {}, glyphs = () => ({}) }) {
    this.root = root;
    this.pack = pack;
    this.onDeadSquares = onDeadSquares;
    this.onUse = onUse;
    this.onWatch = onWatch;
    this.glyphs = glyphs;
    this.controller = null;
    this.suggestController = null;
    this.seed = 1;
    Object.assign(
      this,
      jobControls({
        action: "depth",
        label: "Measure depth",
        idleText: "Measures how much of a puzzle the level is: the solver walks its states and counts.",
        onStart: () => this.start(),
        onCancel: () => this.controller?.abort(),
      }),
    );
    this.result = h("div", { class: "depth-result", hidden: true });
    const suggestControls = jobControls({
      action: "suggest",
      label: "Suggest a variation",
      idleText:
        `Looks for up to ${SUGGEST_SECONDS} seconds for variations that ask for an idea your level does not, ` +
        "minimised and no shallower than it.",
      onStart: () => this.suggest(),
      onCancel: () => this.suggestController?.abort(),
      primary: false,
    });
    this.suggestButton = suggestControls.startButton;
    this.cancelSuggestButton = suggestControls.cancelButton;
    this.suggestStatus = suggestControls.status;
    this.cards = h("div", { class: "variation-cards", hidden: true });
    root.append(
      h("div", { class: "studio-actions" }, this.startButton, this.cancelButton),
      this.status,
      this.result,
      h(
        "section",
        { class: "suggest-section", "aria-label": "Suggest a variation" },
        h("h3", {}, "Variations"),
        h("div", { class: "studio-actions" }, this.suggestButton, this.cancelSuggestButton),
        this.suggestStatus,
        this.cards,
      ),
    );
  }

  /** Whether a depth or suggest job is running. */
  get running() {
    return this.controller !== null || this.suggestController !== null;
  }

  setStatus(status, text, line = this.status) {
    line.dataset.status = status;
    line.textContent = text;
    if (line === this.status) this.root.dataset.status = status;
    else this.root.dataset.suggest = status;
  }

  /** The draft changed: the last profile no longer describes it. */
  markStale() {
    if (this.result.hidden || this.result.dataset.stale === "true") return;
    this.result.dataset.stale = "true";
    this.setStatus("stale", "The level changed since it was measured: measure again for its depth.");
  }

  /** Measures the current draft (does nothing while a measurement runs). */
  async start() {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    this.startButton.disabled = true;
    this.cancelButton.hidden = false;
    this.setStatus("waiting", "Waiting for a free worker…");
    const began = performance.now();
    const ticker = setInterval(() => {
      if (this.status.dataset.status === "running") {
        const seconds = ((performance.now() - began) / 1000).toFixed(0);
        this.status.textContent = `Measuring… ${seconds} s`;
      }
    }, 500);
    try {
      const profile = await studio.depth(this.pack(), {
        signal: controller.signal,
        onStarted: () => this.setStatus("running", "Measuring…"),
      });
      this.show(profile);
    } catch (error) {
      if (error?.code === "cancelled") this.setStatus("cancelled", "Cancelled: the worker is free again.");
      else this.setStatus("error", error?.message || "The depth could not be measured.");
    } finally {
      clearInterval(ticker);
      this.controller = null;
      this.startButton.disabled = false;
      this.cancelButton.hidden = true;
    }
  }

  /** Shows a depth profile and hands its dead squares to the grid. */
  show(profile) {
    this.profile = profile;
    this.setStatus("measured", measuredIn(profile.seconds));
    delete this.result.dataset.stale;
    this.result.hidden = false;
    this.result.dataset.tier = String(profile.tier);
    this.result.replaceChildren(
      h(
        "div",
        { class: "depth-headline", dataset: { tier: String(profile.tier) } },
        h("span", { class: "depth-tier", dataset: { tier: String(profile.tier) } }, profile.tierName || ""),
        h("strong", { class: "depth-figure" }, depthHeadline(profile)),
      ),
      h("p", { class: "tier-line" }, tierLine(profile.tier)),
      h(
        "dl",
        { class: "depth-facts" },
        profileFacts(profile).map(([key, label, value]) =>
          h("div", { dataset: { fact: key } }, h("dt", {}, label), h("dd", {}, value)),
        ),
      ),
      h(
        "details",
        { class: "depth-notes" },
        h("summary", {}, "How depth is measured"),
        h(
          "p",
          {},
          "Depth adds how hard the shortest solution is to prove (the log of the states expanded), " +
            "half the rule changes it makes (up to six) and twice the dead-end share; a level won " +
            "without pushing a word stays at 0.5 or below. Tiers start at 1, 2.5, 4 and 5.5. ",
          "The formula and why are in ",
          h("code", {}, "docs/depth.md"),
          ".",
        ),
      ),
    );
    this.onDeadSquares(profile.deadSquares || [], profile.deadSquareWalls);
  }

  /** Runs the generator on the draft and shows each variation as it is found. */
  async suggest() {
    if (this.suggestController) return;
    const controller = new AbortController();
    this.suggestController = controller;
    this.suggestButton.disabled = true;
    this.cancelSuggestButton.hidden = false;
    this.cards.replaceChildren();
    this.cards.hidden = true;
    this.setStatus("waiting", "Waiting for a free worker…", this.suggestStatus);
    const seed = this.seed;
    // Each press asks for other variations; the same press on the same draft repeats itself.
    this.seed += 1;
    let shown = 0;
    const running = (text) => this.setStatus("running", text, this.suggestStatus);
    const soFar = () => (shown ? ` ${shown} found so far.` : "");
    try {
      const suggestion = await studio.suggest(this.pack(), {
        seconds: suggestSeconds(),
        count: SUGGEST_COUNT,
        seed,
        signal: controller.signal,
        onStarted: () => running("Looking for new ideas…"),
        onProgress: (figures) =>
          running(
            `Looking for new ideas… ${figures.candidates ?? 0} tried, ${figures.solved ?? 0} solved, ` +
              `${Number(figures.seconds || 0).toFixed(0)} s.${soFar()}`,
          ),
        onVariation: (variation) => {
          shown += 1;
          this.cards.hidden = false;
          this.cards.append(this.card(variation, shown));
          running(`Minimising and checking the next one…${soFar()}`);
        },
      });
      this.showVariations(suggestion);
    } catch (error) {
      if (error?.code === "cancelled") {
        this.setStatus("cancelled", shown ? `Cancelled; ${shown} shown.` : "Cancelled.", this.suggestStatus);
      } else this.setStatus("error", error?.message || "No variation could be made.", this.suggestStatus);
    } finally {
      this.suggestController = null;
      this.suggestButton.disabled = false;
      this.cancelSuggestButton.hidden = true;
    }
  }

  /** The job's answer: the cards again (in order, as found) and a plain sentence. */
  showVariations(suggestion) {
    const variations = suggestion.variations || [];
    const seconds = Number(suggestion.seconds || 0).toFixed(1);
    if (!variations.length) {
      this.cards.hidden = true;
      this.cards.replaceChildren();
      this.setStatus(
        "none",
        `Nothing new turned up in ${seconds} s${droppedLine(suggestion.dropped)}. ` +
          "Try again for other variations.",
        this.suggestStatus,
      );
      return;
    }
    const count = variations.length;
    this.setStatus(
      "suggested",
      `${count} variation${count === 1 ? "" : "s"} with a new idea, found in ${seconds} s. Using one can be undone.`,
      this.suggestStatus,
    );
    this.cards.hidden = false;
    this.cards.replaceChildren(...variations.map((variation, index) => this.card(variation, index + 1)));
  }

  card(variation, number) {
    const summary = variationSummary(variation);
    const moves = variation.level.solution || "";
    const copyButton = h(
      "button",
      {
        class: "button small",
        type: "button",
        dataset: { action: "copy-moves" },
        title: "Copy the moves as letters (U D L R, W for a wait)",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(moves);
            copyButton.textContent = "Copied";
          } catch {
            copyButton.textContent = "Select the moves to copy";
          }
        },
      },
      "Copy",
    );
    return h(
      "article",
      { class: "variation-card", dataset: { tier: String(variation.tier), number: String(number) } },
      h(
        "div",
        { class: "variation-head" },
        h("strong", { class: "variation-title" }, `Variation ${number}`),
        h("span", { class: "variation-facts" }, `${summary.size} · depth ${summary.depth}`),
      ),
      this.preview(variation.level, variation.changes || []),
      h("p", { class: "variation-changes" }, changesLine(variation.changes)),
      h(
        "p",
        { class: "variation-idea" },
        h("span", { class: "variation-label" }, "Idea "),
        h("code", {}, variation.idea || "?"),
      ),
      h(
        "div",
        { class: "variation-solution", dataset: { moves } },
        h("span", { class: "variation-label" }, `Solution · ${summary.moves}`),
        h("code", { class: "variation-moves", title: moves }, movesAsArrows(moves)),
      ),
      h(
        "div",
        { class: "variation-actions" },
        h(
          "button",
          {
            class: "button small",
            type: "button",
            dataset: { action: "watch-variation" },
            onclick: () => this.onWatch(variation.level),
          },
          "Watch",
        ),
        copyButton,
        h(
          "button",
          {
            class: "button small primary",
            type: "button",
            dataset: { action: "use-variation" },
            onclick: () => this.onUse(variation.level),
          },
          "Use this",
        ),
      ),
    );
  }

  /** The variation's board, its changed cells marked (removed things shown faint where they were). */
  preview(level, changes) {
    const glyphs = this.glyphs();
    const rows = previewCells(level);
    const marks = new Map(changes.map((change) => [`${change.x},${change.y}`, change]));
    const cells = [];
    rows.forEach((row, y) =>
      row.forEach((cell, x) => {
        const change = marks.get(`${x},${y}`);
        const attributes = { class: "preview-cell" };
        if (change) {
          attributes.dataset = { change: change.change };
          attributes.title = changeLabel(change);
        }
        if (!cell) {
          cells.push(h("span", attributes, change?.change === "removed" ? "×" : ""));
          return;
        }
        if (cell.kind === "word") {
          attributes.class += " word";
          cells.push(h("span", attributes, cell.text.slice(0, 2)));
          return;
        }
        attributes.class += " object";
        const glyph = glyphs[cell.text];
        const face = typeof glyph === "string" ? glyph : glyph?.glyph;
        cells.push(h("span", attributes, face || cell.text.slice(0, 1)));
      }),
    );
    return h(
      "div",
      { class: "variation-board" },
      h(
        "div",
        { class: "variation-preview", role: "img", "aria-label": changesLine(changes), style: { "--preview-columns": String(level.width) } },
        cells,
      ),
      h(
        "ul",
        { class: "change-legend", "aria-hidden": "true" },
        h("li", { dataset: { change: "added" } }, "added"),
        h("li", { dataset: { change: "moved" } }, "moved"),
        h("li", { dataset: { change: "removed" } }, "removed"),
      ),
    );
  }
}
