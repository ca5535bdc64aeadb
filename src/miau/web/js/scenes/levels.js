// Level select: a grid of level cards marked with tier, completion (best
// moves) and locks (with what unlocks them). A library world also offers
// Export and Remove, and an Edit entry on each level.

import * as api from "../api.js";
import { arrowFocus, h, keyLabel } from "../dom.js";
import { toast } from "../toast.js";
import { errorCard, exportLink, loadingCard, onEscape, removeButton, removeLibraryPack } from "./common.js";
import { isOwnPack } from "../own-packs.js";
import { MARK_WORDS, levelMark } from "../level-marks.js";

const TIERS = {
  required: { mark: "●", label: "Required" },
  optional: { mark: "◆", label: "Optional" },
  challenge: { mark: "★", label: "Challenge" },
};

/** Draws the level select scene of world `pack` into `root`. */
export async function mount(root, { pack }, { navigate, signal }) {
  root.className = "scene menu-scene levels-scene";
  const back = h(
    "button",
    { class: "button ghost", type: "button", onclick: () => navigate("/worlds") },
    keyLabel("Worlds", "Esc"),
  );
  const heading = h("h1", {}, "Levels");
  const summary = h("p", { class: "scene-summary" });
  const grid = h("ul", { class: "card-grid level-grid", role: "list" });
  const tools = h("div", { class: "head-tools" });
  root.append(
    h("header", { class: "scene-head" }, back, h("div", { class: "scene-titles" }, heading, summary), tools),
    h("main", { class: "scene-body" }, grid),
  );
  onEscape(() => navigate("/worlds"), signal);
  grid.append(loadingCard());
  let world;
  try {
    world = await api.world(pack);
  } catch (error) {
    if (!signal.aborted) grid.replaceChildren(errorCard(error, () => navigate(`/world/${pack}`)));
    return;
  }
  if (signal.aborted) return;
  document.title = `${world.name} · Miau`;
  heading.textContent = world.name;
  const required = world.levels.filter((level) => level.tier === "required");
  const wonRequired = required.filter((level) => level.won).length;
  const solved = `${wonRequired} of ${required.length} required level${required.length === 1 ? "" : "s"} solved`;
  summary.textContent = world.description ? `${world.description} · ${solved}` : solved;
  // The author's own pack locks nothing for them (own-packs.js).
  const own = world.imported && isOwnPack(pack);
  const levels = own ? world.levels.map((level) => ({ ...level, locked: false })) : world.levels;
  grid.replaceChildren(...levels.map((level, index) => levelCard(pack, level, index, world.imported)));
  if (world.imported) tools.replaceChildren(...libraryTools(world, { navigate, signal }));
  arrowFocus(grid, ".level-card", signal);
  // Back from editing one of these levels: that level has the focus, not the first one.
  const edited = editedLevel(pack);
  const next =
    world.levels.find((level) => level.id === edited) ||
    world.levels.find((level) => !level.locked && !level.won) ||
    world.levels[0];
  grid.querySelector(`[data-level="${CSS.escape(next?.id ?? "")}"]`)?.focus();
}

function libraryTools(world, { navigate, signal }) {
  const remove = removeButton(async () => {
    const count = world.levels.length;
    const text = `Its ${count} level${count === 1 ? "" : "s"} leave your library and world select.`;
    if ((await removeLibraryPack(world, text, signal)) === "removed") navigate("/worlds");
  });
  return [exportLink(world.id, "button ghost"), remove];
}

function levelCard(pack, level, index, editable = false) {
  const tier = TIERS[level.tier] || TIERS.required;
  const status = level.locked
    ? h("span", { class: "level-status locked" }, "🔒 ", level.unlockedBy || "Locked")
    : level.won
      ? h(
          "span",
          { class: "level-status won" },
          "✓ Solved",
          level.bestMoves != null ? ` · best ${level.bestMoves} moves` : "",
        )
      : h("span", { class: "level-status open" }, "Not solved yet");
  const body = [
    h("span", { class: "level-number", "aria-hidden": "true" }, String(index + 1).padStart(2, "0")),
    h(
      "span",
      { class: "tier-badge", dataset: { tier: level.tier } },
      h("span", { "aria-hidden": "true" }, tier.mark),
      ` ${tier.label}`,
    ),
    h("span", { class: "level-title" }, level.title),
    status,
  ];
  // A library level saved while it could not be shown winnable says so on its card.
  const mark = editable ? levelMark(pack, level.id) : null;
  if (mark) {
    body.push(
      h(
        "span",
        { class: "level-mark", dataset: { mark }, title: MARK_WORDS[mark].title },
        h("span", { "aria-hidden": "true" }, mark === "unsolvable" ? "⚠ " : "? "),
        MARK_WORDS[mark].label,
      ),
    );
  }
  const dataset = {
    level: level.id,
    tier: level.tier,
    won: String(Boolean(level.won)),
    locked: String(Boolean(level.locked)),
    mark: mark || "none",
  };
  // A link may not hold another: the Edit entry sits beside the card, over its corner.
  const edit = editable
    ? h(
        "a",
        {
          class: "button ghost small edit-level",
          href: `#/edit/${encodeURIComponent(pack)}/${encodeURIComponent(level.id)}`,
          "aria-label": `Edit “${level.title}”`,
          dataset: { action: "edit", level: level.id },
        },
        h("span", { "aria-hidden": "true" }, "✎"),
        " Edit",
      )
    : null;
  if (level.locked) {
    return h(
      "li",
      { class: "level-item" },
      h(
        "div",
        {
          class: `card level-card is-locked${editable ? " has-edit" : ""}`,
          tabindex: "0",
          "aria-disabled": "true",
          // A locked card answers a click or Enter with what opens it.
          onclick: (event) => sayLocked(event.currentTarget, level.unlockedBy),
          onkeydown: (event) => {
            if (event.key === "Enter" || event.key === " ") {
              event.preventDefault();
              sayLocked(event.currentTarget, level.unlockedBy);
            }
          },
          dataset,
        },
        body,
      ),
      edit,
    );
  }
  return h(
    "li",
    { class: "level-item" },
    h(
      "a",
      {
        class: `card level-card${level.won ? " is-won" : ""}${editable ? " has-edit" : ""}`,
        href: `#/play/${encodeURIComponent(pack)}/${encodeURIComponent(level.id)}`,
        dataset,
      },
      body,
    ),
    edit,
  );
}

function sayLocked(card, unlockedBy) {
  toast(`🔒 Locked: ${unlockedBy || "it opens later"}.`, { tone: "info", duration: 3500 });
  card.animate(
    [{ translate: "0" }, { translate: "-6px" }, { translate: "6px" }, { translate: "-3px" }, { translate: "0" }],
    { duration: 260, easing: "ease-out" },
  );
}

/** The level of `pack` the editor was last opened on in this tab, or null. */
function editedLevel(pack) {
  try {
    const from = JSON.parse(sessionStorage.getItem("miau.editor.from") || "null");
    return from?.pack === pack ? from.level : null;
  } catch {
    return null;
  }
}
