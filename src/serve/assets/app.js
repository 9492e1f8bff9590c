// puz playground: the page behind `puz serve`. Plain JavaScript, no build step and no
// external resources; it talks only to the JSON API of the server that serves it. The code
// editor is CodeMirror 6, bundled by scripts/build-editor into editor.js (`PuzEditor`).
"use strict";

const $ = (sel) => document.querySelector(sel);

/** Everything the page knows, in one place. */
const S = {
  file: null,          // path of the open file, relative to the served root
  savedText: null,     // the text as last loaded or saved
  version: null,       // the file's version on disk as last loaded or saved (see PUT /api/file)
  check: null,         // the last /api/check answer for the current text
  checkedText: null,   // the text that answer is about
  diags: [],           // diagnostics shown (spans shifted while typing)
  validText: null,     // the last text whose rules loaded
  levelIndex: 0,
  info: null,          // the /api/level answer for the level shown
  infoText: null,      // the text that answer was built from
  history: [],         // actions played, as ActionRef
  game: null,          // the last /api/play (or level) answer: board, goal, cost, legal
  selectedMove: null,  // index into info.moves, or null: any move
  selectedCell: null,  // [r, c] of a clicked piece, sent with arrow moves
  blockedSpan: null,   // [start, end] of the rule that stopped the last move
  activeDiag: -1,
  tests: {},           // level index -> its rows of the last test run
  levels: null,        // the levels of the last text whose rules loaded
  lang: "puz",         // "puz" or "ps" (a PuzzleScript game), from the last check that loaded
  ps: null,            // a PuzzleScript entry being played (see psLoad)
  gen: 0,              // bumped when the file or level changes: late job results are dropped
};

// ---------------------------------------------------------------- HTTP helpers

/** An API failure, carrying the server's error object. */
class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(err.message || `HTTP ${status}`);
    this.status = status;
    this.code = err.code || "http";
    this.body = err;
  }
}

async function api(method, path, body, signal) {
  // A page without a server (puz export --html) answers in the browser: see local.js.
  if (window.puzLocal) return window.puzLocal.api(method, path, body, signal);
  const opts = { method, headers: {}, signal };
  if (body !== undefined) {
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data = null;
  try {
    data = await res.json();
  } catch (_) {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c != null) e.append(c);
  return e;
}

function fmtNum(n) {
  return typeof n === "number" ? n.toLocaleString("en-US") : String(n);
}

function fmtCost(vec, names) {
  if (!vec || !vec.length) return "0";
  if (!names || !names.length) return vec.join(", ");
  return vec.map((v, i) => `${v} ${names[i] || ""}`.trim()).join(", ");
}

// ---------------------------------------------------------------- files

async function loadFiles() {
  const sel = $("#file-select");
  try {
    const data = await api("GET", "/api/files");
    sel.textContent = "";
    for (const f of data.files) sel.append(el("option", { value: f.path, text: f.path }));
    const wanted = new URLSearchParams(location.search).get("file");
    const first = [wanted, data.initial, data.files[0] && data.files[0].path]
      .find((p) => p && data.files.some((f) => f.path === p));
    if (first) {
      sel.value = first;
      await openFile(first);
    } else {
      setStatus("No .puz file in the served directory.", "blocked");
    }
  } catch (e) {
    setStatus(`Could not list files: ${e.message}`, "blocked");
  }
}

async function openFile(path) {
  const data = await api("GET", "/api/file?path=" + encodeURIComponent(path));
  showText(data.path, data.text, data.version);
  await runCheck();
}

/** Shows `text` as the file `path` (at `version` on disk): everything about the last file goes. */
function showText(path, text, version) {
  S.file = path;
  S.savedText = text;
  S.version = version;
  S.levelIndex = 0;
  S.history = [];
  S.tests = {};
  S.info = null;
  S.game = null;
  S.ps = null;
  S.validText = null;
  S.levels = null;
  S.check = null;
  S.selectedCell = null;
  S.selectedMove = null;
  S.blockedSpan = null;
  const sel = $("#file-select");
  if (![...sel.options].some((o) => o.value === path)) sel.append(el("option", { value: path, text: path }));
  sel.value = path;
  editor.setLanguage(path.endsWith(".txt") ? "ps" : "puz");
  editor.setText(text);
  prevText = text;
  S.diags = [];
  clearResults();
  $("#save-status").textContent = "";
  $("#conflict-actions").hidden = true;
  renderMarks();
  updateDirty();
}

/**
 * Clears everything shown about a level: the board, the status, the answer and its
 * animation, the analysis and (with the file) the test badges. Called when the file or
 * the level changes, so an old answer never stays under another puzzle.
 */
function clearResults(withTests = true) {
  S.gen++;
  cancelJob(solveJob);
  cancelJob(analyzeJob);
  if (withTests) {
    cancelJob(testJob);
    $("#test-status").textContent = "";
  }
  stopAnim();
  playQueue.length = 0;
  anim.frames = [];
  anim.frame = 0;
  anim.stepOfMove = [];
  for (const id of ["#solve-summary", "#solve-progress", "#moves", "#solve-stats", "#analyze-summary", "#analyze-progress", "#analyze-stats", "#chart", "#graph", "#graph-info", "#history", "#level-lints", "#level-title"]) {
    $(id).textContent = "";
  }
  $("#solve-bar").hidden = true;
  $("#frame-label").textContent = "-";
  const sb = $("#solve-board");
  sb.dataset.frame = "0";
  sb.dataset.frames = "0";
  for (const c of ["#solve-board", "#farthest", "#graph-board", "#board"]) {
    const canvas = $(c);
    canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height);
  }
  $("#graph-wrap").hidden = true;
  $("#solved-banner").hidden = true;
  $("#move-count").textContent = "0";
  $("#cost").textContent = "-";
  setStatus("", "");
  showLevelError(null);
}

/**
 * Writes the text to the file. `how`: {} saves over the file as loaded (refused when it
 * changed on disk since), {create: true} makes a new file (refused when one exists),
 * {base: version} overwrites that version on purpose.
 */
async function saveFile(how = {}) {
  const status = $("#save-status");
  status.classList.remove("error");
  $("#conflict-actions").hidden = true;
  if (!S.file) return false;
  const text = editor.getText();
  const body = { path: S.file, text };
  if (how.create) body.create = true;
  else if (how.base !== undefined) body.base = how.base;
  else if (S.version) body.base = S.version;
  try {
    const res = await api("PUT", "/api/file", body);
    S.savedText = text;
    S.version = res.version;
    status.textContent = `saved ${fmtNum(res.bytes)} bytes`;
    updateDirty();
    return true;
  } catch (e) {
    status.textContent = `not saved: ${e.message}`;
    status.classList.add("error");
    if (e.status === 409 && !how.create) {
      S.conflictVersion = e.body.version;
      $("#conflict-actions").hidden = false;
    }
    return false;
  }
}

/** Overwrites the file changed on disk with the editor's text, after a 409. */
async function overwriteOnDisk() {
  const v = S.conflictVersion;
  await saveFile(v ? { base: v } : { create: true });
}

/** Discards the edits and opens the file as it is on disk, after a 409. */
async function reloadFromDisk() {
  try {
    await openFile(S.file);
  } catch (e) {
    $("#save-status").textContent = `not reloaded: ${e.message}`;
  }
}

// ---------------------------------------------------------------- new file, save as

let templates = null;

/** Opens the name dialog: "new" (a template and a name) or "saveas" (a name). */
async function openNameDialog(mode) {
  const dlg = $("#name-dialog");
  dlg.dataset.mode = mode;
  $("#name-title").textContent = mode === "new" ? "New file from a template" : "Save as a new file";
  $("#name-ok").textContent = mode === "new" ? "Create" : "Save";
  $("#template-field").hidden = mode !== "new";
  $("#name-error").textContent = "";
  const input = $("#name-input");
  if (mode === "new") {
    if (!templates) {
      try {
        templates = (await api("GET", "/api/templates")).templates;
      } catch (e) {
        setStatus(`No templates: ${e.message}`, "blocked");
        return;
      }
      const sel = $("#template-select");
      sel.textContent = "";
      for (const t of templates) sel.append(el("option", { value: t.id, text: t.title }));
    }
    input.value = `${$("#template-select").value || "new"}.puz`;
  } else {
    const base = (S.file || "copy.puz").replace(/(\.[a-z]+)$/, "-copy$1");
    input.value = base;
  }
  dlg.showModal();
  input.focus();
  input.select();
}

/** The dialog's OK: writes the new file (never over one) and opens it. */
async function confirmNameDialog() {
  const dlg = $("#name-dialog");
  const mode = dlg.dataset.mode;
  let name = $("#name-input").value.trim();
  const err = $("#name-error");
  if (!name) { err.textContent = "a file name, please"; return; }
  if (!/\.(puz|txt)$/.test(name)) name += ".puz";
  let text;
  if (mode === "new") {
    if (editor.getText() !== S.savedText && !confirm("Discard unsaved changes?")) return;
    const t = (templates || []).find((x) => x.id === $("#template-select").value);
    if (!t) { err.textContent = "no template picked"; return; }
    text = t.text;
  } else {
    text = editor.getText();
  }
  try {
    const res = await api("PUT", "/api/file", { path: name, text, create: true });
    dlg.close();
    if (mode === "new") {
      showText(res.path, text, res.version);
      await runCheck();
    } else {
      // The text stays as it is (undo history too); only its file changes.
      const sel = $("#file-select");
      if (![...sel.options].some((o) => o.value === res.path)) sel.append(el("option", { value: res.path, text: res.path }));
      sel.value = res.path;
      S.file = res.path;
      S.savedText = text;
      S.version = res.version;
      $("#conflict-actions").hidden = true;
      const st = $("#save-status");
      st.classList.remove("error");
      st.textContent = `saved as ${res.path}`;
      updateDirty();
    }
  } catch (e) {
    err.textContent = e.message;
  }
}

function updateDirty() {
  const dirty = S.savedText !== null && editor.getText() !== S.savedText;
  $("#save").textContent = dirty ? "Save*" : "Save";
  document.title = (dirty ? "* " : "") + (S.file || "") + " - puz playground";
}

// ---------------------------------------------------------------- editor and diagnostics

const editor = PuzEditor.create($("#editor"), {
  onChange: onEditorInput,
  onCaret,
  onEscape: () => { editor.blur(); $("#board").focus(); },
});
// The browser test and the console reach the editor here (its text, the caret).
window.puzEditor = editor;
let prevText = "";
let checkTimer = 0;
let checkCtl = null;
let checkSeq = 0;
let lastInputAt = 0;

