// The library: import a pack (choose a file, drop one, or paste its JSON),
// see every problem of a pack that does not load with its place, and the
// packs imported so far with Play, Export and Remove.

import * as api from "../api.js";
import { confirmDialog } from "../dialog.js";
import { h, keyLabel } from "../dom.js";
import { moreProblemsNote, problemList } from "../problems.js";
import { progressPanel } from "../progress-panel.js";
import { isStaticSite } from "../site.js";
import { exportLink, onEscape, removeButton, removeLibraryPack } from "./common.js";

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** Draws the library scene into `root`. */
export async function mount(root, _params, { navigate, signal }) {
  document.title = "Library · Miau";
  root.className = "scene menu-scene library-scene";
  const back = h(
    "button",
    { class: "button ghost", type: "button", onclick: () => navigate("/worlds") },
    keyLabel("Worlds", "Esc"),
  );

  const fileInput = h("input", {
    class: "visually-hidden",
    id: "pack-file",
    type: "file",
    accept: ".json,application/json",
  });
  const chooseButton = h(
    "label",
    { class: "button", for: "pack-file", tabindex: "0", role: "button" },
    "Choose a file…",
  );
  const dropZone = h(
    "div",
    { class: "drop-zone", dataset: { dragging: "false" } },
    h("span", { class: "drop-glyph", "aria-hidden": "true" }, "📦"),
    h(
      "div",
      { class: "drop-words" },
      h("p", { class: "drop-title" }, "Drop a pack file here"),
      h("p", { class: "drop-text" }, "A Miau pack is one .json file, at most 1 MiB."),
    ),
    fileInput,
    chooseButton,
  );
  const pasteArea = h("textarea", {
    class: "paste-area",
    id: "pack-text",
    rows: "5",
    spellcheck: "false",
    placeholder: '{ "manifest": { "id": "my-pack", … }, "levels": [ … ] }',
  });
  const importButton = h(
    "button",
    { class: "button primary", type: "button", dataset: { action: "import" } },
    "Import",
  );
  const report = h("section", { class: "import-report", "aria-live": "polite", hidden: true });
  const list = h("ul", { class: "library-list", role: "list" });
  const listSummary = h("p", { class: "scene-summary" });

  root.append(
    h(
      "header",
      { class: "scene-head" },
      back,
      h(
        "div",
        { class: "scene-titles" },
        h("h1", {}, "Library"),
        h(
          "p",
          { class: "scene-summary" },
          "Packs you import play beside the shipped worlds, with your progress.",
        ),
      ),
      h(
        "a",
        { class: "button ghost head-link", href: "#/edit" },
        h("span", { "aria-hidden": "true" }, "✎"),
        " Editor",
      ),
    ),
    h(
      "main",
      { class: "scene-body library-body" },
      h(
        "section",
        { class: "panel import-panel", "aria-labelledby": "import-heading" },
        h("h2", { id: "import-heading" }, "Import a pack"),
        dropZone,
        h("label", { class: "field-label", for: "pack-text" }, "Or paste the pack's JSON"),
        pasteArea,
        h("div", { class: "import-actions" }, importButton),
      ),
      report,
      h(
        "section",
        { class: "panel library-panel", "aria-labelledby": "library-heading" },
        h("h2", { id: "library-heading" }, "Your packs"),
        listSummary,
        list,
      ),
    ),
  );
  if (isStaticSite) root.querySelector(".library-body").append(progressPanel());
  onEscape(() => navigate("/worlds"), signal);

  let busy = false;

  async function refresh(highlight = null) {
    let packs;
    try {
      packs = await api.listLibrary();
    } catch (error) {
      if (signal.aborted) return;
      listSummary.textContent = error.message;
      list.replaceChildren();
      return;
    }
    if (signal.aborted) return;
    listSummary.textContent = packs.length
      ? `${plural(packs.length, "pack")} · ${plural(
          packs.reduce((sum, pack) => sum + pack.levels, 0),
          "level",
        )}`
      : "Nothing imported yet. Import a pack file, or make a level in the editor.";
    list.replaceChildren(...packs.map((pack) => packCard(pack, pack.id === highlight)));
  }

  function packCard(pack, fresh) {
    const remove = removeButton(() => removePack(pack));
    return h(
      "li",
      { class: `card pack-card${fresh ? " is-fresh" : ""}`, dataset: { pack: pack.id } },
      h(
        "div",
        { class: "pack-head" },
        h("span", { class: "pack-name" }, pack.name),
        h("span", { class: "pack-version" }, `v${pack.version}`),
      ),
      h(
        "span",
        { class: "pack-meta" },
        h("code", {}, pack.id),
        ` · ${plural(pack.levels, "level")}`,
        pack.author ? ` · by ${pack.author}` : "",
      ),
      pack.description ? h("span", { class: "pack-description" }, pack.description) : null,
      h(
        "div",
        { class: "pack-actions" },
        h(
          "a",
          {
            class: "button primary",
            href: `#/world/${encodeURIComponent(pack.id)}`,
            dataset: { action: "play" },
          },
          "Play",
        ),
        exportLink(pack.id),
        remove,
      ),
    );
  }

  async function removePack(pack) {
    const text = `Version ${pack.version}, ${plural(pack.levels, "level")}, leaves your library and world select.`;
    if ((await removeLibraryPack(pack, text, signal)) !== "kept") await refresh();
  }


  function showReport(kind, heading, lines = [], extra = null, more = 0) {
    report.hidden = false;
    report.dataset.outcome = kind;
    report.setAttribute("role", kind === "failed" ? "alert" : "status");
    // replaceChildren would print a null as the text "null": only real nodes go in.
    const parts = [
      h("h3", { class: "report-heading" }, heading),
      extra,
      lines.length ? problemList(lines) : null,
      moreProblemsNote(more),
    ];
    report.replaceChildren(...parts.filter((part) => part !== null && part !== undefined));
    report.scrollIntoView({ block: "nearest" });
  }

  async function importText(text, source, { replace = false } = {}) {
    if (busy) return;
    if (!text.trim()) {
      const advice = "Choose a file, drop one here, or paste a pack's JSON.";
      showReport("failed", "There is nothing to import", [], h("p", { class: "report-text" }, advice));
      return;
    }
    busy = true;
    importButton.disabled = true;
    root.dataset.importing = "true";
    try {
      const done = await api.importPack(text, { replace });
      if (signal.aborted) return;
      const warnings = done.warnings || [];
      const summary = done.pack;
      showReport(
        warnings.length ? "warnings" : "imported",
        `${done.replaced ? "Replaced" : "Imported"} “${summary.name}” version ${summary.version}` +
          (warnings.length ? `, with ${plural(warnings.length, "warning")}` : ""),
        warnings,
        h(
          "p",
          { class: "report-text" },
          `${plural(summary.levels, "level")} from ${source}. `,
          h("a", { href: `#/world/${encodeURIComponent(summary.id)}` }, "Play it now"),
          warnings.length ? ". The pack loads, but look at these:" : ".",
        ),
      );
      if (source === "the pasted text") pasteArea.value = "";
      await refresh(summary.id);
    } catch (error) {
      if (signal.aborted) return;
      const body = error.body || {};
      if (error.status === 409 && body.code === "exists") {
        busy = false;
        const newer = Boolean(body.newer);
        const again = await confirmDialog({
          title: "Replace a pack in your library?",
          text: error.message,
          details: newer
            ? `Version ${body.incoming?.version} is newer than yours.`
            : `Version ${body.incoming?.version} is not newer than yours (${body.existing?.version}).`,
          confirm: "Replace",
          cancel: "Keep mine",
          signal,
        });
        if (again && !signal.aborted) {
          await importText(text, source, { replace: true });
        } else if (!signal.aborted) {
          const kept = h("p", { class: "report-text" }, "Your library keeps the version it had.");
          showReport("kept", "Nothing changed", [], kept);
        }
        return;
      }
      const problems = body.problems || [];
      // The server lists the first problems of a refusal and counts the rest.
      const more = Number.isInteger(body.moreProblems) ? body.moreProblems : 0;
      const errors = problems.filter((problem) => problem.severity !== "warning").length;
      const warnings = problems.length - errors;
      const split =
        warnings && !more ? ` (${plural(errors, "error")}, ${plural(warnings, "warning")})` : "";
      const heading = problems.length
        ? `Not imported: ${plural(problems.length + more, "problem")}${split}`
        : "Not imported";
      const advice = problems.length
        ? `Nothing was imported from ${source}. Fix these in the file, then import it again.`
        : error.message;
      showReport("failed", heading, problems, h("p", { class: "report-text" }, advice), more);
    } finally {
      busy = false;
      importButton.disabled = false;
      root.dataset.importing = "false";
    }
  }

  async function importFile(file) {
    if (!file) return;
    let text;
    try {
      text = await file.text();
    } catch {
      showReport("failed", "That file could not be read", []);
      return;
    }
    await importText(text, file.name);
  }

  fileInput.addEventListener("change", () => {
    const file = fileInput.files?.[0];
    fileInput.value = "";
    importFile(file);
  });
  chooseButton.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      fileInput.click();
    }
  });
  importButton.addEventListener("click", () => importText(pasteArea.value, "the pasted text"));
  pasteArea.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      importText(pasteArea.value, "the pasted text");
    }
  });
  for (const name of ["dragenter", "dragover"]) {
    dropZone.addEventListener(name, (event) => {
      event.preventDefault();
      dropZone.dataset.dragging = "true";
    });
  }
  for (const name of ["dragleave", "drop"]) {
    dropZone.addEventListener(name, () => {
      dropZone.dataset.dragging = "false";
    });
  }
  dropZone.addEventListener("drop", (event) => {
    event.preventDefault();
    importFile(event.dataTransfer?.files?.[0]);
  });
  // A file dropped beside the zone would make the browser leave the game to show it.
  window.addEventListener("dragover", (event) => event.preventDefault(), { signal });
  window.addEventListener("drop", (event) => event.preventDefault(), { signal });

  root.dataset.ready = "false";
  await refresh();
  root.dataset.ready = "true";
}
