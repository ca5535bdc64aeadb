// A pack's problems as the loader reports them, each with its place: the
// library's import report and a refused shared link show them alike.

import { h } from "./dom.js";

const SEVERITY = {
  error: { mark: "✕", label: "Error" },
  warning: { mark: "⚠", label: "Warning" },
};

/**
 * An ordered list of `problems` (`{place, message, severity}`), in the order
 * given (the document's). The place is monospace; the severity is a word and
 * a mark, not only a colour.
 */
export function problemList(problems) {
  return h(
    "ol",
    { class: "problem-list" },
    problems.map((problem) => {
      const severity = SEVERITY[problem.severity] || SEVERITY.error;
      return h(
        "li",
        {
          class: "problem",
          dataset: {
            severity: problem.severity === "warning" ? "warning" : "error",
            place: problem.place || "",
          },
        },
        h(
          "span",
          { class: "problem-severity" },
          h("span", { "aria-hidden": "true" }, severity.mark),
          ` ${severity.label}`,
        ),
        h("code", { class: "problem-place" }, problem.place || "the whole file"),
        h("span", { class: "problem-message" }, problem.message),
      );
    }),
  );
}

/**
 * The line under a refusal's list when the server listed only its first
 * problems: `moreProblems` counts the rest (absent, or 0, when none was left
 * out). Null when there is nothing to say.
 */
export function moreProblemsNote(more) {
  if (!(Number.isInteger(more) && more > 0)) return null;
  return h(
    "p",
    { class: "message-more", dataset: { more: String(more) } },
    `… and ${more.toLocaleString("en")} more ${more === 1 ? "problem" : "problems"}, not listed.`,
  );
}