/** Moves the listed spans along with an edit so clicks jump right until the server answers. */
function shiftSpans(map) {
  for (const d of S.diags) {
    for (const l of d.labels) {
      l.start = map(l.start, -1);
      l.end = Math.max(l.start, map(l.end, 1));
    }
  }
  S.blockedSpan = null;
}

function onEditorInput(text, map) {
  shiftSpans(map);
  prevText = text;
  lastInputAt = performance.now();
  updateDirty();
  clearTimeout(checkTimer);
  checkTimer = setTimeout(runCheck, 25);
}

/** POST /api/check for the current text; a newer keystroke aborts the request in flight. */
async function runCheck() {
  if (checkCtl) checkCtl.abort();
  const ctl = new AbortController();
  checkCtl = ctl;
  const seq = ++checkSeq;
  const text = editor.getText();
  const since = lastInputAt;
  try {
    const res = await api("POST", "/api/check", { text }, ctl.signal);
    if (seq !== checkSeq || text !== editor.getText()) return;
    S.check = res;
    S.checkedText = text;
    S.diags = res.diagnostics || [];
    renderDiagnostics();
    renderMarks();
    // Keystroke to underlines, in ms: the browser test reads it.
    if (since) $("#diagnostics").dataset.latencyMs = (performance.now() - since).toFixed(1);
    if (rulesLoad(res)) {
      setLang(res.lang === "puzzlescript" ? "ps" : "puz");
      editor.setLanguage(S.lang);
      S.levels = res.levels;
      S.validText = text;
      scheduleLevelReload();
    }
    renderLevels();
    updateStale();
  } catch (e) {
    if (e.name === "AbortError") return;
    if (seq !== checkSeq) return;
    const st = $("#check-status");
    st.textContent = `check failed: ${e.message}`;
    st.className = "error";
  } finally {
    if (checkCtl === ctl) checkCtl = null;
  }
}

/** Whether a check answer's rules loaded: they did when it lists levels or has no error. */
function rulesLoad(res) {
  return !!res && Array.isArray(res.levels) && (res.levels.length > 0 || res.ok);
}

/**
 * Hands the diagnostics to the editor (gutter marks and underlines: errors red, lints
 * yellow; an empty span is a point mark) and highlights the statement that refused the
 * last move.
 */
function renderMarks() {
  const list = [];
  for (const d of S.diags) {
    for (const l of d.labels || []) {
      list.push({
        from: l.start,
        to: l.end,
        severity: d.severity,
        code: d.code,
        message: `${d.message}${l.text ? ` (${l.text})` : ""}${d.help ? `\nhelp: ${d.help}` : ""}`,
      });
    }
  }
  editor.setDiagnostics(list);
  if (S.blockedSpan) editor.setBlocked(S.blockedSpan[0], S.blockedSpan[1]);
  else editor.setBlocked(null);
}

function renderDiagnostics() {
  const list = $("#diagnostics");
  list.textContent = "";
  const res = S.check;
  const errors = S.diags.filter((d) => d.severity !== "warning").length;
  const warnings = S.diags.length - errors;
  $("#diag-summary").textContent = `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`;
  const st = $("#check-status");
  if (res) {
    const ms = typeof res.elapsed_ms === "number" ? ` in ${res.elapsed_ms.toFixed(1)} ms` : "";
    if (errors) {
      st.textContent = `${errors} error${errors === 1 ? "" : "s"}${ms}`;
      st.className = "error";
    } else {
      const n = (res.levels || []).filter((l) => l.kind !== "message").length;
      const msgs = (res.levels || []).length - n;
      st.textContent = `${res.title ? res.title + ": " : ""}ok, ${n} level${n === 1 ? "" : "s"}${msgs ? `, ${msgs} message${msgs === 1 ? "" : "s"}` : ""}${warnings ? `, ${warnings} warning${warnings === 1 ? "" : "s"}` : ""}${ms}`;
      st.className = "ok";
    }
  }
  if (!S.diags.length) {
    list.append(el("li", { class: "none", text: "No problems found." }));
    return;
  }
  S.diags.forEach((d, i) => {
    const sev = d.severity === "warning" ? "warning" : "error";
    const item = el("li", { class: `diag ${sev}`, "data-index": String(i), "data-code": d.code || "" });
    item.append(el("div", {},
      el("span", { class: "sev", text: sev }),
      el("span", { class: "msg", text: d.message || "" })));
    item.append(el("div", { class: "code", text: d.code || "" }));
    if (d.labels && d.labels.length) {
      const labels = el("ul", { class: "labels" });
      for (const l of d.labels) {
        const li = el("li", { text: `${l.line}:${l.col}${l.text ? "  " + l.text : ""}` });
        li.addEventListener("click", (ev) => {
          ev.stopPropagation();
          jumpTo(l.start, l.end);
          setActiveDiag(i);
        });
        labels.append(li);
      }
      item.append(labels);
    }
    if (d.help) item.append(el("div", { class: "help", text: "help: " + d.help }));
    if (d.rendered) {
      const det = el("details", {}, el("summary", { text: "as in the terminal" }), el("pre", { text: d.rendered }));
      det.addEventListener("click", (ev) => ev.stopPropagation());
      item.append(det);
    }
    item.addEventListener("click", () => {
      const l = d.labels && d.labels[0];
      if (l) jumpTo(l.start, l.end);
      setActiveDiag(i);
    });
    list.append(item);
  });
}

function setActiveDiag(i) {
  if (S.activeDiag === i) return;
  S.activeDiag = i;
  for (const li of document.querySelectorAll("#diagnostics li.diag")) {
    li.classList.toggle("active", Number(li.dataset.index) === i);
  }
}

/** Selects [start, end) in the editor and scrolls it into view. */
function jumpTo(start, end) {
  editor.select(start, end);
}

/** Scrolls the editor (without focusing it) so that offset `at` is in view. */
function reveal(at) {
  editor.reveal(at);
}

/** The diagnostic under the caret is highlighted in the panel. */
function onCaret(pos) {
  const i = S.diags.findIndex((d) => (d.labels || []).some((l) => l.start <= pos && pos <= l.end));
  setActiveDiag(i);
}

// ---------------------------------------------------------------- levels

function renderLevels() {
  const ul = $("#levels");
  ul.textContent = "";
  // While the rules do not load, the levels of the last version that did stay listed.
  const levels = S.levels || [];
  ul.classList.toggle("stale", !!S.check && !rulesLoad(S.check));
  if (!levels.length) {
    ul.append(el("li", { class: "muted", text: S.check && !rulesLoad(S.check) ? "the rules do not load" : "no levels" }));
    return;
  }
  if (S.levelIndex >= levels.length) S.levelIndex = 0;
  for (const lv of levels) {
    const li = el("li", { "data-index": String(lv.index), title: lv.expect && lv.expect.length ? "expect " + lv.expect.join("; ") : "no expect line" });
    if (lv.index === S.levelIndex) li.classList.add("active");
    if (!lv.ok) li.classList.add("broken");
    if (lv.kind) {
      // A PuzzleScript entry: numbered as PuzzleScript numbers them, messages included.
      li.dataset.kind = lv.kind;
      li.title = lv.kind === "message" ? lv.text : `entry ${lv.index}: level ${lv.number}`;
      if (lv.kind === "message") li.classList.add("message");
      li.append(el("span", { class: "name", text: `${lv.index}. ${lv.kind === "message" ? lv.text : lv.name}` }));
      if (lv.kind === "level") li.append(el("span", { class: "dims", text: `${lv.cols}x${lv.rows}` }));
      li.addEventListener("click", () => selectLevel(lv.index));
      ul.append(li);
      continue;
    }
    li.append(el("span", { class: "name", text: lv.name || `#${lv.index}` }));
    li.append(el("span", { class: "dims", text: `${lv.rows}x${lv.cols}` }));
    const rows = S.tests[lv.index];
    if (rows && rows.length) {
      // One row per expectation (and metric): the badge shows the worst of them.
      const rank = ["fail", "error", "cutoff", "running", "pass", "none"];
      const status = rows.map((t) => t.status).sort((a, b) => rank.indexOf(a) - rank.indexOf(b))[0];
      const badge = el("span", { class: `badge ${status}`, id: `level-test-${lv.index}`, text: status });
      badge.title = rows.map((t) => [
        t.metric ? `[${t.metric}]` : null,
        t.status,
        t.expected != null ? `expected ${t.expected}` : null,
        t.got != null ? `got ${t.got}` : null,
        t.message,
      ].filter(Boolean).join(" ")).join("\n");
      li.append(badge);
    }
    li.addEventListener("click", () => selectLevel(lv.index));
    ul.append(li);
  }
}

function selectLevel(i) {
  if (S.lang === "ps") {
    if (S.ps && S.ps.entry === i && S.ps.text === S.validText) return;
    S.levelIndex = i;
    clearResults(false);
    renderLevels();
    psStart(i);
    return;
  }
  if (i === S.levelIndex && S.info) return;
  S.levelIndex = i;
  S.history = [];
  S.info = null;
  S.game = null;
  S.selectedCell = null;
  clearResults(false);
  renderLevels();
  loadLevel();
}

let levelTimer = 0;
function scheduleLevelReload() {
  clearTimeout(levelTimer);
  // The first load is immediate; later rule edits settle first.
  levelTimer = setTimeout(loadLevel, S.info ? 250 : 0);
}

let levelCtl = null;
/** Loads the level view for the current text and replays the history on it. */
async function loadLevel() {
  const text = S.validText;
  if (text == null) return;
  if (S.lang === "ps") return psReload();
  const levels = S.levels || [];
  if (!levels.length) {
    showLevelError("This file has no level.");
    return;
  }
  if (S.info && S.infoText === text && S.info._index === S.levelIndex) return;
  if (levelCtl) levelCtl.abort();
  const ctl = new AbortController();
  levelCtl = ctl;
  const index = S.levelIndex;
  try {
    const info = await api("POST", "/api/level", { text, level: index }, ctl.signal);
    if (levelCtl !== ctl) return;
    info._index = index;
    const keep = S.info && S.info._index === index;
    S.info = info;
    S.infoText = text;
    if (!keep) {
      S.history = [];
      S.selectedMove = null;
      S.selectedCell = null;
    }
    showLevelError(null);
    updateStale();
    carryLabels(null, info.board);
    S.game = { board: info.board, goal: info.goal, cost: info.cost, moves: 0, legal: info.legal };
    renderLevelInfo();
    if (S.history.length) await replay();
    else renderGame();
  } catch (e) {
    if (e.name === "AbortError") return;
    if (levelCtl !== ctl) return;
    S.info = null;
    S.game = null;
    const board = $("#board");
    board.getContext("2d").clearRect(0, 0, board.width, board.height);
    $("#solved-banner").hidden = true;
    const diags = (e.body && e.body.diagnostics) || [];
    showLevelError(e.message + diags.map((d) => `\n${d.code}: ${d.message}`).join(""));
  }
}

