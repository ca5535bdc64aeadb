// How a word's text fits its board tile: always on one line, never broken
// inside the word ("MI AU" reads as two words). The text is as large as the
// tile allows up to TEXT_CAP of it; a long word shrinks to fit the tile's
// width, and below the smallest legible size it keeps that size and is
// drawn narrower instead (as a condensed face would be), down to
// MIN_SQUEEZE. A tile too small even for that is never chosen: the board
// is drawn larger and pans (board.js). The widths are the word's own, as
// the tile font draws it (measured in the page, in em), so MIAU and WATER
// each get exactly the room they need.

/** The word's text height as a share of the tile, at most (short words: IS, YOU). */
export const TEXT_CAP = 0.34;

/** The share of the tile's width a word's text takes when the tile has room (clear of its edge). */
export const TEXT_FIT = 0.72;

/** The share it may take at the smallest legible size, on a small tile (a thinner margin). */
export const TEXT_FIT_TIGHT = 0.8;

/** The narrowest a word's text is drawn, as a share of its natural width. */
export const MIN_SQUEEZE = 0.64;

/**
 * The font size (px) and horizontal squeeze (1 = none) of a word whose text
 * is `advance` em wide, on a tile of `tile` px, never under `minText` px
 * when the tile has room for it (TEXT_CAP of the tile).
 */
export function wordFit(advance, tile, minText) {
  const width = Math.max(advance, 0.5);
  const natural = tile * Math.min(TEXT_CAP, TEXT_FIT / width);
  if (natural >= minText) return { size: natural, squeeze: 1 };
  const size = Math.min(minText, tile * TEXT_CAP);
  const squeeze = Math.min(1, (tile * TEXT_FIT_TIGHT) / (size * width));
  return { size, squeeze };
}

/**
 * The smallest whole-px tile on which a word `advance` em wide is drawn at
 * `minText` px or more and squeezed no further than MIN_SQUEEZE.
 */
export function tileForWord(advance, minText) {
  const width = Math.max(advance, 0.5);
  return Math.ceil(Math.max(minText / TEXT_CAP, (minText * width * MIN_SQUEEZE) / TEXT_FIT_TIGHT));
}
