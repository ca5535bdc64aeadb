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

  /**
   * Test-plays the draft (again, when already playing); with `replay` (a move
   * string) it plays itself. `pack` plays another one-level pack instead (a
   * suggested variation, watched before it is used); its wins count nowhere.
   */
  enterPlay({ replay = null, pack = null } = {}) {
    if (this.page.playing) this.testPlay.stop();
    this.draft.endStroke();
    this.page.showPlay(true);
    const game = this.game();
    const stored = pack ? null : (game.stored ?? null);
    this.testPlay.start(pack || game.pack, game.vocabulary, game.palette, { replay, stored });
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