/** Replays the kept history after a rule edit, keeping the prefix that is still legal. */
async function replay() {
  try {
    await sendPlay(null);
  } catch (e) {
    if (e.code === "history" && typeof e.body.at === "number") {
      S.history = S.history.slice(0, e.body.at);
      setStatus(`The rules changed: the history is cut to its first ${e.body.at} moves.`, "blocked");
      await sendPlay(null);
    } else {
      throw e;
    }
  }
}

/** Says so when the board shows an older version of the rules than the editor. */
function updateStale() {
  const text = editor.getText();
  const stale = !!S.info && S.infoText !== text;
  const note = $("#stale-note");
  note.hidden = !stale;
  note.textContent = S.validText === text ? "updating" : "rules have errors: showing the last good version";
}

function showLevelError(msg) {
  const box = $("#level-error");
  box.hidden = !msg;
  box.textContent = msg || "";
}

function renderLevelInfo() {
  const info = S.info;
  $("#level-title").textContent = `${info.title ? info.title + " / " : ""}level "${info.name}" (${info.rows} x ${info.cols})`;
  // Move list.
  const ml = $("#move-list");
  ml.textContent = "";
  info.moves.forEach((m, i) => {
    const li = el("li", { "data-index": String(i), title: `key ${i + 1}` });
    li.append(el("span", { text: m.name }));
    const dirs = m.per_cell ? "click a cell" : (m.dirs || []).join(" ");
    li.append(document.createTextNode(" "), el("span", { class: "dirs", text: dirs }));
    li.addEventListener("click", () => selectMove(S.selectedMove === i ? null : i));
    ml.append(li);
  });
  // Key.
  const key = $("#key");
  key.textContent = "";
  for (const k of info.key || []) {
    const c = el("canvas", { width: "22", height: "22" });
    drawSwatch(c, k);
    const sym = k.symbol === " " ? "\u2423" : k.symbol === "\t" ? "\u21e5" : k.symbol;
    key.append(el("li", {}, c, el("span", { class: "sym", text: sym, title: JSON.stringify(k.symbol) }), el("span", { text: k.text })));
  }
  // Metrics for Solve.
  const met = $("#metric");
  const keepMetric = met.value;
  met.textContent = "";
  met.append(el("option", { value: "", text: "(unit moves)" }));
  for (const m of info.metrics || []) met.append(el("option", { value: m, text: m }));
  if ((info.metrics || []).includes(keepMetric)) met.value = keepMetric;
  // Lints of this level.
  const lints = $("#level-lints");
  lints.textContent = "";
  for (const d of info.lints || []) {
    const li = el("li", { text: `warning ${d.code}: ${d.message}` });
    const l = d.labels && d.labels[0];
    if (l) li.addEventListener("click", () => jumpTo(l.start, l.end));
    lints.append(li);
  }
  updateMoveSelection();
}

function selectMove(i) {
  S.selectedMove = i;
  updateMoveSelection();
}

function updateMoveSelection() {
  for (const li of document.querySelectorAll("#move-list li")) {
    li.classList.toggle("selected", Number(li.dataset.index) === S.selectedMove);
  }
}

// ---------------------------------------------------------------- board drawing

/** The palette's colour for entry `i`, or (without a palette) a stable hue by index. */
function swatchColor(list, i, fallback) {
  if (list && list[i] && list[i].color) return list[i].color;
  if (list && list.length) return fallback;
  return fallback === "#eee" ? `hsl(${(i * 67) % 360}, 25%, ${i === 0 ? 92 : 78}%)` : `hsl(${(i * 97 + 10) % 360}, 65%, 45%)`;
}

/** Black or white, whichever reads on the colour. */
function inkOn(hex) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
  if (!m) return "#000";
  const [r, g, b] = [m[1], m[2], m[3]].map((x) => parseInt(x, 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#111" : "#fff";
}

// ---- looks and the room a board has

/** Cells of a board are at least this and at most that many pixels wide. */
const CELL_MIN = 6, CELL_MAX = 64;

/**
 * The room a main board (play, solve, paint) has, in pixels: the right column's width,
 * less the side column beside it when both fit on one line, and most of the window's
 * height. Boards scale to it, so a small level fills the space and a big one still fits.
 */
function boardRoom() {
  const right = $("#right");
  const inner = Math.max(200, (right ? right.clientWidth : 600) - 24);
  const side = inner >= 560 ? 216 : 0;
  return { maxW: Math.max(180, inner - side), maxH: Math.max(220, Math.floor(window.innerHeight * 0.62)) };
}

/** Whether a palette swatch carries a declared sprite. */
function hasSprite(sw) {
  return !!(sw && sw.sprite && sw.sprite.length && sw.colors && sw.colors.length);
}

/**
 * One cell of one legend symbol as the board draws it, at (x, y) and `size` pixels: its
 * tile, its marks (a sprite or a ring), its pieces (a sprite or a filled square).
 */
function drawSymbol(g, k, x, y, size) {
  const pal = (S.info && S.info.palette) || { tiles: [], pieces: [], marks: [] };
  const byName = (list, name) => (list || []).find((s) => s.name === name);
  const t = k.tile && byName(pal.tiles, k.tile);
  g.fillStyle = t ? t.color : "#fff";
  g.fillRect(x, y, size, size);
  if (hasSprite(t)) drawSprite(g, t, x, y, size);
  (k.marks || []).forEach((m, i) => {
    const s = byName(pal.marks, m);
    if (hasSprite(s)) { drawSprite(g, s, x, y, size); return; }
    g.strokeStyle = s ? s.color : "#c00";
    g.lineWidth = Math.max(1.5, size / 9);
    g.beginPath();
    g.arc(x + size / 2, y + size / 2, Math.max(2, size * (0.36 - 0.1 * i)), 0, 2 * Math.PI);
    g.stroke();
  });
  (k.pieces || []).forEach((p, i) => {
    const s = byName(pal.pieces, p);
    if (hasSprite(s)) { drawSprite(g, s, x, y, size); return; }
    const inset = Math.max(2, Math.round(size * 0.2)) + i * 2;
    g.fillStyle = s ? s.color : "#a33";
    g.fillRect(x + inset, y + inset, size - 2 * inset, size - 2 * inset);
    g.strokeStyle = "rgba(0,0,0,.6)";
    g.lineWidth = 1;
    g.strokeRect(x + inset + .5, y + inset + .5, size - 2 * inset - 1, size - 2 * inset - 1);
  });
}

/**
 * Draws a BoardView on a canvas: tiles, marks as rings, pieces filled and outlined as one
 * shape and labelled; a declared sprite replaces the ring or the filled shape. It scales
 * to `opts.maxW`/`opts.maxH`, by default the room beside the board (see boardRoom);
 * `opts.selected` rings a cell.
 */
function drawBoard(canvas, board, opts = {}) {
  const info = S.info;
  const pal = (info && info.palette) || { tiles: [], pieces: [], marks: [] };
  const rows = board.rows, cols = board.cols;
  const room = opts.maxW ? null : boardRoom();
  const maxW = opts.maxW || room.maxW, maxH = opts.maxH || room.maxH;
  const cell = Math.max(CELL_MIN, Math.min(CELL_MAX, Math.floor(Math.min(maxW / Math.max(cols, 1), maxH / Math.max(rows, 1)))));
  const W = cols * cell, H = rows * cell;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, W * dpr);
  canvas.height = Math.max(1, H * dpr);
  canvas.style.width = W + "px";
  canvas.style.height = H + "px";
  canvas._cell = cell;
  canvas._board = board;
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, W, H);
  // Tiles, and the grid around each drawn cell; cells beyond the level (the ground
  // outside a Sokoban level's walls) are left blank.
  const beyond = new Set(board.beyond || []);
  g.strokeStyle = "rgba(0,0,0,.10)";
  g.lineWidth = 1;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (beyond.has(r * cols + c)) continue;
      const t = board.tiles[r * cols + c];
      g.fillStyle = swatchColor(pal.tiles, t, "#eee");
      g.fillRect(c * cell, r * cell, cell, cell);
      if (hasSprite(pal.tiles[t])) drawSprite(g, pal.tiles[t], c * cell, r * cell, cell);
      else g.strokeRect(c * cell + .5, r * cell + .5, cell, cell);
    }
  }
  // Marks: concentric rings.
  const marks = board.marks || [];
  for (let i = 0; i < marks.length; i++) {
    const ms = marks[i];
    if (!ms || !ms.length) continue;
    const r = Math.floor(i / cols), c = i % cols;
    ms.forEach((m, k) => {
      if (hasSprite(pal.marks[m])) { drawSprite(g, pal.marks[m], c * cell, r * cell, cell); return; }
      g.strokeStyle = swatchColor(pal.marks, m, "#c00");
      g.lineWidth = Math.max(2, cell / 10);
      g.beginPath();
      g.arc(c * cell + cell / 2, r * cell + cell / 2, Math.max(2, cell * (0.36 - 0.1 * k)), 0, 2 * Math.PI);
      g.stroke();
    });
  }
  // Pieces.
  const inset = Math.max(2, Math.round(cell * 0.1));
  for (const p of board.pieces || []) {
    if (hasSprite(pal.pieces[p.kind])) {
      for (const [r, c] of p.cells) drawSprite(g, pal.pieces[p.kind], c * cell, r * cell, cell);
      continue;
    }
    const color = swatchColor(pal.pieces, p.kind, "#a33");
    const own = new Set(p.cells.map(([r, c]) => `${r},${c}`));
    g.fillStyle = color;
    for (const [r, c] of p.cells) {
      const x = c * cell, y = r * cell;
      g.fillRect(x + inset, y + inset, cell - 2 * inset, cell - 2 * inset);
      if (own.has(`${r},${c + 1}`)) g.fillRect(x + cell - inset, y + inset, 2 * inset, cell - 2 * inset);
      if (own.has(`${r + 1},${c}`)) g.fillRect(x + inset, y + cell - inset, cell - 2 * inset, 2 * inset);
      if (own.has(`${r},${c + 1}`) && own.has(`${r + 1},${c}`) && own.has(`${r + 1},${c + 1}`)) {
        g.fillRect(x + cell - inset, y + cell - inset, 2 * inset, 2 * inset);
      }
    }
    g.strokeStyle = "rgba(0,0,0,.65)";
    g.lineWidth = Math.max(1.5, cell / 18);
    g.beginPath();
    for (const [r, c] of p.cells) {
      const x0 = c * cell + inset, y0 = r * cell + inset, x1 = (c + 1) * cell - inset, y1 = (r + 1) * cell - inset;
      const n = own.has(`${r - 1},${c}`), s = own.has(`${r + 1},${c}`);
      const w = own.has(`${r},${c - 1}`), e = own.has(`${r},${c + 1}`);
      const xa = w ? c * cell - inset : x0, xb = e ? (c + 1) * cell + inset : x1;
      const ya = n ? r * cell - inset : y0, yb = s ? (r + 1) * cell + inset : y1;
      if (!n) { g.moveTo(xa, y0); g.lineTo(xb, y0); }
      if (!s) { g.moveTo(xa, y1); g.lineTo(xb, y1); }
      if (!w) { g.moveTo(x0, ya); g.lineTo(x0, yb); }
      if (!e) { g.moveTo(x1, ya); g.lineTo(x1, yb); }
    }
    g.stroke();
    // Label: the name if it fits the piece's width, else its initial; copies numbered.
    const copies = (board.pieces || []).filter((q) => q.kind === p.kind).length;
    const minC = Math.min(...p.cells.map((x) => x[1])), maxC = Math.max(...p.cells.map((x) => x[1]));
    const minR = Math.min(...p.cells.map((x) => x[0])), maxR = Math.max(...p.cells.map((x) => x[0]));
    const width = (maxC - minC + 1) * cell - 2 * inset - 2;
    const fs = Math.max(8, Math.min(14, Math.floor(cell * 0.42)));
    g.font = `600 ${fs}px system-ui, sans-serif`;
    const num = copies > 1 ? String(p.label || p.copy + 1) : "";
    let label = p.name + num;
    if (g.measureText(label).width > width) label = p.name.slice(0, 1).toUpperCase() + num;
    if (g.measureText(label).width > width) label = p.name.slice(0, 1).toUpperCase();
    if (cell >= 12 && p.cells.length) {
      g.fillStyle = inkOn(color);
      g.textAlign = "center";
      g.textBaseline = "middle";
      g.fillText(label, ((minC + maxC + 1) / 2) * cell, ((minR + maxR + 1) / 2) * cell);
    }
  }
  // Marks under pieces: a corner triangle stays visible.
  const covered = new Set();
  for (const p of board.pieces || []) for (const [r, c] of p.cells) covered.add(`${r},${c}`);
  for (let i = 0; i < marks.length; i++) {
    const ms = marks[i];
    if (!ms || !ms.length) continue;
    const r = Math.floor(i / cols), c = i % cols;
    if (!covered.has(`${r},${c}`)) continue;
    g.fillStyle = swatchColor(pal.marks, ms[0], "#c00");
    const t = Math.max(4, cell / 3);
    g.beginPath();
    g.moveTo((c + 1) * cell, r * cell);
    g.lineTo((c + 1) * cell - t, r * cell);
    g.lineTo((c + 1) * cell, r * cell + t);
    g.closePath();
    g.fill();
  }
  if (opts.selected) {
    const [r, c] = opts.selected;
    g.strokeStyle = "#2f6fdf";
    g.lineWidth = 3;
    g.strokeRect(c * cell + 1.5, r * cell + 1.5, cell - 3, cell - 3);
  }
}

