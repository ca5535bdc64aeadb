// The check panel: `miau check`'s report for the draft, run on the server
// (or in the page on the static site), shown inline. It ends in one of three
// verdicts, said in words: passed (every check ✓), problems (the failing
// checks first) or undecided (a search stopped at its cap: the level may or
// may not be winnable; the advice names the Solve tab's Cap menu, which
// bounds the check too, and what raising it costs). Each loader problem
// links to the tile or the form field its place names (`levels[0].objects[5]`
// rings that tile, `levels[0].automata[0].pattern` focuses that pattern).

import { h } from "../dom.js";
import * as studio from "../studio-port.js";
import { jobControls } from "./job-controls.js";

const number = (value) => Math.round(Number(value) || 0).toLocaleString("en-US");
const plural = (count, noun) => `${number(count)} ${noun}${count === 1 ? "" : "s"}`;

/** How long a studio job may run, on the server and in the page, in seconds. */
export const JOB_SECONDS = 120;

/** The marks of a check line, by its status: a pass, a failure, an open question, a note. */
const MARKS = { ok: "✓", fail: "✗", undecided: "?", note: "!" };
/** The order of the check lines: what failed first, then what is undecided, then the passes. */
const RANK = { fail: 0, undecided: 1, ok: 2, note: 3 };

/**
 * The panel drawn into `root`. `pack()` gives the one-level pack;
 * `cap()` the Solve tab's Cap (`{max, label, options}`: `max` null for the
 * level's default); `onPlace(place)` shows what a problem's place names
 * (and returns false when nothing in the editor matches it).
 */
