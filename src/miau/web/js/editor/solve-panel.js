// The solve panel: runs the solver on the server (studio port), shows its
// progress live (states expanded, depth, rate), cancels it, and shows the
// result: the shortest moves (replay them, store them as the solution),
// UNSOLVABLE, or LIMIT with the cap it hit.

import { h } from "../dom.js";
import * as studio from "../studio-port.js";
import { jobControls } from "./job-controls.js";

// The Cap menu bounds a solve and a check alike (the check panel's advice names it).
const CAPS = [
  ["", "level default"],
  ["10000", "10,000"],
  ["100000", "100,000"],
  ["300000", "300,000"],
  ["1000000", "1,000,000"],
  ["2000000", "2,000,000"],
];
const MOVE_FACES = { U: "↑", D: "↓", L: "←", R: "→", W: "·" };

const number = (value) => Math.round(Number(value) || 0).toLocaleString("en-US");

function stat(name, label) {
  const value = h("dd", { dataset: { stat: name } }, "–");
  return { value, node: h("div", {}, h("dt", {}, label), value) };
}

/**
 * The panel drawn into `root`. `pack()` gives the one-level pack to solve,
 * `onStore(moves)` stores a solution, `onReplay(moves)` animates it.
 */
export class SolvePanel {
  constructor(root, { pack, solution = () => null, onStore, onReplay }) {
    this.root = root;
    this.pack = pack;
    this.solution = solution;
    this.onStore = onStore;
    this.onReplay = onReplay;
    this.controller = null;
    this.result = null;
    this.cap = h(
      "select",
      { class: "input", name: "solve-cap", "aria-label": "Expansion cap" },
      CAPS.map(([value, label]) => h("option", { value }, label)),
    );
    Object.assign(
      this,
      jobControls({
        action: "solve",
        label: "Solve",
        idleText: "Finds a shortest solution on the server.",
        onStart: () => this.start(),
        onCancel: () => this.cancel(),
      }),
    );
    const stats = [
      stat("expanded", "States expanded"),
      stat("depth", "Depth"),
      stat("seen", "States seen"),
      stat("rate", "States a second"),
      stat("seconds", "Seconds"),
    ];
    this.stats = Object.fromEntries(stats.map((each) => [each.value.dataset.stat, each.value]));
    this.result = h("div", { class: "solve-result", hidden: true });
    root.append(
      h(
        "div",
        { class: "studio-actions" },
        this.startButton,
        this.cancelButton,
        h("label", { class: "cap-field" }, h("span", { class: "form-label" }, "Cap"), this.cap),
      ),
      this.status,
      h(
        "dl",
        { class: "studio-stats" },
        stats.map((each) => each.node),
      ),
      this.result,
    );
  }

  /**
   * The Cap chosen: `max` (null for the level's default), the option's
   * `label`, and every cap the menu offers, as numbers (for the check's advice).
   */
  capChoice() {
    return {
      max: this.cap.value ? Number(this.cap.value) : null,
      label: this.cap.selectedOptions[0]?.textContent || "level default",
      options: CAPS.filter(([value]) => value).map(([value]) => Number(value)),
    };
  }

  /** Whether a search is running. */
  get running() {
    return this.controller !== null;
  }

  /** Says on the store button whether the draft's stored solution is the one found. */
  showStored(solution) {
    if (!this.storeButton) return;
    const stored = Boolean(solution) && solution === this.solvedMoves;
    this.storeButton.textContent = stored ? "Stored as the solution" : "Store as solution";
    this.storeButton.dataset.stored = String(stored);
  }

  setStatus(status, text) {
    this.status.dataset.status = status;
    this.status.textContent = text;
    this.root.dataset.status = status;
  }

  showFigures(figures) {
    this.stats.expanded.textContent = number(figures.expanded);
    this.stats.depth.textContent = figures.depth == null ? "–" : number(figures.depth);
    this.stats.seen.textContent = number(figures.seen);
    this.stats.rate.textContent = figures.rate == null ? "–" : number(figures.rate);
    this.stats.seconds.textContent = Number(figures.seconds || 0).toFixed(1);
  }

