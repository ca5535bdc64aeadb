// Editing and test-playing: the switch between the grid and the test-play
// view, which plays the draft as it is when the switch is made.

/**
 * Switches `page` (EditorPage) between editing and `testPlay` (TestPlay).
 * `game()` gives what test-play needs now: `{pack, vocabulary, palette,
 * stored}` (`stored`: the library level the draft is, unchanged, or null);
 * `draft` ends its stroke first; `onEdit()` runs once editing is back
 * (redraw, focus the grid, say so).
 */
export class EditorModes {
  constructor({ page, testPlay, draft, game, onEdit }) {
    this.page = page;
    this.testPlay = testPlay;
    this.draft = draft;
    this.game = game;
    this.onEdit = onEdit;
  }

  /** Test-plays the draft (again, when already playing); with `replay` (a move string) it plays itself. */
  enterPlay({ replay = null } = {}) {
    if (this.page.playing) this.testPlay.stop();
    this.draft.endStroke();
    this.page.showPlay(true);
    const { pack, vocabulary, palette, stored = null } = this.game();
    this.testPlay.start(pack, vocabulary, palette, { replay, stored });
  }

  /** Back to editing (nothing happens while editing). */
  exitPlay() {
    if (!this.page.playing) return;
    this.testPlay.stop();
    this.page.showPlay(false);
    this.onEdit();
  }

  /** Test-play on or off. */
  toggle() {
    if (this.page.playing) this.exitPlay();
    else this.enterPlay();
  }
}
