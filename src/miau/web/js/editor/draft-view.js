// Drawing the draft after each edit: the words it uses (its own and, when
// it asks for them, the Tier-1 words), then the grid, the palette (only
// when its words or things changed), the forms, the stored solution and the
// page around them.

import { CORE_PROPERTIES, Vocabulary } from "../words.js";
import { VOCABULARY_1, declaredWords, usesVocabulary1 } from "./draft.js";

/**
 * The words of a draft's `pack` and `level`: `vocabulary` (a words.js
 * Vocabulary), `declared` (its automata's and pairs' words), `builtIn` (the
 * Tier-1 words when the pack uses them and `builtInWords`, the server's
 * vocabularies, are known), and the keys that say when the grid (`boardKey`)
 * and the palette (`paletteKey`, `wordsKey`) must be drawn again.
 */
export function draftWords(pack, level, builtInWords) {
  const declared = declaredWords(level);
  // The Tier-1 words, when the draft uses them: drawn and offered like the game draws them.
  const tier1 = usesVocabulary1(pack) ? builtInWords?.[VOCABULARY_1] : null;
  const builtIn = tier1 ? [...tier1.operators, ...tier1.nouns, ...tier1.properties] : [];
  const vocabulary = new Vocabulary(
    {
      automata: level.automata || [],
      pairs: level.pairs || [],
      // The core six are properties in every level, as the game draws them; the Tier-1 ones when used.
      properties: [...CORE_PROPERTIES, ...(tier1?.properties || [])],
      operators: tier1 ? ["IS", "AND", ...tier1.operators] : undefined,
    },
    { glossary: { ...(tier1?.glossary || {}), ...(pack.properties || {}) } },
  );
  const wordsKey = JSON.stringify([
    builtIn,
    declared,
    Object.entries(pack.properties || {}).map(([word, entry]) => [word, entry.accent]),
  ]);
  const boardKey = `${wordsKey}|${JSON.stringify(pack.palette)}`;
  const wordNouns = JSON.stringify(
    level.objects
      .filter((entry) => entry.kind === "word")
      .map((entry) => entry.text)
      .sort(),
  );
  return { vocabulary, declared, builtIn, wordsKey, boardKey, paletteKey: `${boardKey}|${wordNouns}` };
}

/**
 * Draws `draft` into the editor's parts: `grid`, `palette`, `forms`,
 * `solvePanel` and `page` (EditorPage). `vocabulary` is the draft's
 * current Vocabulary; `builtInWords` the server's vocabularies once known.
 */
export class DraftView {
  constructor({ draft, grid, palette, forms, solvePanel, page }) {
    this.draft = draft;
    this.grid = grid;
    this.palette = palette;
    this.forms = forms;
    this.solvePanel = solvePanel;
    this.page = page;
    this.vocabulary = null;
    this.builtInWords = null;
    this.wordsKey = null;
    this.paletteKey = null;
  }

  /** Draws the draft as it is now. */
  render() {
    const pack = this.draft.pack;
    const level = this.draft.level;
    const words = draftWords(pack, level, this.builtInWords);
    this.vocabulary = words.vocabulary;
    this.grid.render(words.vocabulary, pack.palette, words.boardKey);
    if (words.paletteKey !== this.paletteKey || words.wordsKey !== this.wordsKey) {
      this.palette.render(pack, words.vocabulary, words.declared, words.builtIn);
      this.paletteKey = words.paletteKey;
      this.wordsKey = words.wordsKey;
    }
    this.forms.render();
    this.solvePanel.showStored(level.solution);
    this.page.showDraft(this.draft);
  }
}
