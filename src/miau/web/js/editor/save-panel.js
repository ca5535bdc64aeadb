// Save and share: put the draft's level into a pack of the player's library
// (an existing one, or a new one by name and id), link to that pack's
// export, and ask the server for the level's share link (the page cannot
// deflate and validate a pack itself). A save never replaces a level
// without asking, and the last few saves can be undone: each one keeps the
// pack as it was before (or that there was none).
//
// A new pack's id follows its name (until an id is typed) up to its first
// save; from then on the pack is in the library, where links and progress
// use its id, so renaming it there keeps the id (and the panel says why).
//
// A save checks the level first (the last Check of this very draft, or a
// quick check): a stored solution that no longer wins is said, and dropped
// or replaced by the author's last test-play win of the level; a level that
// cannot be won, or that no win is known for, is saved only when the author
// says so, and is marked in the library (level-marks.js).

import { choiceDialog, confirmDialog } from "../dialog.js";
import { h } from "../dom.js";
import { moreProblemsNote } from "../problems.js";
import { siteRequest } from "../engine-port-pyodide.js";
import { setLevelMark, levelMark, MARK_WORDS } from "../level-marks.js";
import { isStaticSite } from "../site.js";
import { isPackId, packIdFromName } from "./draft.js";

/** The states a save's quick check may search on each question (a second or two on the static site). */
export const QUICK_CHECK_STATES = 10_000;

const moveCount = (count) => `${count} move${count === 1 ? "" : "s"}`;

/**
 * What a save has to ask about, from a check's level report
 * (`LevelReport.to_json()`, null when the loader refused the level) and the
 * author's last test-play win of this very level (a move string, or null):
 * `stale`, the stored solution when it does not win; `standing`,
 * "winnable" (the stored solution, a search or the author's win shows a
 * win), "unsolvable" (the solver tried every state), "undecided" (a search
 * stopped at its cap first) or "unknown" (no level report).
 */
export function saveFindings(level, lastWin = null) {
  if (!level) return { stale: null, standing: "unknown" };
  const stale = level.solution && !level.solution.won ? level.solution : null;
  const shown = Boolean(level.solution?.won || level.solver?.outcome === "solved" || level.handsOff || lastWin);
  const standing = shown ? "winnable" : level.solver?.outcome === "unsolvable" ? "unsolvable" : "undecided";
  return { stale, standing };
}

const TARGET_KEY = "miau.editor.target";
const NEW_PACK = "__new__";
/** The new pack a first save suggests, filled in as real values. */
export const DEFAULT_PACK = Object.freeze({ id: "my-levels", name: "My levels" });
/** How many saves "Undo save" can take back, newest first. */
export const SAVE_UNDO_LIMIT = 5;

async function requestJson(method, path, body = undefined) {
  if (isStaticSite) {
    // The static site answers in the page (engine-port-pyodide.js).
    const answer = await siteRequest(method, path, body);
    return { ok: answer.status < 400, status: answer.status, body: answer.body || {} };
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, body: { error: "The game server cannot be reached." } };
  }
  let parsed = null;
  try {
    parsed = await response.json();
  } catch {
    parsed = null;
  }
  return { ok: response.ok, status: response.status, body: parsed || {} };
}

function problemList(problems, onPlace) {
  if (!problems?.length) return null;
  return h(
    "ol",
    { class: "problem-list" },
    problems.map((problem) =>
      h(
        "li",
        { class: "problem", dataset: { severity: problem.severity || "error" } },
        h("span", { class: "severity" }, problem.severity === "warning" ? "warning" : "error"),
        problem.place
          ? h(
              "button",
              {
                class: "place-link",
                type: "button",
                dataset: { place: problem.place },
                onclick: () => onPlace(problem.place),
              },
              problem.place,
            )
          : null,
        h("span", { class: "problem-message" }, problem.message),
      ),
    ),
  );
}