/** One legend symbol's look, for the key: drawn as a board cell (see drawSymbol). */
function drawSwatch(canvas, k) {
  drawSymbol(canvas.getContext("2d"), k, 0, 0, canvas.width);
}

function cellAt(canvas, ev) {
  const rect = canvas.getBoundingClientRect();
  const cell = canvas._cell || 1;
  const c = Math.floor((ev.clientX - rect.left) / cell);
  const r = Math.floor((ev.clientY - rect.top) / cell);
  const b = canvas._board;
  if (!b || r < 0 || c < 0 || r >= b.rows || c >= b.cols) return null;
  return [r, c];
}

function describeCell(board, r, c) {
  const info = S.info;
  const parts = [`(${r},${c})`];
  const t = info.tiles && info.tiles[board.tiles[r * board.cols + c]];
  if (t) parts.push(t);
  const ms = (board.marks[r * board.cols + c] || []).map((m) => info.marks && info.marks[m]).filter(Boolean);
  if (ms.length) parts.push("+ " + ms.join(" + "));
  for (const p of board.pieces) {
    if (p.cells.some(([pr, pc]) => pr === r && pc === c)) parts.push(`+ ${p.name}${p.pose ? "." + p.pose : ""}`);
  }
  return parts.join(" ");
}

// ---------------------------------------------------------------- piece identity

/**
 * Gives each piece of `board` the number (`label`, from 1) the same piece had in `prev`,
 * so copies keep their numbers from one position to the next (the server numbers copies
 * afresh in each state: interchangeable copies are kept sorted). A piece whose cells did
 * not change keeps its number; the rest are paired, kind by kind, nearest anchor first;
 * a copy that appeared takes the lowest free number.
 */
function carryLabels(prev, board) {
  const sig = (p) => `${p.pose}|${p.cells.map((c) => c.join(",")).join(" ")}`;
  const byKind = new Map();
  for (const p of board.pieces || []) {
    if (!byKind.has(p.kind)) byKind.set(p.kind, { now: [], before: [] });
    byKind.get(p.kind).now.push(p);
  }
  for (const p of (prev && prev.pieces) || []) {
    if (byKind.has(p.kind)) byKind.get(p.kind).before.push(p);
  }
  for (const { now, before } of byKind.values()) {
    const left = before.map((p) => ({ p, label: p.label || p.copy + 1 }));
    const unmatched = [];
    for (const p of now) {
      const k = left.findIndex((b) => sig(b.p) === sig(p));
      if (k >= 0) { p.label = left[k].label; left.splice(k, 1); } else unmatched.push(p);
    }
    // Nearest anchors first, over every remaining pair.
    const pairs = [];
    unmatched.forEach((p, i) => left.forEach((b, j) => {
      pairs.push([Math.abs(p.anchor[0] - b.p.anchor[0]) + Math.abs(p.anchor[1] - b.p.anchor[1]), i, j]);
    }));
    pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
    const usedP = new Set(), usedB = new Set();
    for (const [, i, j] of pairs) {
      if (usedP.has(i) || usedB.has(j)) continue;
      unmatched[i].label = left[j].label;
      usedP.add(i);
      usedB.add(j);
    }
    const taken = new Set(now.filter((p) => p.label).map((p) => p.label));
    let next = 1;
    for (const p of now) {
      if (p.label) continue;
      while (taken.has(next)) next++;
      p.label = next;
      taken.add(next);
    }
  }
}

/** The piece of `board` covering cell [r, c], if any. */
function pieceAt(board, r, c) {
  return ((board && board.pieces) || []).find((p) => p.cells.some(([pr, pc]) => pr === r && pc === c));
}

/**
 * Where the piece picked at `cell` on `prev` is on `board` (labels carried already): the
 * same cell of its footprint, so the arrows keep moving it after it moved; null when it
 * left the board.
 */
function followCell(prev, board, cell) {
  const was = pieceAt(prev, cell[0], cell[1]);
  if (!was) return null;
  const k = was.cells.findIndex(([r, c]) => r === cell[0] && c === cell[1]);
  const label = was.label || was.copy + 1;
  const now = (board.pieces || []).find((p) => p.kind === was.kind && (p.label || p.copy + 1) === label);
  if (!now || !now.cells.length) return null;
  const at = now.cells[Math.min(k, now.cells.length - 1)];
  return [at[0], at[1]];
}

// ---------------------------------------------------------------- play

const playQueue = [];
let playing = false;

function renderGame() {
  const g = S.game;
  if (!g || !S.info) return;
  drawBoard($("#board"), g.board, { selected: S.selectedCell });
  $("#move-count").textContent = String(S.history.length);
  $("#cost").textContent = fmtCost(g.cost, S.info.costs);
  const counters = $("#counters");
  counters.textContent = "";
  for (const c of g.board.counters || []) counters.append(el("li", {}, el("span", { text: c.name }), el("b", { text: String(c.value) })));
  if (!(g.board.counters || []).length) counters.append(el("li", { class: "muted", text: "none" }));
  const banner = $("#solved-banner");
  banner.hidden = !g.goal;
  banner.textContent = "";
  banner.append(el("b", { text: "Solved!" }), `${S.history.length} move${S.history.length === 1 ? "" : "s"}, cost ${fmtCost(g.cost, S.info.costs)}`);
  $("#history").textContent = S.history.map(actionText).join(" ");
}

function actionText(a) {
  return a.move + (a.dir ? " " + a.dir : "") + (a.cell ? ` (${a.cell[0]},${a.cell[1]})` : "");
}

function setStatus(text, cls) {
  const st = $("#status");
  st.textContent = text;
  st.className = cls || "";
}

/** Queues one play request: moves are sent one after another, each on the last history. */
function enqueuePlay(want) {
  playQueue.push(want);
  if (!playing) drainQueue();
}

async function drainQueue() {
  playing = true;
  try {
    while (playQueue.length) {
      const want = playQueue.shift();
      try {
        await sendPlay(want);
      } catch (e) {
        setStatus(e.message, "blocked");
      }
    }
  } finally {
    playing = false;
  }
}

/** POST /api/play with the kept history and `want` (null: just show the history's end). */
async function sendPlay(want) {
  if (!S.info) return;
  let tried = want;
  if (want && want.pick) {
    // The piece picked by a click, wherever the moves before this one took it.
    tried = { ...want };
    delete tried.pick;
    if (S.selectedCell) tried.cell = S.selectedCell;
  }
  const info = S.info;
  const res = await api("POST", "/api/play", {
    text: S.infoText,
    level: S.info._index,
    history: S.history,
    try: tried,
  });
  if (S.info !== info) return;
  const before = S.game && S.game.board;
  if (before) carryLabels(before, res.board);
  if (before && S.selectedCell) S.selectedCell = followCell(before, res.board, S.selectedCell);
  S.history = res.history;
  S.game = res;
  const hadSpan = !!S.blockedSpan;
  S.blockedSpan = null;
  if (res.blocked) {
    setStatus(res.blocked.message, "blocked");
    const why = res.blocked.tried && res.blocked.tried.length > 1
      ? res.blocked.tried.map((t) => `${actionText(t.action)}: ${t.why}`).join("\n") : "";
    $("#status").title = why;
    if (res.blocked.span && S.infoText === editor.getText()) {
      S.blockedSpan = res.blocked.span;
      renderMarks();
      reveal(res.blocked.span[0]);
    } else if (hadSpan) {
      renderMarks();
    }
  } else {
    if (hadSpan) renderMarks();
    if (res.played) {
      const p = res.played;
      setStatus(res.goal ? `Solved after ${p.line}` : p.line, res.goal ? "solved" : "played");
    } else if (want === null) {
      setStatus(res.goal ? "Solved." : "", res.goal ? "solved" : "");
    }
  }
  renderGame();
}

