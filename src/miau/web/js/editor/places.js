// Showing where a loader problem is: a tile's place flags it on the grid;
// any other place opens the tab whose form holds it and rings its control.

const OBJECT_PLACE = /^levels\[0\]\.objects\[(\d+)\]/;

/** Where a loader `place` is shown: `{object: index}` on the grid, else `{tab}` ("parts" or "level"). */
export function placeTarget(place) {
  const object = OBJECT_PLACE.exec(place);
  if (object) return { object: Number(object[1]) };
  const key = place.replace(/^levels\[0\]\.?/, "");
  return { tab: /^(automata|pairs|properties)/.test(key) ? "parts" : "level" };
}

/**
 * The `onPlace(place)` of the check and save panels: flags a tile on `grid`,
 * or selects the tab (`selectTab`) and focuses the control in `forms`;
 * false when nothing shows the place.
 */
export function placeShower({ grid, forms, selectTab }) {
  return (place) => {
    const target = placeTarget(place);
    // A tile is on the board, which is always in view: the report stays open beside it.
    if (target.object !== undefined) return grid.flagIndex(target.object);
    selectTab(target.tab, { focus: false });
    return forms.focusPlace(place);
  };
}