function rememberTarget(target) {
  try {
    localStorage.setItem(TARGET_KEY, JSON.stringify(target));
  } catch {
    // Only a convenience: the next visit asks again.
  }
}

function rememberedTarget() {
  try {
    return JSON.parse(localStorage.getItem(TARGET_KEY) || "null");
  } catch {
    return null;
  }
}

/** The level `levelId` of a pack file's text (its title), or null when the text has none. */
export function existingLevel(packText, levelId) {
  if (!packText) return null;
  try {
    const levels = JSON.parse(packText).levels;
    return (Array.isArray(levels) && levels.find((level) => level?.id === levelId)) || null;
  } catch {
    return null;
  }
}

/**
 * The panel drawn into `root`. `pack(manifest)` gives the one-level pack to
 * send (with the manifest fields given), `levelId()` the level's id,
 * `onPlace(place)` shows a problem's place, `onSaved(packId, levelId)` runs
 * after each save.
 */
export class SavePanel {
  constructor(
    root,
    {
      pack,
      levelId,
      onPlace,
      signal = undefined,
      onSaved = () => {},
      check = null,
      lastCheck = () => null,
      lastWin = () => null,
      setSolution = () => {},
    },
  ) {
    this.root = root;
    this.pack = pack;
    this.levelId = levelId;
    // The save's check: `check(pack, {max})` runs one (studio.check); `lastCheck()` is the Check
    // tab's last `{packJson, report}`; `lastWin()` the author's last test-play win of the draft
    // as it is now (a move string, or null); `setSolution(moves)` stores one (null drops it).
    this.check = check;
    this.lastCheck = lastCheck;
    this.lastWin = lastWin;
    this.setSolution = setSolution;
    this.onSaved = onSaved;
    this.onPlace = onPlace;
    this.signal = signal;
    this.library = [];
    /** The pack the author picked in this visit (null: the one saved into last time). */
    this.choice = null;
    /** Saves that can be undone, newest last: {packId, level, before} (before: the pack's text, or null). */
    this.undoable = [];
    this.select = h("select", { class: "input", name: "library-pack", dataset: { field: "library-pack" } });
    this.newId = h("input", {
      class: "input",
      name: "new-pack-id",
      maxlength: "64",
      autocomplete: "off",
      spellcheck: "false",
    });
    this.newName = h("input", {
      class: "input",
      name: "new-pack-name",
      maxlength: "80",
      autocomplete: "off",
    });
    this.newFields = h(
      "div",
      { class: "field-row new-pack" },
      h("label", { class: "field" }, h("span", { class: "form-label" }, "Pack name"), this.newName),
      h("label", { class: "field" }, h("span", { class: "form-label" }, "Pack id"), this.newId),
    );
    // A pack of the library: its name can change, its id cannot.
    this.packName = h("input", {
      class: "input",
      name: "pack-name",
      maxlength: "80",
      autocomplete: "off",
    });
    this.packFields = h(
      "div",
      { class: "field-row library-pack" },
      h("label", { class: "field" }, h("span", { class: "form-label" }, "Pack name"), this.packName),
    );
    this.idNote = h("p", { class: "form-note pack-id-note", hidden: true });
    this.saveStatus = h("div", { class: "save-status", role: "status" });
    this.shareStatus = h("div", { class: "share-status", role: "status" });
    this.select.addEventListener("change", () => {
      this.choice = this.select.value;
      this.syncPackFields();
    });
    // Real values, ready to save with (an author may change them): never grey examples.
    const remembered = rememberedTarget();
    this.newId.value = remembered?.id || DEFAULT_PACK.id;
    this.newName.value = remembered?.name || DEFAULT_PACK.name;
    this.followedName = this.newName.value;
    this.newName.addEventListener("input", () => this.nameTyped());
    this.packName.addEventListener("input", () => this.syncIdNote());
    root.append(
      h("h3", {}, "Save to your library"),
      h("label", { class: "field" }, h("span", { class: "form-label" }, "Library pack"), this.select),
      this.newFields,
      this.packFields,
      this.idNote,
      h(
        "div",
        { class: "studio-actions" },
        h(
          "button",
          {
            class: "button primary",
            type: "button",
            dataset: { action: "save-level" },
            onclick: () => this.save(),
          },
          "Save level",
        ),
      ),
      this.saveStatus,
      h("h3", {}, "Share as a link"),
      h(
        "p",
        { class: "form-note" },
        "The link carries the level itself; anyone with a running Miau can play it.",
      ),
      h(
        "div",
        { class: "studio-actions" },
        h(
          "button",
          { class: "button", type: "button", dataset: { action: "share" }, onclick: () => this.share() },
          "Make share link",
        ),
      ),
      this.shareStatus,
    );
    this.fillSelect();
  }