function dirFor(dr, dc) {
  const d = (S.info && S.info.dirs || []).find((x) => x.dr === dr && x.dc === dc);
  return d ? d.name : null;
}

/** Plays in a direction with the selected move (or any move), and the clicked piece if any. */
function playDir(dr, dc) {
  if (!S.info) return;
  const dir = dirFor(dr, dc);
  if (!dir) {
    setStatus(`No direction (${dr}, ${dc}) in this file's dirs.`, "blocked");
    return;
  }
  const want = { dir, pick: true };
  const m = S.selectedMove != null ? S.info.moves[S.selectedMove] : null;
  if (m) want.move = m.name;
  enqueuePlay(want);
}

function undo() {
  if (S.lang === "ps") { psInput("z"); return; }
  if (!S.history.length) return;
  playQueue.length = 0;
  S.history = S.history.slice(0, -1);
  enqueuePlay(null);
}

function restart() {
  if (S.lang === "ps") { psInput("R"); return; }
  playQueue.length = 0;
  S.history = [];
  S.selectedCell = null;
  enqueuePlay(null);
}

function onBoardClick(ev) {
  const board = $("#board");
  board.focus();
  if (S.lang === "ps") { psDismiss(); return; }
  if (!S.info || !S.game) return;
  const at = cellAt(board, ev);
  if (!at) return;
  const moves = S.info.moves;
  const sel = S.selectedMove != null ? moves[S.selectedMove] : null;
  const perCell = sel && sel.per_cell ? sel : !sel ? moves.find((m) => m.per_cell) : null;
  if (perCell) {
    enqueuePlay({ move: perCell.name, cell: at });
    return;
  }
  // No per-cell move: a click picks the piece the arrows move (a click elsewhere clears it).
  const onPiece = S.game.board.pieces.some((p) => p.cells.some(([r, c]) => r === at[0] && c === at[1]));
  S.selectedCell = onPiece && !(S.selectedCell && S.selectedCell[0] === at[0] && S.selectedCell[1] === at[1]) ? at : null;
  renderGame();
}

const ARROWS = {
  ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1],
  w: [-1, 0], s: [1, 0], a: [0, -1], d: [0, 1],
  k: [-1, 0], j: [1, 0], h: [0, -1], l: [0, 1],
};

function inFormField(t) {
  return t && (t.tagName === "TEXTAREA" || t.tagName === "INPUT" || t.tagName === "SELECT" || t.isContentEditable);
}

function onKey(ev) {
  if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === "s") {
    ev.preventDefault();
    saveFile();
    return;
  }
  if (inFormField(ev.target)) return;
  if (ev.altKey) return;
  if (S.lang === "ps" && psKey(ev)) return;
  const ctrl = ev.ctrlKey || ev.metaKey;
  if (ctrl && ev.key.toLowerCase() === "z") { ev.preventDefault(); showTab("play"); undo(); return; }
  if (ctrl) return;
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if (ARROWS[key] && !(key.length === 1 && ev.shiftKey)) {
    ev.preventDefault();
    showTab("play");
    playDir(...ARROWS[key]);
  } else if (key === "Backspace" || key === "u") {
    ev.preventDefault();
    showTab("play");
    undo();
  } else if (key === "r") {
    ev.preventDefault();
    showTab("play");
    restart();
  } else if (/^[1-9]$/.test(key) && S.info) {
    const i = Number(key) - 1;
    if (i < S.info.moves.length) selectMove(S.selectedMove === i ? null : i);
  } else if (key === "0" || key === "Escape") {
    selectMove(null);
    S.selectedCell = null;
    renderGame();
  } else if (key === " " && currentTab === "solve" && ev.target.tagName !== "BUTTON") {
    ev.preventDefault();
    toggleAnim();
  }
}

// ---------------------------------------------------------------- PuzzleScript games

/**
 * A PuzzleScript game is played through POST /api/puzzlescript, statelessly: the page
 * keeps the entry and the inputs played on it since it started (letters: u l d r x, z
 * undo, R restart) and the server replays them and answers the board. S.ps holds:
 * text, entry, inputs, the last answer (res), the looks and background (sent once per
 * text), and the overlay's queue of texts (rule messages, the win, a message entry).
 */
function setLang(lang) {
  if (S.lang !== lang) {
    S.lang = lang;
    S.ps = null;
    S.info = null;
  }
  document.body.classList.toggle("ps", lang === "ps");
  $("#help-keys").hidden = lang === "ps";
  $("#help-keys-ps").hidden = lang !== "ps";
  $("#board").classList.toggle("ps", lang === "ps");
}

const psQueue = [];
let psBusy = false;

/** Starts entry `i` of the current game. */
function psStart(i) {
  psQueue.length = 0;
  S.levelIndex = i;
  S.ps = { text: S.validText, entry: i, inputs: "", res: null, looks: (S.ps && S.ps.text === S.validText) ? S.ps.looks : null, background: S.ps && S.ps.background, overlay: [], onDismiss: null };
  showPsOverlay();
  renderLevels();
  psSend(null);
}

/** After a rule edit: the same entry, its inputs replayed on the new rules. */
function psReload() {
  const levels = S.levels || [];
  if (!levels.length) { showLevelError("This game has no level."); return; }
  if (S.levelIndex >= levels.length) S.levelIndex = 0;
  if (S.ps && S.ps.text === S.validText && S.ps.entry === S.levelIndex) return;
  if (!S.ps || S.ps.entry !== S.levelIndex) {
    // A game opened: its first entry (a message shows first, as in PuzzleScript).
    psStart(S.levelIndex);
    return;
  }
  S.ps.text = S.validText;
  S.ps.looks = null;
  psQueue.length = 0;
  psSend(null);
}

/** Plays one input letter (queued: each request replays the inputs before it). */
function psInput(letter) {
  if (!S.ps) return;
  if (S.ps.overlay.length) { psDismiss(); return; }
  psQueue.push(letter);
  if (!psBusy) psDrain();
}

async function psDrain() {
  psBusy = true;
  try {
    while (psQueue.length) {
      const letter = psQueue.shift();
      const ps = S.ps;
      if (!ps || ps.overlay.length) { psQueue.length = 0; break; }
      try {
        await psSend(letter);
      } catch (e) {
        setStatus(e.message, "blocked");
      }
    }
  } finally {
    psBusy = false;
  }
}

/** POST /api/puzzlescript with the inputs so far and `letter` (null: none more). */
async function psSend(letter) {
  const ps = S.ps;
  if (!ps) return;
  const inputs = ps.inputs + (letter || "");
  let res;
  try {
    res = await api("POST", "/api/puzzlescript", { text: ps.text, entry: ps.entry, inputs, looks: !ps.looks });
  } catch (e) {
    if (S.ps !== ps) return;
    const diags = (e.body && e.body.diagnostics) || [];
    showLevelError(e.message + diags.map((d) => `\n${d.code}: ${d.message}`).join(""));
    return;
  }
  if (S.ps !== ps) return;
  showLevelError(null);
  ps.inputs = inputs;
  if (res.looks) { ps.looks = res.looks; ps.background = res.background; }
  ps.res = res;
  S.info = { _index: ps.entry, ps: true };
  S.infoText = ps.text;
  updateStale();
  const title = res.title ? res.title + " / " : "";
  if (res.kind === "message") {
    $("#level-title").textContent = `${title}entry ${ps.entry}: message`;
    ps.overlay = [res.text];
    ps.onDismiss = () => psNext();
    showPsOverlay();
    psRender();
    setStatus("", "");
    return;
  }
  const lv = (S.levels || [])[ps.entry];
  $("#level-title").textContent = `${title}entry ${ps.entry}: ${lv && lv.name ? lv.name : "level"} (${res.width} x ${res.height})`;
  if (letter !== null) {
    if (res.refused) setStatus(res.refused, "blocked");
    else if (res.won) setStatus(`Won after ${inputs.length} input${inputs.length === 1 ? "" : "s"}.`, "solved");
    else if (res.stuck || (res.why && res.why.kind === "stuck")) setStatus(res.why ? res.why.message : "the game is stuck in again turns that never settle", "blocked");
    else setStatus("", "played");
  } else {
    setStatus(res.won ? "Won." : "", res.won ? "solved" : "");
  }
  psShowWhy(letter !== null ? res.why : null);
  psRender();
  const texts = (letter !== null ? res.messages || [] : []).slice();
  if (res.won && !res.refused) {
    const next = ps.entry + 1 < (S.levels || []).length;
    texts.push(next ? "Level won! On to the next one." : "Level won! That was the last one.");
    ps.onDismiss = next ? () => psNext() : null;
  } else {
    ps.onDismiss = null;
  }
  if (texts.length) {
    ps.overlay = texts;
    ps.won = res.won && !res.refused;
    showPsOverlay();
  }
}

/**
 * Why the last input changed nothing, beyond the status line: the rule it names
 * underlined in the editor (as a refused .puz move's statement is) and the cells it names
 * outlined on the board (psRender draws S.ps.whyCells).
 */
function psShowWhy(why) {
  const hadSpan = !!S.blockedSpan;
  S.blockedSpan = null;
  if (S.ps) S.ps.whyCells = why && why.cells ? why.cells : [];
  $("#status").title = why && why.rule ? `line ${why.rule.line}: ${why.rule.text}` : "";
  if (why && why.span && S.ps && S.ps.text === editor.getText()) {
    S.blockedSpan = why.span;
    renderMarks();
    reveal(why.span[0]);
  } else if (hadSpan) {
    renderMarks();
  }
}

function psNext() {
  const ps = S.ps;
  if (ps && ps.entry + 1 < (S.levels || []).length) psStart(ps.entry + 1);
}

/** Dismisses the shown text; after the last one, what it was waiting for (the next entry). */
function psDismiss() {
  const ps = S.ps;
  if (!ps || !ps.overlay.length) return;
  ps.overlay.shift();
  if (ps.overlay.length) { showPsOverlay(); return; }
  showPsOverlay();
  const then = ps.onDismiss;
  ps.onDismiss = null;
  if (then) then();
}

