// The check panel: `miau check`'s report for the draft, run on the server,
// shown inline. Each loader problem links to the tile or the form field
// its place names (`levels[0].objects[5]` rings that tile,
// `levels[0].automata[0].pattern` focuses that pattern); then HANDS-OFF, the
// rules at the start, whether any YOU can move, and whether the stored
// solution wins.

import { h } from "../dom.js";
import * as studio from "../studio-port.js";
import { jobControls } from "./job-controls.js";

const number = (value) => Math.round(Number(value) || 0).toLocaleString("en-US");

/**
 * The panel drawn into `root`. `pack()` gives the one-level pack;
 * `onPlace(place)` shows what a problem's place names (and returns false
 * when nothing in the editor matches it).
 */
export class CheckPanel {
  constructor(root, { pack, onPlace }) {
    this.root = root;
    this.pack = pack;
    this.onPlace = onPlace;
    this.controller = null;
    Object.assign(
      this,
      jobControls({
        action: "check",
        label: "Check",
        idleText: "Runs miau check on the level: the loader, the start, the stored solution, the solver, HANDS-OFF.",
        onStart: () => this.start(),
        onCancel: () => this.controller?.abort(),
      }),
    );
    this.report = h("div", { class: "check-report", hidden: true });
    root.append(
      h("div", { class: "studio-actions" }, this.startButton, this.cancelButton),
      this.status,
      this.report,
    );
  }

  setStatus(status, text) {
    this.status.dataset.status = status;
    this.status.textContent = text;
    this.root.dataset.status = status;
  }

  /** Runs the check on the current draft. */
  async start() {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    this.startButton.disabled = true;
    this.cancelButton.hidden = false;
    this.setStatus("running", "Checking…");
    try {
      const report = await studio.check(this.pack(), { signal: controller.signal });
      this.show(report);
    } catch (error) {
      if (error?.code === "cancelled") this.setStatus("cancelled", "Cancelled.");
      else this.setStatus("error", error?.message || "The check could not run.");
    } finally {
      this.controller = null;
      this.startButton.disabled = false;
      this.cancelButton.hidden = true;
    }
  }

  problemItem(problem) {
    const place = problem.place || "";
    const link = place
      ? h(
          "button",
          {
            class: "place-link",
            type: "button",
            title: "Show it in the editor",
            dataset: { place },
            onclick: () => {
              if (!this.onPlace(place)) link.dataset.unmatched = "true";
            },
          },
          place,
        )
      : null;
    return h(
      "li",
      { class: "problem", dataset: { severity: problem.severity || "error" } },
      h("span", { class: "severity" }, problem.severity === "warning" ? "warning" : "error"),
      link,
      h("span", { class: "problem-message" }, problem.message),
    );
  }

  show(report) {
    const problems = report.problems || [];
    const level = report.level;
    const errors = problems.filter((problem) => problem.severity !== "warning");
    const parts = [];
    if (problems.length) {
      parts.push(
        h(
          "h3",
          {},
          `Loader: ${errors.length} error${errors.length === 1 ? "" : "s"}, ${problems.length - errors.length} warning${problems.length - errors.length === 1 ? "" : "s"}`,
        ),
        h(
          "ol",
          { class: "problem-list" },
          problems.map((problem) => this.problemItem(problem)),
        ),
      );
    } else {
      parts.push(
        h(
          "p",
          { class: "check-line", dataset: { check: "loader", ok: "true" } },
          "The pack loader accepts the level.",
        ),
      );
    }
    if (level) {
      const lines = checkLines(level).map(({ check, ok, mark, text, handsOff }) =>
        h(
          "li",
          { class: "check-line", dataset: { check, ok: String(ok) } },
          h("span", { class: "check-mark", "aria-hidden": "true" }, mark),
          handsOff
            ? h(
                "span",
                {},
                h("strong", { class: "outcome", dataset: { outcome: "hands-off" } }, "HANDS-OFF"),
                ` ${text}`,
              )
            : text,
        ),
      );
      parts.push(h("ul", { class: "check-lines" }, lines));
    }
    const failed = errors.length > 0 || Boolean(level?.failed);
    this.setStatus(failed ? "failed" : "passed", failed ? "The check found problems." : "The check passed.");
    this.report.hidden = false;
    this.report.replaceChildren(...parts);
  }
}

const START_REFUSED = "no YOU can move from the start";

/**
 * The lines of a level's check report, in order: `{check, ok, mark, text}`
 * (`handsOff` on the HANDS-OFF line). HANDS-OFF is only judged for a level
 * the solver solved (an unsolvable level is not "not HANDS-OFF"), and the
 * loader's "no YOU can move" warning is said once, on the start line.
 */
export function checkLines(level) {
  const plainLine = (check, ok, text) => ({ check, ok, mark: ok ? "✓" : "✗", text });
  const lines = [];
  lines.push(
    plainLine(
      "rules",
      level.rules.length > 0,
      level.rules.length ? `Rules at the start: ${level.rules.join(", ")}` : "No rule is active at the start.",
    ),
  );
  const refused = (level.warnings || []).find((message) => message.startsWith(START_REFUSED));
  lines.push(
    plainLine(
      "start-moves",
      Boolean(level.startMoves),
      level.startMoves
        ? `YOU can move from the start (${[...level.startMoves].join(" ")}).`
        : `${refused ? refused[0].toUpperCase() + refused.slice(1) : "No YOU can move from the start"}.`,
    ),
  );
  if (level.solution) {
    const solution = level.solution;
    const turns = `${solution.turns} move${solution.turns === 1 ? "" : "s"}`;
    lines.push(
      plainLine(
        "solution",
        solution.won,
        solution.won
          ? `The stored solution wins in ${turns}.`
          : `The stored solution does not win${solution.error ? `: ${solution.error}` : "."}`,
      ),
    );
  } else {
    lines.push(plainLine("solution", false, "No solution is stored (solve, then store one)."));
  }
  const solver = level.solver;
  if (solver) {
    const length = `${solver.length} move${solver.length === 1 ? "" : "s"}`;
    const text =
      solver.outcome === "solved"
        ? `Solver: solved in ${length} (${solver.moves}), ${number(solver.expanded)} states.`
        : solver.outcome === "unsolvable"
          ? `Solver: UNSOLVABLE after ${number(solver.expanded)} states.`
          : `Solver: LIMIT after ${number(solver.expanded)} states.`;
    lines.push(plainLine("solver", solver.outcome === "solved", text));
  }
  if (level.handsOff) {
    lines.push({
      check: "hands-off",
      ok: false,
      mark: "!",
      text: "the level can be won without pushing a word.",
      handsOff: true,
    });
  } else if (solver?.outcome === "solved") {
    lines.push(plainLine("hands-off", true, "Not HANDS-OFF: winning needs a word pushed."));
  }
  for (const message of level.errors || []) lines.push(plainLine("error", false, message));
  for (const message of level.warnings || []) {
    if (message !== refused) lines.push({ check: "warning", ok: false, mark: "!", text: message });
  }
  return lines;
}