  /** Reloads the player's library packs into the select. */
  async refresh() {
    const reply = await requestJson("GET", "/api/library");
    this.library = reply.ok && Array.isArray(reply.body.packs) ? reply.body.packs : [];
    this.fillSelect();
  }

  fillSelect() {
    const previous = this.choice ?? rememberedTarget()?.id ?? "";
    this.select.replaceChildren(
      ...this.library.map((pack) => h("option", { value: pack.id }, `${pack.name} (${pack.id})`)),
      h("option", { value: NEW_PACK }, "New pack…"),
    );
    this.select.value = this.library.some((pack) => pack.id === previous)
      ? previous
      : this.library[0]?.id || NEW_PACK;
    this.syncPackFields();
  }

  /** The library pack chosen in the select, or null for a new pack. */
  chosenPack() {
    return this.select.value === NEW_PACK ? null : this.library.find((pack) => pack.id === this.select.value);
  }

  /** Shows the new pack's name and id, or the chosen library pack's name. */
  syncPackFields() {
    const chosen = this.chosenPack();
    this.newFields.hidden = Boolean(chosen);
    this.packFields.hidden = !chosen;
    if (chosen && (this.packName.dataset.pack !== chosen.id || this.packName.dataset.name !== chosen.name)) {
      // Another pack, or this one renamed (or its rename undone): the field starts from its name.
      this.packName.value = chosen.name;
      this.packName.dataset.pack = chosen.id;
      this.packName.dataset.name = chosen.name;
    }
    this.syncIdNote();
  }

  /** The new pack's id follows its name while it is the id the name before suggested (none typed). */
  nameTyped() {
    if (this.newId.value.trim() === packIdFromName(this.followedName)) {
      this.newId.value = packIdFromName(this.newName.value);
    }
    this.followedName = this.newName.value;
  }

  /** Says, while a library pack's name is being changed, that its id stays. */
  syncIdNote() {
    const chosen = this.chosenPack();
    const renaming = Boolean(chosen) && this.packName.value.trim() !== chosen.name;
    this.idNote.hidden = !renaming;
    this.idNote.textContent = renaming ? `Its id stays “${chosen.id}”: links to the pack use it.` : "";
  }

  /**
   * The pack a save goes into: `{id, name, version, renamedFrom}` (`renamedFrom`,
   * the library pack's name before the author changed it, else null).
   */
  target() {
    const chosen = this.chosenPack();
    if (chosen) {
      const name = this.packName.value.trim() || chosen.name;
      const renamedFrom = name !== chosen.name ? chosen.name : null;
      return { id: chosen.id, name, version: chosen.version || "1.0.0", renamedFrom };
    }
    const id = this.newId.value.trim();
    const name = this.newName.value.trim() || id;
    return { id, name, version: "1.0.0", renamedFrom: null };
  }

