// puz playground: the level painter (the Paint tab). Loaded after app.js, whose state
// (`S`), helpers (`$`, `el`, `drawSymbol`, `boardRoom`) and editor it uses. A level is
// painted cell by cell with the file's legend symbols, drawn as the board draws them;
// "Add as new level" appends a `level "NAME" """ ... """` block to the text and "Replace
// level" rewrites the text block of the level it was loaded from. Either edit goes
// through the editor (one undoable change, checked like any other), and the painted
// level becomes the one played and solved.
"use strict";

/** The painter's state. */
const P = {
  grid: null,       // rows of symbols (strings), every row as long as the first
  symbol: null,     // the symbol painted, a key entry's `symbol`
  form: "chars",    // how the level's rows are written: "chars" or "ints"
  from: null,       // { index, name, text } of the level loaded, for Replace
  painting: false,  // a mouse button is down over the canvas
  last: null,       // the cell painted last while dragging, [r, c]
  dirty: false,     // painted since it was loaded or written into the text
};

/** The largest level the painter makes, in rows and in columns. */
const PAINT_MAX = 64;

/** The key entry of a symbol, from the level shown. */
function paintKey(sym) {
  return ((S.info && S.info.key) || []).find((k) => k.symbol === sym);
}

/** The symbol new cells get: the first that lays a tile with no piece or mark. */
function paintBlank() {
  const key = (S.info && S.info.key) || [];
  const bare = key.find((k) => !(k.pieces || []).length && !(k.marks || []).length);
  return (bare || key[0] || { symbol: "." }).symbol;
}

/** Loads the level shown in Play into the painter (its rows as written). */
function paintLoad() {
  const info = S.info;
  if (!info || !info.source) {
    paintStatus("Open a level of a .puz file first: the painter paints with its legend.", "blocked");
    return false;
  }
  const src = info.source;
  P.form = src.form || "chars";
  const split = (row) => (P.form === "ints" ? row.trim().split(/\s+/).filter(Boolean) : Array.from(row));
  const rows = src.rows.map(split);
  const width = Math.max(1, ...rows.map((r) => r.length));
  const blank = paintBlank();
  P.grid = rows.map((r) => r.concat(Array(width - r.length).fill(blank)));
  if (!P.grid.length) P.grid = [[blank]];
  P.from = { index: info._index, name: info.name, text: S.infoText };
  if (!paintKey(P.symbol)) P.symbol = blank;
  $("#paint-name").value = paintFreeName(`${info.name} (painted)`);
  paintStatus(`Painting a copy of level "${info.name}".`, "");
  paintPalette();
  paintRender();
  return true;
}

