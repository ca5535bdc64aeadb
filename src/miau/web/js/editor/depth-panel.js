// The depth panel: the studio's `depth` job measures the draft's depth
// profile (miau.solver.depth) and the panel says what it found in plain
// words, with the tier and what it means; the static dead squares go to the
// grid as marks. Below it, "Suggest a variation" runs the studio's `suggest`
// job (a few seconds of the level generator on the draft) and offers the
// deepest levels it found as cards, each with "Use this".

import { h } from "../dom.js";
import * as studio from "../studio-port.js";
import { jobControls } from "./job-controls.js";
import {
  depthHeadline,
  measuredIn,
  previewCells,
  profileFacts,
  tierLine,
  variationSummary,
} from "./depth-words.js";

const SUGGEST_SECONDS = 5;
const SUGGEST_COUNT = 3;

/**
 * The panel drawn into `root`. `pack()` gives the one-level pack;
 * `onDeadSquares(squares, walls)` shows a profile's dead squares on the grid;
 * `onUse(variation)` puts a suggested level in the draft; `glyphs()` gives the
 * draft's palette (noun -> glyph) for the previews.
 */
export class DepthPanel {
  constructor(root, { pack, onDeadSquares, onUse, glyphs = () => ({}) }) {
    this.root = root;
    this.pack = pack;
    this.onDeadSquares = onDeadSquares;
    this.onUse = onUse;
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
      idleText: `Evolves the level for about ${SUGGEST_SECONDS} seconds and offers the deepest variations.`,
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

  /** Runs the generator on the draft and offers what it found. */
  async suggest() {
    if (this.suggestController) return;
    const controller = new AbortController();
    this.suggestController = controller;
    this.suggestButton.disabled = true;
    this.cancelSuggestButton.hidden = false;
    this.setStatus("waiting", "Waiting for a free worker…", this.suggestStatus);
    const seed = this.seed;
    // Each press asks for other variations; the same press on the same draft repeats itself.
    this.seed += 1;
    try {
      const variations = await studio.suggest(this.pack(), {
        seconds: SUGGEST_SECONDS,
        count: SUGGEST_COUNT,
        seed,
        signal: controller.signal,
        onStarted: () => this.setStatus("running", "Evolving…", this.suggestStatus),
        onProgress: (figures) =>
          this.setStatus(
            "running",
            `Evolving… ${figures.candidates ?? 0} tried, ${figures.solved ?? 0} solved, ` +
              `${Number(figures.seconds || 0).toFixed(0)} s`,
            this.suggestStatus,
          ),
      });
      this.showVariations(variations);
    } catch (error) {
      if (error?.code === "cancelled") this.setStatus("cancelled", "Cancelled.", this.suggestStatus);
      else this.setStatus("error", error?.message || "No variation could be made.", this.suggestStatus);
    } finally {
      this.suggestController = null;
      this.suggestButton.disabled = false;
      this.cancelSuggestButton.hidden = true;
    }
  }

  showVariations(variations) {
    if (!variations.length) {
      this.cards.hidden = true;
      this.setStatus("none", "No solvable variation turned up in time: try again.", this.suggestStatus);
      return;
    }
    const count = variations.length;
    this.setStatus(
      "suggested",
      `${count} variation${count === 1 ? "" : "s"}, deepest first. Using one can be undone.`,
      this.suggestStatus,
    );
    this.cards.hidden = false;
    this.cards.replaceChildren(...variations.map((variation) => this.card(variation)));
  }

  card(variation) {
    const summary = variationSummary(variation);
    return h(
      "article",
      { class: "variation-card", dataset: { tier: String(variation.tier) } },
      this.preview(variation.level),
      h(
        "div",
        { class: "variation-text" },
        h("strong", { class: "variation-title" }, summary.title),
        h("p", { class: "variation-facts" }, `${summary.size} · shortest ${summary.moves}`),
        h("span", { class: "depth-tier small", dataset: { tier: String(variation.tier) } }, summary.tier),
        h(
          "button",
          {
            class: "button small",
            type: "button",
            dataset: { action: "use-variation" },
            onclick: () => this.onUse(variation.level),
          },
          "Use this",
        ),
      ),
    );
  }

  preview(level) {
    const glyphs = this.glyphs();
    const rows = previewCells(level);
    return h(
      "div",
      {
        class: "variation-preview",
        "aria-hidden": "true",
        style: { "--preview-columns": String(level.width) },
      },
      rows.flat().map((cell) => {
        if (!cell) return h("span", { class: "preview-cell" });
        if (cell.kind === "word") return h("span", { class: "preview-cell word" }, cell.text.slice(0, 2));
        const glyph = glyphs[cell.text];
        const face = typeof glyph === "string" ? glyph : glyph?.glyph;
        return h("span", { class: "preview-cell object" }, face || cell.text.slice(0, 1));
      }),
    );
  }
}