  /**
   * Gives the library pack `packId` the name `name` (its id stays): the
   * pack's file with the new name replaces it. Resolves with the server's
   * reply (its `body.pack`, the pack's summary).
   */
  async renamePack(packId, name) {
    const text = await this.storedPackText(packId);
    if (text === null) return { ok: false, status: 0, body: { error: "The pack could not be read back." } };
    const document = JSON.parse(text);
    document.manifest.name = name;
    return requestJson("POST", "/api/library", { text: `${JSON.stringify(document, null, 2)}\n`, replace: true });
  }

  /** The pack's file as the library holds it now, or null when it has none (or it cannot be read). */
  async storedPackText(packId) {
    if (!this.library.some((pack) => pack.id === packId)) return null;
    const path = `/api/library/${encodeURIComponent(packId)}/export`;
    try {
      if (isStaticSite) {
        // The static site keeps the library in the page; its answer carries the file's text.
        const answer = await siteRequest("GET", path);
        return answer.status === 200 ? answer.body.text : null;
      }
      const response = await fetch(path);
      return response.ok ? await response.text() : null;
    } catch {
      return null;
    }
  }

  /** Shows the save status: one line, then any further nodes. */
  status(state, line, ...more) {
    this.saveStatus.dataset.state = state;
    // Only real nodes: replaceChildren would print a null as the text "null".
    const parts = more.filter((part) => part !== null && part !== undefined);
    this.saveStatus.replaceChildren(h("p", {}, line), ...parts);
  }

  /** Saves the level into the chosen library pack; asks first when that would replace a level. */
  async save() {
    const target = this.target();
    if (!isPackId(target.id)) {
      this.status(
        "error",
        "A pack id is 2 to 64 characters: a lowercase letter, then lowercase letters, digits, ., _ or -.",
      );
      this.newId.focus();
      return;
    }
    const level = this.levelId();
    const honest = await this.checkBeforeSaving();
    if (!honest) return;
    const before = await this.storedPackText(target.id);
    const replaced = existingLevel(before, level);
    if (replaced) {
      const yes = await confirmDialog({
        title: `Replace “${replaced.title || level}”?`,
        text: `${target.name} already has a level with the id “${level}”. Saving replaces it with this one.`,
        details: "To keep both, cancel and give this level another id (Level tab).",
        confirm: "Replace",
        tone: "danger",
        signal: this.signal,
      });
      if (!yes) {
        this.status("cancelled", `Not saved: ${target.name} still has its own “${level}”.`);
        return;
      }
    }
    this.status("saving", "Saving…");
    const reply = await requestJson(
      "PUT",
      `/api/library/${encodeURIComponent(target.id)}/levels/${encodeURIComponent(level)}`,
      { pack: this.pack({ id: target.id, name: target.name, version: target.version }) },
    );
    if (!reply.ok) {
      this.status(
        "error",
        reply.body.error || `The server answered ${reply.status}.`,
        problemList(reply.body.problems, this.onPlace),
        moreProblemsNote(reply.body.moreProblems),
      );
      return;
    }
    this.onSaved(target.id, level);
    this.choice = target.id;
    const markBefore = levelMark(target.id, level);
    const mark = honest.standing === "unsolvable" || honest.standing === "undecided" ? honest.standing : null;
    setLevelMark(target.id, level, mark);
    this.undoable.push({ packId: target.id, level, before, markBefore });
    if (this.undoable.length > SAVE_UNDO_LIMIT) this.undoable.shift();
    let summary = reply.body.pack || target;
    const renameNotes = [];
    if (target.renamedFrom) {
      const renamed = await this.renamePack(target.id, target.name);
      if (renamed.ok) {
        summary = renamed.body.pack || { ...summary, name: target.name };
        renameNotes.push(`The pack is called ${target.name} now; its id stays “${target.id}”.`);
      } else {
        const why = renamed.body.error || `The server answered ${renamed.status}.`;
        renameNotes.push(`The pack is still called ${target.renamedFrom}: ${why}`);
      }
    }
    rememberTarget({ id: target.id, name: summary.name });
    const count = `${summary.levels ?? "?"} level${summary.levels === 1 ? "" : "s"}`;
    this.status(
      "saved",
      `${replaced ? "Replaced" : "Saved"} “${level}” in ${summary.name} (${count}).`,
      ...[...renameNotes, ...honest.notes].map((note) => h("p", { class: "save-note" }, note)),
      mark
        ? h(
            "p",
            { class: "save-note", dataset: { mark } },
            `Marked “${MARK_WORDS[mark].label}” in your library until a winnable version is saved.`,
          )
        : null,
      this.savedActions(summary),
    );
    this.saveStatus.dataset.pack = summary.id;
    this.saveStatus.dataset.mark = mark || "none";
    await this.refresh();
  }