function showPsOverlay() {
  const box = $("#ps-overlay");
  const ps = S.ps;
  const text = ps && ps.overlay.length ? ps.overlay[0] : null;
  box.hidden = !text;
  box.classList.toggle("won", !!(ps && ps.won && text && text.startsWith("Level won")));
  $("#ps-overlay-text").textContent = text || "";
}

/** The keys of a PuzzleScript game; true when the key was one. */
function psKey(ev) {
  if (ev.ctrlKey || ev.metaKey) return false;
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  const ps = S.ps;
  if (ps && ps.overlay.length && !["Shift", "Control", "Alt", "Meta", "Tab"].includes(key)) {
    ev.preventDefault();
    psDismiss();
    return true;
  }
  const dirs = { ArrowUp: "u", ArrowLeft: "l", ArrowDown: "d", ArrowRight: "r", w: "u", a: "l", s: "d", d: "r" };
  let letter = dirs[key];
  if (!letter && (key === "x" || key === " ")) {
    if (ev.target.tagName === "BUTTON") return false;
    letter = "x";
    if (ps && ps.res && ps.res.noaction) { ev.preventDefault(); setStatus("this game has no action key (noaction)", "blocked"); return true; }
  }
  if (!letter && (key === "z" || key === "u" || key === "Backspace")) letter = "z";
  if (!letter && key === "r") letter = "R";
  if (!letter) return false;
  ev.preventDefault();
  showTab("play");
  psInput(letter);
  return true;
}

/** Draws the board from the game's sprites: each cell's objects in order, lower layers first. */
function psRender() {
  const ps = S.ps;
  const canvas = $("#board");
  const res = ps && ps.res;
  $("#solved-banner").hidden = true;
  if (!res || res.kind !== "level" || !ps.looks) {
    const g = canvas.getContext("2d");
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, canvas.width, canvas.height);
    $("#move-count").textContent = "0";
    $("#cost").textContent = "-";
    $("#history").textContent = "";
    renderPsKey();
    return;
  }
  const w = res.width, h = res.height;
  const room = boardRoom();
  let cell = Math.floor(Math.min(room.maxW / Math.max(w, 1), room.maxH / Math.max(h, 1)));
  cell = Math.max(5, Math.min(CELL_MAX, cell >= 10 ? cell - (cell % 5) : cell));
  const W = w * cell, H = h * cell;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, W * dpr);
  canvas.height = Math.max(1, H * dpr);
  canvas.style.width = W + "px";
  canvas.style.height = H + "px";
  canvas._cell = cell;
  canvas._board = { rows: h, cols: w };
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.imageSmoothingEnabled = false;
  g.fillStyle = ps.background || "#000";
  g.fillRect(0, 0, W, H);
  for (let i = 0; i < res.board.length; i++) {
    const x = (i % w) * cell, y = Math.floor(i / w) * cell;
    for (const id of res.board[i]) drawSprite(g, ps.looks[id], x, y, cell);
  }
  // The cells the last refusal names (the player, what blocked it).
  const marked = ps.whyCells || [];
  g.strokeStyle = "#ff3b3b";
  g.lineWidth = Math.max(2, cell / 12);
  for (const [cx, cy] of marked) {
    if (cx < w && cy < h) g.strokeRect(cx * cell + g.lineWidth / 2, cy * cell + g.lineWidth / 2, cell - g.lineWidth, cell - g.lineWidth);
  }
  canvas.dataset.why = res.why && marked.length ? marked.map((c) => c.join(",")).join(" ") : "";
  $("#move-count").textContent = String(ps.inputs.length);
  $("#cost").textContent = "-";
  $("#history").textContent = ps.inputs;
  canvas.dataset.won = String(!!res.won);
  canvas.dataset.entry = String(ps.entry);
  renderPsKey();
}

/** One object's sprite (rows of colour indices, null transparent) or its filled square. */
function drawSprite(g, look, x, y, size) {
  if (!look) return;
  const sprite = look.sprite || [];
  if (!sprite.length) {
    if (look.colors[0]) { g.fillStyle = look.colors[0]; g.fillRect(x, y, size, size); }
    return;
  }
  const n = sprite.length;
  for (let r = 0; r < n; r++) {
    const row = sprite[r] || [];
    const m = row.length || 1;
    for (let c = 0; c < row.length; c++) {
      const k = row[c];
      if (k === null || k === undefined || !look.colors[k]) continue;
      g.fillStyle = look.colors[k];
      const x0 = Math.round(x + (c * size) / m), x1 = Math.round(x + ((c + 1) * size) / m);
      const y0 = Math.round(y + (r * size) / n), y1 = Math.round(y + ((r + 1) * size) / n);
      g.fillRect(x0, y0, x1 - x0, y1 - y0);
    }
  }
}

/** The objects beside the board, each with its sprite. */
function renderPsKey() {
  const key = $("#key");
  key.textContent = "";
  const ps = S.ps;
  if (!ps || !ps.looks) return;
  for (const look of ps.looks) {
    const c = el("canvas", { width: "20", height: "20" });
    const g = c.getContext("2d");
    g.fillStyle = ps.background || "#000";
    g.fillRect(0, 0, 20, 20);
    drawSprite(g, look, 0, 0, 20);
    key.append(el("li", {}, c, el("span", { text: look.name })));
  }
}

function psDescribe(r, c) {
  const ps = S.ps;
  const res = ps && ps.res;
  if (!res || res.kind !== "level" || !ps.looks) return "\u00a0";
  const ids = res.board[r * res.width + c] || [];
  // x,y (column, row), as the server's why-not messages name cells.
  return `${c},${r}: ` + ids.map((id) => ps.looks[id] && ps.looks[id].name).join(" + ");
}

// ---------------------------------------------------------------- jobs (solve, analyze, test)

/** Follows a job's events: `onProgress` for each progress event, resolves with the result. */
function followJob(id, onProgress) {
  if (window.puzLocal) return window.puzLocal.follow(id, onProgress);
  return new Promise((resolve) => {
    let finished = false;
    const es = new EventSource(`/api/jobs/${encodeURIComponent(id)}/events`);
    es.addEventListener("progress", (ev) => {
      try { onProgress(JSON.parse(ev.data)); } catch (_) { /* a malformed event is skipped */ }
    });
    es.addEventListener("done", (ev) => {
      finished = true;
      es.close();
      let result;
      try { result = JSON.parse(ev.data); } catch (_) { result = { outcome: "error", message: "malformed result" }; }
      resolve(result);
    });
    es.onerror = () => {
      if (finished) return;
      es.close();
      // The stream broke: ask for the job's state until it ends.
      const poll = async () => {
        try {
          const st = await api("GET", `/api/jobs/${encodeURIComponent(id)}`);
          if (st.progress) onProgress(st.progress);
          if (st.state === "done") { resolve(st.result || { outcome: "error", message: "no result" }); return; }
        } catch (e) {
          resolve({ outcome: "error", message: e.message });
          return;
        }
        setTimeout(poll, 300);
      };
      poll();
    };
  });
}

function budgetFrom(timeoutSel, statesSel) {
  const b = {};
  const t = parseFloat($(timeoutSel).value);
  if (t > 0) b.timeout_ms = Math.round(t * 1000);
  const n = parseInt($(statesSel).value, 10);
  if (n > 0) b.max_states = n;
  return b;
}

/** One line of progress; `t0` is when the page started the job (its clock runs on). */
function progressText(p, budget, t0) {
  // Before a search's first state (a layered search first studies the free piece's moves;
  // a fast path builds its tables) there is nothing to count yet; a depth-first search
  // stores no states. Either way the line says so rather than "stored 0".
  const parts = p.expanded || p.stored ? [`expanded ${fmtNum(p.expanded || 0)}`, `generated ${fmtNum(p.generated || 0)}`] : ["preparing the search"];
  if (p.stored) parts.push(`stored ${fmtNum(p.stored)}`);
  const secs = Math.max(typeof p.elapsed === "number" ? p.elapsed : 0, t0 ? (performance.now() - t0) / 1000 : 0);
  parts.push(`${secs.toFixed(1)} s`);
  if (budget) {
    const lim = [];
    if (budget.max_states) lim.push(`${fmtNum(budget.max_states)} states`);
    if (budget.timeout_ms) lim.push(`${(budget.timeout_ms / 1000).toFixed(1)} s`);
    if (budget.max_memory_mb) lim.push(`${fmtNum(budget.max_memory_mb)} MiB`);
    if (lim.length) parts.push(`budget ${lim.join(", ")}`);
  }
  return parts.join(" · ");
}

function statsRows(table, rows) {
  table.textContent = "";
  for (const [k, v] of rows) {
    if (v === undefined || v === null) continue;
    table.append(el("tr", {}, el("td", { text: k }), el("td", { text: typeof v === "number" ? fmtNum(v) : String(v) })));
  }
}

// ---- Solve

let solveJob = null;
const anim = { frames: [], frame: 0, timer: 0, stepOfMove: [] };

async function startSolve() {
  if (S.validText == null) return;
  showTab("solve");
  stopAnim();
  const budget = budgetFrom("#timeout", "#max-states");
  const body = { text: S.validText, level: S.levelIndex, search: "auto", engine: "auto", metric: $("#metric").value || null, budget };
  $("#solve-summary").textContent = "";
  $("#moves").textContent = "";
  $("#solve-stats").textContent = "";
  const prog = $("#solve-progress");
  const bar = $("#solve-bar");
  let job;
  try {
    job = await api("POST", "/api/solve", body);
  } catch (e) {
    prog.textContent = `not started: ${e.message}`;
    return;
  }
  solveJob = job.job;
  $("#solve").disabled = true;
  $("#cancel").disabled = false;
  prog.textContent = progressText({}, job.budget);
  bar.hidden = false;
  bar.removeAttribute("value");
  const t0 = performance.now();
  const gen = S.gen;
  const result = await followJob(job.job, (p) => {
    if (gen !== S.gen) return;
    prog.textContent = progressText(p, job.budget, t0);
    const b = job.budget || {};
    const frac = Math.max(b.max_states ? p.stored / b.max_states : 0, b.timeout_ms ? (p.elapsed * 1000) / b.timeout_ms : 0);
    if (frac > 0) bar.value = Math.min(1, frac);
  });
  solveJob = null;
  bar.hidden = true;
  $("#solve").disabled = false;
  $("#cancel").disabled = true;
  // The file or the level changed meanwhile: this answer is about another puzzle.
  if (gen !== S.gen) return;
  prog.textContent = `finished in ${((performance.now() - t0) / 1000).toFixed(2)} s`;
  showSolveResult(result);
}