  /** Starts the solver on the current draft (does nothing while one runs). */
  async start() {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    this.startButton.disabled = true;
    this.cancelButton.hidden = false;
    this.result.hidden = true;
    this.showFigures({ expanded: 0, seen: 0, seconds: 0 });
    this.setStatus("waiting", "Waiting for a free worker…");
    const max = this.cap.value ? Number(this.cap.value) : null;
    try {
      const result = await studio.solve(this.pack(), {
        max,
        signal: controller.signal,
        onStarted: () => this.setStatus("running", "Searching…"),
        onProgress: (figures) => {
          this.setStatus("running", "Searching…");
          this.showFigures(figures);
        },
      });
      this.showResult(result);
    } catch (error) {
      if (error?.code === "cancelled") this.setStatus("cancelled", "Cancelled: the worker is free again.");
      else this.setStatus("error", error?.message || "The solver could not run.");
    } finally {
      this.controller = null;
      this.startButton.disabled = false;
      this.cancelButton.hidden = true;
    }
  }

  /** Cancels the running search. */
  cancel() {
    if (!this.controller) return;
    this.setStatus("cancelling", "Cancelling…");
    this.controller.abort();
  }

  showResult(result) {
    this.showFigures({
      ...result,
      depth: result.length,
      rate: result.seconds > 0 ? result.expanded / result.seconds : null,
    });
    this.result.hidden = false;
    this.result.dataset.outcome = result.outcome;
    this.storeButton = null;
    if (result.outcome === "solved") {
      const moves = result.moves || "";
      this.solvedMoves = moves;
      this.setStatus("solved", `Solved in ${moves.length} move${moves.length === 1 ? "" : "s"}.`);
      this.result.replaceChildren(
        h(
          "p",
          { class: "outcome-line" },
          h("strong", { class: "outcome", dataset: { outcome: "solved" } }, "SOLVED"),
          ` shortest: ${moves.length} move${moves.length === 1 ? "" : "s"}`,
        ),
        h(
          "p",
          { class: "moves", "aria-label": `Moves: ${moves}`, dataset: { moves } },
          [...moves].map((letter) =>
            h("span", { class: "move", dataset: { move: letter } }, MOVE_FACES[letter] || letter),
          ),
        ),
        h("code", { class: "move-string" }, moves),
        h(
          "div",
          { class: "studio-actions" },
          h(
            "button",
            {
              class: "button",
              type: "button",
              dataset: { action: "replay" },
              onclick: () => this.onReplay(moves),
            },
            "Replay",
          ),
          (this.storeButton = h(
            "button",
            {
              class: "button",
              type: "button",
              dataset: { action: "store-solution" },
              onclick: () => this.onStore(moves),
            },
            "Store as solution",
          )),
        ),
      );
      this.showStored(this.solution());
    } else if (result.outcome === "unsolvable") {
      this.setStatus("unsolvable", "UNSOLVABLE: every reachable state was tried and none wins.");
      this.result.replaceChildren(
        h(
          "p",
          { class: "outcome-line" },
          h("strong", { class: "outcome", dataset: { outcome: "unsolvable" } }, "UNSOLVABLE"),
          ` after ${number(result.expanded)} states`,
        ),
      );
    } else {
      this.setStatus(
        "limit",
        `LIMIT: gave up after ${number(result.expanded)} states (cap ${number(result.limit)}).`,
      );
      this.result.replaceChildren(
        h(
          "p",
          { class: "outcome-line" },
          h("strong", { class: "outcome", dataset: { outcome: "limit" } }, "LIMIT"),
          ` the cap of ${number(result.limit)} states was reached; the level may or may not be solvable. Raise the cap to search further.`,
        ),
      );
    }
  }
}