  /**
   * The check a save starts with, and its questions. Resolves with
   * `{standing, notes}` (what the level is known to be, and sentences for
   * the saved status), or null when the author cancelled (the status says so).
   */
  async checkBeforeSaving() {
    const packJson = this.pack({});
    const last = this.lastCheck();
    let level;
    if (last?.report?.level && last.packJson === JSON.stringify(packJson)) {
      level = last.report.level; // the Check tab already checked this very draft
    } else if (this.check) {
      this.status("checking", "Checking the level before saving…");
      try {
        level = (await this.check(packJson, { max: QUICK_CHECK_STATES })).level;
      } catch (error) {
        const go = await confirmDialog({
          title: "Save without checking?",
          text: `The level could not be checked before saving: ${error?.message || "the check did not run"}`,
          details: "Saving now stores it unchecked: its stored solution may no longer win.",
          confirm: "Save unchecked",
          signal: this.signal,
        });
        if (!go) this.status("cancelled", "Not saved: the level could not be checked.");
        return go ? { standing: "unknown", notes: ["It was saved without a check."] } : null;
      }
    }
    const notes = [];
    let win = this.lastWin();
    let { stale, standing } = saveFindings(level, win);
    if (stale) {
      const outcome = stale.error
        ? `cannot be played: ${stale.error}`
        : `plays ${moveCount(stale.turns)} and does not win`;
      const choices = [];
      if (win) choices.push({ answer: "store-win", label: `Store my ${moveCount(win.length)} win and save` });
      choices.push({ answer: "drop", label: "Drop it and save", tone: win ? "ghost" : "primary" });
      const answer = await choiceDialog({
        title: "The stored solution no longer wins",
        text: `The level changed since its solution (${moveCount(stale.moves.length)}) was stored: on the level as it is now, it ${outcome}.`,
        details: win
          ? `Your last test-play win of this level took ${moveCount(win.length)}: store it as the solution instead, or drop the old one.`
          : "Drop it to save the level without a solution (Solve can find one), or cancel and win it in test-play first.",
        choices,
        signal: this.signal,
      });
      if (!answer) {
        this.status("cancelled", "Not saved: the stored solution no longer wins.");
        return null;
      }
      if (answer === "store-win") {
        this.setSolution(win);
        notes.push(`Your test-play win (${moveCount(win.length)}) is its stored solution now.`);
      } else {
        this.setSolution(null);
        win = null;
        notes.push("The stored solution no longer won, so it was dropped.");
        ({ standing } = saveFindings({ ...level, solution: null }, this.lastWin()));
      }
    }
    if (standing === "unsolvable" || standing === "undecided") {
      const states = Number(level.solver?.limit || 0).toLocaleString("en-US");
      const fromCheck = last?.report?.level === level ? "The last Check" : "A quick check";
      const yes = await confirmDialog({
        title: standing === "unsolvable" ? "Save a level that cannot be won?" : "Save a level nobody has won yet?",
        text:
          standing === "unsolvable"
            ? `${fromCheck} proved it: the solver tried all ${Number(level.solver?.expanded || 0).toLocaleString("en-US")} reachable states and none wins.`
            : `No win is known: ${fromCheck.toLowerCase()} stopped at its cap of ${states} states before it found a win or proved there is none, and it has no winning solution stored.`,
        details:
          `It will be marked “${MARK_WORDS[standing].label}” in your library. ` +
          (standing === "unsolvable"
            ? "Cancel to fix it first."
            : "Win it in test-play, or Check with a higher Cap (Solve tab), to settle it first."),
        confirm: "Save anyway",
        signal: this.signal,
      });
      if (!yes) {
        this.status(
          "cancelled",
          standing === "unsolvable" ? "Not saved: the level cannot be won." : "Not saved: no win is known for the level yet.",
        );
        return null;
      }
    }
    return { standing, notes };
  }