/** `base`, or `base 2`, `base 3`, ...: a name no level of the file has. */
function paintFreeName(base) {
  const taken = new Set((S.levels || []).map((l) => l.name));
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base} ${n}`)) n++;
  return `${base} ${n}`;
}

/** The palette: one button per legend symbol, drawn as on the board. */
function paintPalette() {
  const ul = $("#paint-palette");
  ul.textContent = "";
  for (const k of (S.info && S.info.key) || []) {
    const c = el("canvas", { width: "28", height: "28" });
    drawSymbol(c.getContext("2d"), k, 0, 0, 28);
    const sym = k.symbol === " " ? "\u2423" : k.symbol === "\t" ? "\u21e5" : k.symbol;
    const b = el("button", { type: "button", class: "paint-symbol", "data-symbol": k.symbol, title: `${JSON.stringify(k.symbol)}: ${k.text}` },
      c, el("span", { class: "sym", text: sym }), el("span", { class: "small", text: k.text }));
    b.classList.toggle("selected", k.symbol === P.symbol);
    b.addEventListener("click", () => paintPick(k.symbol));
    ul.append(b);
  }
}

function paintPick(sym) {
  P.symbol = sym;
  for (const b of document.querySelectorAll("#paint-palette .paint-symbol")) {
    b.classList.toggle("selected", b.dataset.symbol === sym);
  }
}

/** Draws the painted grid, each cell as its symbol looks, scaled like the play board. */
function paintRender() {
  const canvas = $("#paint-board");
  if (!canvas || !P.grid) return;
  const rows = P.grid.length, cols = P.grid[0].length;
  const room = boardRoom();
  const cell = Math.max(CELL_MIN + 6, Math.min(CELL_MAX, Math.floor(Math.min(room.maxW / cols, room.maxH / rows))));
  const W = cols * cell, H = rows * cell;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = W * dpr;
  canvas.height = H * dpr;
  canvas.style.width = W + "px";
  canvas.style.height = H + "px";
  canvas._cell = cell;
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.imageSmoothingEnabled = false;
  g.clearRect(0, 0, W, H);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const sym = P.grid[r][c];
      const k = paintKey(sym);
      if (k) drawSymbol(g, k, c * cell, r * cell, cell);
      else {
        g.fillStyle = "#fdd";
        g.fillRect(c * cell, r * cell, cell, cell);
        g.fillStyle = "#900";
        g.textAlign = "center";
        g.textBaseline = "middle";
        g.fillText(sym, c * cell + cell / 2, r * cell + cell / 2);
      }
    }
  }
  g.strokeStyle = "rgba(0,0,0,.12)";
  g.lineWidth = 1;
  for (let r = 0; r <= rows; r++) { g.beginPath(); g.moveTo(0, r * cell + .5); g.lineTo(W, r * cell + .5); g.stroke(); }
  for (let c = 0; c <= cols; c++) { g.beginPath(); g.moveTo(c * cell + .5, 0); g.lineTo(c * cell + .5, H); g.stroke(); }
  $("#paint-size").textContent = `${rows} x ${cols}`;
  canvas.dataset.rows = paintRows().join("\n");
}

/** The cell under a mouse event, or null. */
function paintCellAt(ev) {
  const canvas = $("#paint-board");
  const rect = canvas.getBoundingClientRect();
  const cell = canvas._cell || 1;
  const r = Math.floor((ev.clientY - rect.top) / cell), c = Math.floor((ev.clientX - rect.left) / cell);
  if (!P.grid || r < 0 || c < 0 || r >= P.grid.length || c >= P.grid[0].length) return null;
  return [r, c];
}

/** Paints the cells from the last one painted to `at`, so a quick drag leaves no gaps. */
function paintTo(at) {
  if (!at || P.symbol == null) return;
  const from = P.last || at;
  const n = Math.max(Math.abs(at[0] - from[0]), Math.abs(at[1] - from[1]));
  for (let i = 0; i <= n; i++) {
    const r = Math.round(from[0] + ((at[0] - from[0]) * i) / Math.max(n, 1));
    const c = Math.round(from[1] + ((at[1] - from[1]) * i) / Math.max(n, 1));
    P.grid[r][c] = P.symbol;
  }
  P.last = at;
  paintRender();
}

/** Adds or removes a row (at the bottom) or a column (at the right). */
function paintResize(dr, dc) {
  if (!P.grid && !paintLoad()) return;
  const rows = P.grid.length, cols = P.grid[0].length;
  const blank = paintBlank();
  if (dr > 0 && rows < PAINT_MAX) P.grid.push(Array(cols).fill(blank));
  if (dr < 0 && rows > 1) P.grid.pop();
  if (dc > 0 && cols < PAINT_MAX) for (const row of P.grid) row.push(blank);
  if (dc < 0 && cols > 1) for (const row of P.grid) row.pop();
  paintRender();
}

/** The grid as level rows: characters side by side, or integers aligned in columns. */
function paintRows() {
  if (P.form !== "ints") return P.grid.map((r) => r.join(""));
  const w = Math.max(1, ...P.grid.flat().map((s) => s.length));
  return P.grid.map((r) => r.map((s) => s.padStart(w)).join(" "));
}

/** The grid as a text block, indented under a declaration indented by `indent`. */
function paintBlock(indent) {
  const pad = indent + "  ";
  return `"""\n${paintRows().map((r) => pad + r).join("\n")}\n${pad}"""`;
}

/** A string literal of the language: `"` and `\` escaped. */
function paintString(s) {
  return `"${s.replace(/[\\"]/g, (c) => "\\" + c)}"`;
}

/**
 * Writes the painted level into the text as one undoable edit: a new level at the end
 * (`replace` false) or over the text block of the level it was loaded from. The level
 * then becomes the one played once the check of the new text lists it.
 */