export class CheckPanel {
  constructor(root, { pack, cap = () => ({ max: null, label: "level default", options: [] }), onPlace }) {
    this.root = root;
    this.pack = pack;
    this.cap = cap;
    this.onPlace = onPlace;
    this.controller = null;
    /** The last finished check: `{packJson, report, verdict}` (Save reuses it for the same draft). */
    this.last = null;
    Object.assign(
      this,
      jobControls({
        action: "check",
        label: "Check",
        idleText:
          "Runs miau check on the level: the loader, the start, the stored solution, the solver " +
          "(under the Solve tab's Cap), HANDS-OFF.",
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

  /** Runs the check on the current draft; the previous result goes at once. */
  async start() {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    this.startButton.disabled = true;
    this.cancelButton.hidden = false;
    // A result left on screen under "Checking…" reads as the answer: it goes now.
    this.report.hidden = true;
    this.report.replaceChildren();
    delete this.root.dataset.verdict;
    const cap = this.cap();
    const packJson = this.pack();
    const checking = `Checking, with the solver capped at ${cap.max ? `${number(cap.max)} states` : `the ${cap.label}`}…`;
    this.setStatus("running", checking);
    const started = performance.now();
    try {
      const report = await studio.check(packJson, {
        max: cap.max,
        signal: controller.signal,
        onProgress: (figures) => this.setStatus("running", `${checking} ${plural(figures.expanded, "state")} so far.`),
      });
      this.show(report, { seconds: (performance.now() - started) / 1000, cap });
      this.last = { packJson: JSON.stringify(packJson), report, verdict: this.root.dataset.verdict };
    } catch (error) {
      if (error?.code === "cancelled") this.setStatus("cancelled", "Cancelled: nothing was decided.");
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

  /** Draws a report: its verdict in words, then the failing checks, the rest, and the notes. */
  show(report, { seconds = null, cap = null } = {}) {
    const problems = report.problems || [];
    const level = report.level;
    const errors = problems.filter((problem) => problem.severity !== "warning");
    const warnings = problems.filter((problem) => problem.severity === "warning");
    const lines = level ? checkLines(level) : [];
    const verdict = checkVerdict(report, lines);
    if (level && verdict === "problems" && !errors.length && !lines.some((line) => line.status === "fail")) {
      // The server's verdict is the stricter one: never a "problems" without the failing line.
      lines.unshift({ check: "verdict", status: "fail", ok: false, mark: MARKS.fail, text: "miau check found a problem with this level." });
    }
    const sorted = [...lines].sort((a, b) => RANK[a.status] - RANK[b.status]);
    const checks = sorted.filter((line) => line.status !== "note");
    const notes = sorted.filter((line) => line.status === "note");
    const failing = errors.length + checks.filter((line) => line.status === "fail").length;
    const parts = [];
    if (verdict === "undecided") parts.push(undecidedAdvice(level, { seconds, cap }));
    if (errors.length) {
      parts.push(
        h("h3", {}, `The pack loader refuses the level: ${plural(errors.length, "error")}`),
        h("ol", { class: "problem-list" }, errors.map((problem) => this.problemItem(problem))),
      );
    } else {
      parts.push(
        h(
          "p",
          { class: "check-line", dataset: { check: "loader", ok: "true", status: "ok" } },
          h("span", { class: "check-mark", "aria-hidden": "true" }, MARKS.ok),
          "The pack loader accepts the level.",
        ),
      );
    }
    if (checks.length) parts.push(h("ul", { class: "check-lines" }, checks.map(lineItem)));
    if (notes.length || warnings.length) {
      parts.push(
        h("h3", {}, "Notes"),
        notes.length ? h("ul", { class: "check-lines check-notes" }, notes.map(lineItem)) : null,
        warnings.length
          ? h("ol", { class: "problem-list" }, warnings.map((problem) => this.problemItem(problem)))
          : null,
      );
    }
    const noteCount = notes.length + warnings.length;
    const noted = noteCount ? ` ${noteCount === 1 ? "One note follows" : `${plural(noteCount, "note")} follow`}.` : "";
    const text = {
      passed: `Passed: every check is ✓.${noted}`,
      problems: `Problems: ${failing === 1 ? "1 check failed; it is" : `${number(failing)} checks failed; they are`} listed first.`,
      undecided: `Undecided: ${undecidedWords(level).why}`,
    }[verdict];
    this.setStatus(verdict, text);
    this.root.dataset.verdict = verdict;
    this.report.dataset.verdict = verdict;
    this.report.hidden = false;
    this.report.replaceChildren(...parts.filter(Boolean));
  }
}

function lineItem({ check, ok, status, mark, text, handsOff }) {
  return h(
    "li",
    { class: "check-line", dataset: { check, ok: String(ok), status } },
    h("span", { class: "check-mark", "aria-hidden": "true" }, mark),
    h("span", { class: "visually-hidden" }, { ok: "Passed: ", fail: "Failed: ", undecided: "Undecided: ", note: "Note: " }[status]),
    handsOff
      ? h(
          "span",
          {},
          h("strong", { class: "outcome", dataset: { outcome: "hands-off" } }, "HANDS-OFF"),
          ` ${text}`,
        )
      : h("span", {}, text),
  );
}

/** Whether the stored solution or a search has shown a win (`level.winnable` before the server sent it). */
function winnableByLines(level) {
  if (!level) return false;
  return Boolean(level.solution?.won || level.solver?.outcome === "solved" || level.handsOff);
}

/**
 * The verdict of a check report: `problems` when the loader refused the level
 * or any check line failed, `undecided` when a line is undecided (a search
 * stopped at its cap), else `passed`; the server's own verdict (`level.verdict`)
 * can only make it stricter. So a ✗ line never shows under "passed".
 */
export function checkVerdict(report, lines = report.level ? checkLines(report.level) : []) {
  const level = report.level;
  const errors = (report.problems || []).filter((problem) => problem.severity !== "warning");
  const order = ["passed", "undecided", "problems"];
  let verdict = "passed";
  if (!level || errors.length || lines.some((line) => line.status === "fail")) verdict = "problems";
  else if (lines.some((line) => line.status === "undecided")) verdict = "undecided";
  if (level?.verdict && order.indexOf(level.verdict) > order.indexOf(verdict)) verdict = level.verdict;
  return verdict;
}

/** A duration for people: "under a second", "about 40 seconds", "about 3 minutes". */
export function aboutDuration(seconds) {
  if (seconds < 1) return "under a second";
  if (seconds < 90) return `about ${plural(Math.max(1, Math.round(seconds)), "second")}`;
  return `about ${plural(Math.round(seconds / 60), "minute")}`;
}

/** Bytes for people: "about 109 MB", "about 2.2 GB". */
function aboutBytes(bytes) {
  if (bytes >= 1e9) return `about ${(bytes / 1e9).toFixed(1)} GB`;
  return `about ${number(Math.max(1, Math.round(bytes / 1e6)))} MB`;
}

/**
 * What an undecided check says, `{why, raise, costs}`: why it stopped (one
 * sentence, for the status line), the control that raises the cap (the Solve
 * tab's Cap menu, by its label), and what each higher cap would cost,
 * scaled from this check's own time and memory (a search's cost grows about
 * in step with the states it may expand).
 */
export function undecidedWords(level, { seconds = null, cap = null } = {}) {
  const solver = level?.solver;
  const handsOff = level?.handsOffSearch;
  const stopped = solver?.outcome === "limit" ? solver : handsOff;
  const limit = Number(stopped?.limit) || 0;
  const why =
    solver?.outcome === "limit"
      ? winnableByLines(level)
        ? `the level can be won (${level.solution?.won ? "the stored solution wins" : "a win without pushing a word was found"}), but the search for the shortest solution stopped at its cap of ${number(limit)} states.`
        : `the solver stopped at its cap of ${number(limit)} states before it found a win or proved there is none, so the level may or may not be winnable.`
      : `the level can be won, but the search for a win without pushing a word (HANDS-OFF) stopped at its cap of ${number(limit)} states.`;
  // This check's cost: both searches, as the solver timed them (the page's wait adds a little).
  const sameSearch = handsOff && solver && JSON.stringify(handsOff) === JSON.stringify(solver);
  const searchSeconds = Number(solver?.seconds || 0) + (handsOff && !sameSearch ? Number(handsOff.seconds || 0) : 0);
  const spent = seconds != null ? Math.max(seconds, searchSeconds) : searchSeconds;
  const memory = Math.max(Number(solver?.memory || 0), Number(handsOff?.memory || 0));
  const options = (cap?.options || []).filter((value) => value > limit);
  const now = cap?.max ? number(cap.max) : `${cap?.label || "level default"}, ${number(limit)} states`;
  const top = options[options.length - 1];
  const costs = [...new Set([options[0], top])].filter(Boolean).map((states) => {
    const scale = limit > 0 ? states / limit : 1;
    const time = spent * scale;
    const bytes = memory * scale;
    const highest = states === top ? " (the highest)" : "";
    const over = time > JOB_SECONDS ? `: past the ${JOB_SECONDS / 60} minutes a check may run, so it would be stopped` : "";
    return `${number(states)} states${highest}: ${aboutDuration(time)}${bytes >= 1e6 ? ` and ${aboutBytes(bytes)} of memory` : ""}${over}.`;
  });
  const raise = options.length
    ? `To search further, raise Cap in the Solve tab (now ${now}) and check again. This check took ${aboutDuration(spent)}; a higher cap takes longer:`
    : "The Solve tab's Cap is already at its highest. Make the level smaller, or give it fewer loose words and things to push, so there are fewer states to search.";
  return { why, raise, costs };
}

/** The undecided check's advice (`undecidedWords`): the control that raises the cap, and its cost. */
function undecidedAdvice(level, options) {
  const { raise, costs } = undecidedWords(level, options);
  return h(
    "div",
    { class: "check-advice", dataset: { advice: "raise-cap" } },
    h("p", {}, raise),
    costs.length ? h("ul", { class: "cap-costs" }, costs.map((cost) => h("li", {}, cost))) : null,
  );
}

const START_REFUSED = "no YOU can move from the start";
/** The solver's own LIMIT warning names the command line's options; the panel gives its advice instead. */
const SOLVER_GAVE_UP = "the solver gave up after";

/**
 * The lines of a level's check report, in the report's order:
 * `{check, status, ok, mark, text}` (`handsOff` on the HANDS-OFF line).
 * `status` is `ok` (✓), `fail` (✗), `undecided` (?, a search stopped at its
 * cap) or `note` (!, worth knowing, not a failure: no solution stored yet,
 * a HANDS-OFF level, a loader warning). HANDS-OFF is only judged for a level
 * the solver solved (an unsolvable level is not "not HANDS-OFF"), and the
 * loader's "no YOU can move" warning is said once, on the start line.
 */
export function checkLines(level) {
  const line = (check, status, text, extra = {}) => ({ check, status, ok: status === "ok", mark: MARKS[status], text, ...extra });
  const lines = [];
  const winnable = winnableByLines(level);
  lines.push(
    line(
      "rules",
      level.rules.length > 0 ? "ok" : "fail",
      level.rules.length ? `Rules at the start: ${level.rules.join(", ")}` : "No rule is active at the start.",
    ),
  );
  const refused = (level.warnings || []).find((message) => message.startsWith(START_REFUSED));
  lines.push(
    line(
      "start-moves",
      level.startMoves ? "ok" : winnable ? "note" : "fail",
      level.startMoves
        ? `YOU can move from the start (${[...level.startMoves].join(" ")}).`
        : `${refused ? refused[0].toUpperCase() + refused.slice(1) : "No YOU can move from the start"}.`,
    ),
  );
  if (level.solution) {
    const solution = level.solution;
    const turns = plural(solution.turns, "move");
    lines.push(
      line(
        "solution",
        solution.won ? "ok" : "fail",
        solution.won
          ? `The stored solution wins in ${turns}.`
          : `The stored solution does not win${solution.error ? `: ${solution.error}` : "."}`,
      ),
    );
  } else {
    lines.push(line("solution", "note", "No solution is stored yet: Solve, then Store as solution."));
  }
  const solver = level.solver;
  if (solver) {
    const length = plural(solver.length, "move");
    if (solver.outcome === "solved") {
      lines.push(line("solver", "ok", `Solver: solved in ${length} (${solver.moves}), ${plural(solver.expanded, "state")}.`));
    } else if (solver.outcome === "unsolvable") {
      lines.push(line("solver", "fail", `Solver: UNSOLVABLE: all ${plural(solver.expanded, "reachable state")} tried, none wins.`));
    } else {
      lines.push(
        line("solver", "undecided", `Solver: LIMIT: stopped at its cap of ${number(solver.limit)} states, with no answer.`),
      );
    }
  }
  if (level.handsOff) {
    lines.push(line("hands-off", "note", "the level can be won without pushing a word.", { handsOff: true }));
  } else if (solver?.outcome === "solved") {
    if (level.handsOffSearch?.outcome === "limit") {
      lines.push(
        line("hands-off", "undecided", `HANDS-OFF undecided: the search without pushing words stopped at its cap of ${number(level.handsOffSearch.limit)} states.`),
      );
    } else {
      lines.push(line("hands-off", "ok", "Not HANDS-OFF: winning needs a word pushed."));
    }
  }
  for (const message of level.errors || []) lines.push(line("error", "fail", message));
  for (const message of level.warnings || []) {
    if (message !== refused && !message.startsWith(SOLVER_GAVE_UP)) lines.push(line("warning", "note", message));
  }
  return lines;
}