  savedActions(summary) {
    return h(
      "div",
      { class: "studio-actions" },
      this.undoButton(),
      h(
        "a",
        {
          class: "button small",
          href: `/api/library/${encodeURIComponent(summary.id)}/export`,
          download: `${summary.id}.json`,
          dataset: { action: "export" },
        },
        "Export pack (JSON)",
      ),
      h(
        "a",
        { class: "button ghost small", href: `#/world/${encodeURIComponent(summary.id)}` },
        "Open in world select",
      ),
    );
  }

  undoButton() {
    if (!this.undoable.length) return null;
    return h(
      "button",
      { class: "button small", type: "button", dataset: { action: "undo-save" }, onclick: () => this.undoSave() },
      "Undo save",
    );
  }

  /** Takes back the newest save: the pack goes back to what it was (or away, if the save made it). */
  async undoSave() {
    const last = this.undoable.pop();
    if (!last) return;
    this.status("saving", "Undoing the save…");
    const reply =
      last.before === null
        ? await requestJson("DELETE", `/api/library/${encodeURIComponent(last.packId)}`)
        : await requestJson("POST", "/api/library", { text: last.before, replace: true });
    if (!reply.ok) {
      this.undoable.push(last);
      this.status("error", reply.body.error || `The server answered ${reply.status}.`, this.undoButton());
      return;
    }
    setLevelMark(last.packId, last.level, last.before === null ? null : last.markBefore);
    await this.refresh();
    this.status(
      "undone",
      last.before === null
        ? `Save undone: the pack ${last.packId} is gone again.`
        : `Save undone: ${last.packId} is back as it was before “${last.level}” was saved.`,
      h("div", { class: "studio-actions" }, this.undoButton()),
    );
  }

  /** Asks the server for the level's share link and shows it with a Copy button. */
  async share() {
    this.shareStatus.dataset.state = "working";
    this.shareStatus.replaceChildren(h("p", {}, "Encoding…"));
    const reply = await requestJson("POST", "/api/shared/encode", { pack: this.pack({}) });
    if (!reply.ok) {
      this.shareStatus.dataset.state = "error";
      this.shareStatus.replaceChildren(
        ...[
          h("p", {}, reply.body.error || `The server answered ${reply.status}.`),
          problemList(reply.body.problems, this.onPlace),
          moreProblemsNote(reply.body.moreProblems),
        ].filter(Boolean),
      );
      return;
    }
    const link = reply.body.link;
    const output = h("input", {
      class: "input share-link",
      readonly: true,
      name: "share-link",
      "aria-label": "Share link",
      value: link,
    });
    const copy = h(
      "button",
      {
        class: "button small",
        type: "button",
        dataset: { action: "copy-link" },
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            copy.textContent = "Copied";
          } catch {
            output.select();
            copy.textContent = "Press Ctrl+C";
          }
        },
      },
      "Copy",
    );
    this.shareStatus.dataset.state = "ready";
    this.shareStatus.replaceChildren(
      h("div", { class: "share-row" }, output, copy),
      h(
        "p",
        { class: "form-note" },
        `${link.length} characters. `,
        h("a", { href: link, target: "_blank", rel: "noopener" }, "Open it"),
      ),
    );
    output.addEventListener("focus", () => output.select());
  }
}