async function cancelJob(id) {
  if (!id) return;
  try {
    await api("DELETE", `/api/jobs/${encodeURIComponent(id)}`);
  } catch (e) {
    setStatus(`cancel failed: ${e.message}`, "blocked");
  }
}

/** The engine in plain words: the rules interpreted, or a solver made for this kind of puzzle. */
function engineText(r) {
  if (!r.engine) return null;
  const why = r.engine_reason ? ` (${r.engine_reason})` : "";
  if (r.engine === "interpreter") return `the rules, run as written${why}`;
  return `a solver made for puzzles like this one: ${r.engine}${why}`;
}

/** A search backend's name with what it does. */
function searchText(name) {
  const plain = {
    bfs: "breadth-first: fewest moves",
    dijkstra: "cheapest first (Dijkstra)",
    astar: "A*: cheapest first, guided by a lower bound",
    idastar: "iterative deepening A*: little memory",
    iddfs: "iterative deepening depth-first: little memory",
    bidir: "from the start and the goals at once",
    dfs: "depth-first",
    layered: "from push to push, the walks between them as one step",
    fast: "the solver's own",
  };
  if (!name) return null;
  return plain[name] ? `${plain[name]} (${name})` : name;
}

function showSolveResult(r) {
  const sum = $("#solve-summary");
  sum.textContent = "";
  sum.append(el("span", { class: `outcome ${r.outcome}`, text: r.outcome }));
  const costText = r.cost ? Object.entries(r.cost).map(([k, v]) => `${v} ${k}`).join(", ") : null;
  if (r.outcome === "solved" && costText) sum.append(document.createTextNode(`: cost ${costText}, ${(r.moves || []).length} moves`));
  if (r.message) sum.append(el("div", { class: "muted small", text: r.message }));
  for (const o of r.out_of_reach || []) sum.append(el("div", { class: "small", text: "out of reach: " + (typeof o === "string" ? o : o.message || JSON.stringify(o)) }));
  const st = r.stats || {};
  const solved = r.outcome === "solved";
  statsRows($("#solve-stats"), [
    ["solved by", engineText(r)],
    ["search", searchText(r.search)],
    // Which of the optimal answers this is means something only for an answer.
    ["canonical", !solved || r.canonical === undefined ? null : r.canonical ? "yes (the tie rule's answer)" : "no (one optimal answer)"],
    ["path", r.path],
    ["expanded", st.expanded],
    ["generated", st.generated],
    ["stored", st.stored],
    ["peak frontier", st.peak_frontier],
    ["elapsed", typeof st.elapsed === "number" ? `${(st.elapsed * 1000).toFixed(2)} ms` : null],
  ]);
  // Moves: one line each; under a metric, a counted move spans its unit steps.
  const list = $("#moves");
  list.textContent = "";
  anim.stepOfMove = [];
  let step = 0;
  (r.moves || []).forEach((m, i) => {
    const units = m.steps && m.steps.length ? m.steps.length : 1;
    step += units;
    const after = step;
    anim.stepOfMove.push(after);
    const li = el("li", { "data-step": String(after), title: `move ${i + 1}: the board after unit step ${after}` });
    li.append(el("span", { class: "letter", text: m.letter || "" }), document.createTextNode(" " + (m.line || `${m.move} ${m.piece || ""}`)));
    li.addEventListener("click", () => { stopAnim(); showFrame(after); });
    list.append(li);
  });
  anim.frames = r.frames || [];
  anim.frames.forEach((f, k) => carryLabels(k ? anim.frames[k - 1] : null, f));
  if (r.boards_omitted) sum.append(el("div", { class: "muted small", text: "The answer is too long to animate: its boards are left out." }));
  const sb = $("#solve-board");
  sb.dataset.frames = String(Math.max(0, anim.frames.length - 1));
  if (anim.frames.length) {
    showFrame(0);
    if (anim.frames.length > 1) startAnim();
  } else {
    sb.dataset.frame = "0";
    $("#frame-label").textContent = "-";
  }
}

function showFrame(k) {
  if (!anim.frames.length) return;
  k = Math.max(0, Math.min(anim.frames.length - 1, k));
  anim.frame = k;
  const sb = $("#solve-board");
  drawBoard(sb, anim.frames[k]);
  sb.dataset.frame = String(k);
  const last = anim.frames.length - 1;
  $("#frame-label").textContent = `step ${k} / ${last}${k === last ? " (end)" : ""}`;
  const movesDone = anim.stepOfMove.filter((s) => s <= k).length;
  document.querySelectorAll("#moves li").forEach((li, i) => li.classList.toggle("current", i === movesDone - 1));
  const cur = document.querySelector("#moves li.current");
  if (cur) scrollWithin($("#moves"), cur);
}

// Brings `item` into view inside the scrolling `list` alone. scrollIntoView would scroll
// every scrolling ancestor too, so stepping through an answer would pull the pane (and
// the board being animated) away under the designer's pointer.
function scrollWithin(list, item) {
  const l = list.getBoundingClientRect();
  const r = item.getBoundingClientRect();
  const top = l.top + list.clientTop;
  const bottom = top + list.clientHeight;
  if (r.top < top) list.scrollTop -= top - r.top;
  else if (r.bottom > bottom) list.scrollTop += r.bottom - bottom;
}

function startAnim() {
  stopAnim();
  if (anim.frame >= anim.frames.length - 1) showFrame(0);
  $("#anim-play").textContent = "Pause";
  anim.timer = setInterval(() => {
    showFrame(anim.frame + 1);
    if (anim.frame >= anim.frames.length - 1) stopAnim();
  }, animDelay());
}

/** Milliseconds per frame: the speed control's steps per second. */
function animDelay() {
  const perSecond = parseFloat($("#anim-speed").value) || 3;
  return Math.round(1000 / perSecond);
}

function stopAnim() {
  clearInterval(anim.timer);
  anim.timer = 0;
  $("#anim-play").textContent = "Play";
}

function toggleAnim() {
  if (anim.timer) stopAnim(); else if (anim.frames.length > 1) startAnim();
}

// ---- Analyze

let analyzeJob = null;

async function startAnalyze() {
  if (S.validText == null) return;
  showTab("analyze");
  const budget = budgetFrom("#an-timeout", "#an-max-states");
  const prog = $("#analyze-progress");
  $("#analyze-summary").textContent = "";
  let job;
  try {
    job = await api("POST", "/api/analyze", { text: S.validText, level: S.levelIndex, metric: $("#metric").value || null, budget });
  } catch (e) {
    prog.textContent = `not started: ${e.message}`;
    return;
  }
  analyzeJob = job.job;
  $("#analyze").disabled = true;
  $("#an-cancel").disabled = false;
  prog.textContent = "running";
  const t0 = performance.now();
  const gen = S.gen;
  const r = await followJob(job.job, (p) => { if (gen === S.gen) prog.textContent = progressText(p, job.budget, t0); });
  analyzeJob = null;
  $("#analyze").disabled = false;
  $("#an-cancel").disabled = true;
  if (gen !== S.gen) return;
  prog.textContent = "";
  showAnalysis(r);
}

function showAnalysis(r) {
  const sum = $("#analyze-summary");
  sum.textContent = "";
  sum.append(el("span", { class: `outcome ${r.outcome || "done"}`, text: r.outcome || "done" }));
  if (r.message) sum.append(el("div", { class: "muted small", text: r.message }));
  statsRows($("#analyze-stats"), [
    ["reachable states", r.reachable_states],
    ["transitions", r.transitions],
    ["goal states", r.goal_states],
    ["dead states", r.dead_states],
    ["moves into dead states", r.moves_into_dead_states],
    ["SCCs", r.strongly_connected_components],
    ["largest SCC", r.largest_component],
    ["reversible", r.reversible === undefined ? null : r.reversible ? "yes" : "no"],
    ["fewest moves", r.optimal_moves],
    ["optimal solutions", r.optimal_solutions],
    ["farthest distance", r.farthest_distance],
  ]);
  drawChart(r.states_at_distance || [], r.optimal_moves);
  const far = $("#farthest");
  if (r.farthest) drawBoard(far, r.farthest, { maxW: 220, maxH: 220 });
  else far.getContext("2d").clearRect(0, 0, far.width, far.height);
  drawGraph(r.graph);
}