function paintCommit(replace) {
  if (!P.grid) return;
  if (S.lang === "ps") { paintStatus("The painter paints .puz levels.", "blocked"); return; }
  const text = editor.getText();
  const view = editor.view;
  let from, to, insert, index;
  if (replace) {
    const src = S.info && S.info.source;
    if (!P.from || !src || S.infoText !== text || S.info._index !== P.from.index) {
      paintStatus("The text changed since this level was loaded: load it again, or add it as a new level.", "blocked");
      return;
    }
    from = src.span.start;
    to = src.span.end;
    const lineStart = text.lastIndexOf("\n", from - 1) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart, from))[0];
    insert = paintBlock(indent);
    index = P.from.index;
  } else {
    const name = $("#paint-name").value.trim() || paintFreeName("painted");
    const form = P.form === "ints" ? " ints" : "";
    from = to = text.length;
    insert = `${text.endsWith("\n") || !text ? "" : "\n"}\nlevel ${paintString(name)}${form} ${paintBlock("")}\n`;
    index = (S.levels || []).length;
  }
  view.dispatch({ changes: { from, to, insert } });
  const want = editor.getText();
  paintStatus(replace ? `Replaced level "${P.from.name}"; checking...` : "Added the level; checking...", "");
  paintFollow(want, index, replace);
}

/** Waits for the check of `want`, then plays level `index` (or says why it cannot). */
function paintFollow(want, index, replaced) {
  const t0 = performance.now();
  const poll = () => {
    if (editor.getText() !== want) return;
    if (S.checkedText === want && S.check) {
      if (!rulesLoad(S.check) || !S.levels || S.levels.length <= index) {
        paintStatus("The new text has errors: see the diagnostics.", "blocked");
        return;
      }
      const lv = S.levels[index];
      if (!lv.ok) {
        paintStatus(`Level "${lv.name}" does not load: see the diagnostics.`, "blocked");
        return;
      }
      S.levelIndex = -1;
      selectLevel(index);
      P.from = { index, name: lv.name, text: want };
      P.dirty = false;
      paintStatus(`${replaced ? "Replaced" : "Added"} level "${lv.name}": it is the level played now.`, "ok");
      showTab("play");
      $("#board").focus();
      return;
    }
    if (performance.now() - t0 < 15000) setTimeout(poll, 40);
  };
  setTimeout(poll, 40);
}

function paintStatus(text, cls) {
  const st = $("#paint-status");
  st.textContent = text;
  st.className = `small ${cls || ""}`;
}

/** Opening the tab loads the level played, unless the grid is already about it. */
function paintOpen() {
  if (S.lang === "ps") {
    paintStatus("The painter paints .puz levels; a PuzzleScript game's levels are edited in the text.", "blocked");
    return;
  }
  if (!P.grid || !P.from || P.from.text !== S.infoText || !S.info || P.from.index !== S.info._index) {
    if (!P.grid || !P.dirty) paintLoad();
  }
  paintPalette();
  paintRender();
}

function wirePainter() {
  const canvas = $("#paint-board");
  canvas.addEventListener("mousedown", (ev) => {
    ev.preventDefault();
    P.painting = true;
    P.last = null;
    P.dirty = true;
    paintTo(paintCellAt(ev));
  });
  canvas.addEventListener("mousemove", (ev) => {
    const at = paintCellAt(ev);
    const k = at && paintKey(P.grid[at[0]][at[1]]);
    $("#paint-hover").textContent = at ? `(${at[0]},${at[1]}) ${k ? k.text : P.grid[at[0]][at[1]]}` : "\u00a0";
    if (P.painting) paintTo(at);
  });
  window.addEventListener("mouseup", () => { P.painting = false; P.last = null; });
  $("#tab-paint").addEventListener("click", paintOpen);
  $("#paint-load").addEventListener("click", () => { P.dirty = false; paintLoad(); });
  $("#paint-add").addEventListener("click", () => paintCommit(false));
  $("#paint-replace").addEventListener("click", () => paintCommit(true));
  $("#paint-rows-add").addEventListener("click", () => paintResize(1, 0));
  $("#paint-rows-remove").addEventListener("click", () => paintResize(-1, 0));
  $("#paint-cols-add").addEventListener("click", () => paintResize(0, 1));
  $("#paint-cols-remove").addEventListener("click", () => paintResize(0, -1));
  $("#paint-fill").addEventListener("click", () => {
    if (!P.grid || P.symbol == null) return;
    P.grid = P.grid.map((r) => r.map(() => P.symbol));
    P.dirty = true;
    paintRender();
  });
}

wirePainter();