const SVGNS = "http://www.w3.org/2000/svg";
function svg(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

/** A bar chart of states at each distance; the goal's distance is drawn green. */
function drawChart(counts, goalAt) {
  const chart = $("#chart");
  chart.textContent = "";
  const W = 380, H = 190, left = 44, bottom = 22, top = 8;
  const max = Math.max(1, ...counts);
  const bw = (W - left - 6) / Math.max(1, counts.length);
  chart.append(svg("line", { x1: left, y1: H - bottom, x2: W, y2: H - bottom }));
  chart.append(svg("line", { x1: left, y1: top, x2: left, y2: H - bottom }));
  const yl = svg("text", { x: left - 4, y: top + 8, "text-anchor": "end" });
  yl.textContent = fmtNum(max);
  chart.append(yl);
  const y0 = svg("text", { x: left - 4, y: H - bottom, "text-anchor": "end" });
  y0.textContent = "0";
  chart.append(y0);
  const every = Math.max(1, Math.ceil(counts.length / 16));
  counts.forEach((n, d) => {
    const h = ((H - bottom - top) * n) / max;
    const rect = svg("rect", { class: d === goalAt ? "bar goal" : "bar", x: left + d * bw + 1, y: H - bottom - h, width: Math.max(1, bw - 2), height: h });
    const title = svg("title");
    title.textContent = `distance ${d}: ${fmtNum(n)} position${n === 1 ? "" : "s"}${d === goalAt ? " (fewest moves to a goal)" : ""}`;
    rect.append(title);
    chart.append(rect);
    if (d % every === 0) {
      const t = svg("text", { x: left + d * bw + bw / 2, y: H - 8, "text-anchor": "middle" });
      t.textContent = String(d);
      chart.append(t);
    }
  });
}

let graphAnim = 0;
/** The state graph, laid out by a small force simulation; click a node to see its board. */
function drawGraph(graph) {
  cancelAnimationFrame(graphAnim);
  const wrap = $("#graph-wrap");
  const root = $("#graph");
  root.textContent = "";
  $("#graph-info").textContent = "";
  if (!graph || !graph.nodes || !graph.nodes.length) { wrap.hidden = true; return; }
  wrap.hidden = false;
  const W = 520, H = 380;
  const nodes = graph.nodes.map((n) => ({ ...n, x: 0, y: 0, vx: 0, vy: 0 }));
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const edges = graph.edges.map((e) => [index.get(e.from), index.get(e.to), e.label]).filter((e) => e[0] != null && e[1] != null);
  const maxDepth = Math.max(1, ...nodes.map((n) => n.depth || 0));
  // Start by depth, left to right, so the layout settles fast and reads start-to-goal.
  const perDepth = {};
  nodes.forEach((n) => {
    const d = n.depth || 0;
    const k = (perDepth[d] = (perDepth[d] || 0) + 1);
    n.x = 30 + ((W - 60) * d) / maxDepth;
    n.y = H / 2 + (k % 2 ? 1 : -1) * Math.ceil(k / 2) * 18;
  });
  const lines = edges.map(([a, b, label]) => {
    const l = svg("line", {});
    const t = svg("title");
    t.textContent = label || "";
    l.append(t);
    root.append(l);
    return l;
  });
  const r = nodes.length > 150 ? 4 : 6;
  const circles = nodes.map((n, i) => {
    const cls = [n.goal ? "goal" : "", n.dead ? "dead" : "", i === 0 || n.depth === 0 ? "start" : ""].filter(Boolean).join(" ");
    const c = svg("circle", { r, class: cls, "data-id": String(n.id) });
    const t = svg("title");
    t.textContent = `state ${n.id}, distance ${n.depth}${n.goal ? ", goal" : ""}${n.dead ? ", dead" : ""}`;
    c.append(t);
    c.addEventListener("click", () => {
      root.querySelectorAll("circle.picked").forEach((x) => x.classList.remove("picked"));
      c.classList.add("picked");
      if (n.board) drawBoard($("#graph-board"), n.board, { maxW: 220, maxH: 220 });
      const out = edges.filter((e) => e[0] === i).map((e) => e[2]).filter(Boolean);
      $("#graph-info").textContent = `state ${n.id}: distance ${n.depth}${n.goal ? ", goal" : ""}${n.dead ? ", dead" : ""}; moves: ${out.join(", ") || "none"}`;
    });
    root.append(c);
    return c;
  });
  // Drawn scaled to fill the box, whatever the simulation's extent.
  const place = () => {
    const xs = nodes.map((n) => n.x), ys = nodes.map((n) => n.y);
    const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
    const sc = Math.min((W - 24) / Math.max(1, x1 - x0), (H - 24) / Math.max(1, y1 - y0), 3);
    const ox = (W - (x1 - x0) * sc) / 2, oy = (H - (y1 - y0) * sc) / 2;
    const X = (n) => ((n.x - x0) * sc + ox).toFixed(1);
    const Y = (n) => ((n.y - y0) * sc + oy).toFixed(1);
    edges.forEach(([a, b], k) => {
      lines[k].setAttribute("x1", X(nodes[a]));
      lines[k].setAttribute("y1", Y(nodes[a]));
      lines[k].setAttribute("x2", X(nodes[b]));
      lines[k].setAttribute("y2", Y(nodes[b]));
    });
    nodes.forEach((n, i) => {
      circles[i].setAttribute("cx", X(n));
      circles[i].setAttribute("cy", Y(n));
    });
  };
  // Fruchterman-Reingold, with a pull towards each node's column by distance.
  const k = Math.max(10, Math.sqrt((W * H) / nodes.length) * 0.45);
  let temp = W / 8;
  const tick = () => {
    for (const n of nodes) { n.vx = 0; n.vy = 0; }
    for (let i = 0; i < nodes.length; i++) {
      const a = nodes[i];
      for (let j = i + 1; j < nodes.length; j++) {
        const b = nodes[j];
        let dx = a.x - b.x, dy = a.y - b.y;
        let d = Math.sqrt(dx * dx + dy * dy);
        if (d < 0.01) { dx = Math.random() - 0.5; dy = Math.random() - 0.5; d = 0.5; }
        if (d > 4 * k) continue;
        const f = (k * k) / d / d;
        a.vx += dx * f; a.vy += dy * f;
        b.vx -= dx * f; b.vy -= dy * f;
      }
    }
    for (const [i, j] of edges) {
      if (i === j) continue;
      const a = nodes[i], b = nodes[j];
      const dx = b.x - a.x, dy = b.y - a.y;
      const d = Math.sqrt(dx * dx + dy * dy) || 0.01;
      const f = d / k;
      a.vx += dx * f; a.vy += dy * f;
      b.vx -= dx * f; b.vy -= dy * f;
    }
    for (const n of nodes) {
      n.vx += (30 + ((W - 60) * (n.depth || 0)) / maxDepth - n.x) * 1.5;
      n.vy += (H / 2 - n.y) * 0.1;
      const len = Math.sqrt(n.vx * n.vx + n.vy * n.vy) || 1;
      const step = Math.min(len, temp);
      n.x = Math.max(8, Math.min(W - 8, n.x + (n.vx / len) * step));
      n.y = Math.max(8, Math.min(H - 8, n.y + (n.vy / len) * step));
    }
    temp = Math.max(0.5, temp * 0.97);
  };
  let steps = 0;
  const frame = () => {
    for (let k = 0; k < 3; k++) tick();
    place();
    steps += 3;
    if (steps < 300) graphAnim = requestAnimationFrame(frame);
  };
  frame();
}

// ---- Tests

let testJob = null;

/**
 * Runs every `expect` line of the file (`puz test`) and badges the levels. The whole run
 * shares one budget: the server's longest time limit, the Solve tab's state limit. While
 * it runs, the button cancels it.
 */
async function runTests() {
  if (testJob) { cancelJob(testJob); return; }
  const text = S.validText;
  if (text == null) { $("#test-status").textContent = "the rules do not load"; return; }
  const btn = $("#run-tests");
  $("#test-status").textContent = "running";
  for (const lv of S.levels || []) S.tests[lv.index] = [{ status: "running" }];
  renderLevels();
  const budget = { timeout_ms: 120000 };
  const n = parseInt($("#max-states").value, 10);
  if (n > 0) budget.max_states = n;
  try {
    const job = await api("POST", "/api/test", { text, budget });
    testJob = job.job;
    btn.textContent = "Cancel tests";
    const gen = S.gen;
    const r = await followJob(job.job, () => {});
    if (gen !== S.gen) return;
    S.tests = {};
    for (const row of r.levels || []) (S.tests[row.index] = S.tests[row.index] || []).push(row);
    const rows = r.levels || [];
    const count = (st) => rows.filter((l) => st.includes(l.status)).length;
    const summary = `${count(["pass"])} passed, ${count(["fail", "error", "cutoff"])} failed, ${count(["none"])} without expectation`;
    $("#test-status").textContent = r.outcome === "done" ? summary : `${r.outcome}${r.message ? ": " + r.message : ""}`;
    $("#test-status").title = r.message || "";
  } catch (e) {
    S.tests = {};
    $("#test-status").textContent = `not run: ${e.message}`;
  } finally {
    testJob = null;
    btn.textContent = "Run tests";
    renderLevels();
  }
}

// ---------------------------------------------------------------- tabs and wiring

let currentTab = "play";
function showTab(name) {
  currentTab = name;
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.tab === name);
  for (const p of document.querySelectorAll(".pane")) p.classList.toggle("active", p.id === `pane-${name}`);
}

function wire() {
  document.addEventListener("keydown", onKey);
  $("#file-select").addEventListener("change", async (ev) => {
    const path = ev.target.value;
    if (editor.getText() !== S.savedText && !confirm("Discard unsaved changes?")) {
      ev.target.value = S.file;
      return;
    }
    try { await openFile(path); } catch (e) { setStatus(`Could not open ${path}: ${e.message}`, "blocked"); }
  });
  $("#save").addEventListener("click", () => saveFile());
  $("#save-as").addEventListener("click", () => openNameDialog("saveas"));
  $("#new-file").addEventListener("click", () => openNameDialog("new"));
  $("#conflict-overwrite").addEventListener("click", overwriteOnDisk);
  $("#conflict-reload").addEventListener("click", reloadFromDisk);
  $("#name-form").addEventListener("submit", (ev) => { ev.preventDefault(); confirmNameDialog(); });
  $("#name-cancel").addEventListener("click", () => $("#name-dialog").close());
  $("#template-select").addEventListener("change", () => { $("#name-input").value = `${$("#template-select").value}.puz`; });
  $("#board").addEventListener("click", onBoardClick);
  $("#board").addEventListener("mousemove", (ev) => {
    const at = cellAt($("#board"), ev);
    if (S.lang === "ps") { $("#hover-info").textContent = at ? psDescribe(at[0], at[1]) : "\u00a0"; return; }
    $("#hover-info").textContent = at && S.game ? describeCell(S.game.board, at[0], at[1]) : "\u00a0";
  });
  $("#undo").addEventListener("click", () => { undo(); $("#board").focus(); });
  $("#restart").addEventListener("click", () => { restart(); $("#board").focus(); });
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => showTab(b.dataset.tab));
  $("#ps-overlay").addEventListener("click", () => { psDismiss(); $("#board").focus(); });
  $("#solve").addEventListener("click", startSolve);
  $("#cancel").addEventListener("click", () => cancelJob(solveJob));
  $("#analyze").addEventListener("click", startAnalyze);
  $("#an-cancel").addEventListener("click", () => cancelJob(analyzeJob));
  $("#run-tests").addEventListener("click", runTests);
  $("#anim-play").addEventListener("click", toggleAnim);
  $("#anim-step").addEventListener("click", () => { stopAnim(); showFrame(anim.frame + 1); });
  $("#anim-back").addEventListener("click", () => { stopAnim(); showFrame(anim.frame - 1); });
  $("#anim-first").addEventListener("click", () => { stopAnim(); showFrame(0); });
  $("#anim-last").addEventListener("click", () => { stopAnim(); showFrame(anim.frames.length - 1); });
  $("#anim-speed").addEventListener("change", () => { if (anim.timer) startAnim(); });
  window.addEventListener("resize", onResize);
  window.addEventListener("beforeunload", (ev) => {
    if (S.savedText !== null && editor.getText() !== S.savedText) ev.preventDefault();
  });
}

let resizeTimer = 0;
/** Boards follow the window: redrawn to the new room once resizing settles. */
function onResize() {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    if (S.lang === "ps") psRender();
    else renderGame();
    if (anim.frames.length) showFrame(anim.frame);
    if (typeof paintRender === "function") paintRender();
  }, 60);
}

wire();
loadFiles();
