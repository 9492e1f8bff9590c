// The two languages the playground edits, as CodeMirror stream parsers: `.puz` rule files
// (keywords from grammar/puz.pest) and PuzzleScript games (its sections, parenthesised
// comments, rule brackets and direction words). Each also lists its keywords and the names
// a file declares, for completion.

import { StreamLanguage } from "@codemirror/language";

// ---------------------------------------------------------------- .puz

/** Keywords that open a top-level declaration. */
export const PUZ_DECLARATIONS = [
  "puzzle", "tiles", "outside", "marks", "piece", "legend", "dirs", "cost", "metric",
  "limit", "counter", "move", "forbid", "goal", "level", "judge", "look",
];

/** Keywords that open a statement of a move's program. */
export const PUZ_STATEMENTS = [
  "letters", "adds", "require", "shift", "swap", "turn", "slide", "remove", "create",
  "change", "toggle", "if", "else", "for",
];

/** Every other keyword: conditions, modifiers, slide events and actions, judge words. */
export const PUZ_WORDS = [
  "anonymous", "single", "pose", "straight", "chain", "and", "or", "not", "on", "at", "as",
  "in", "each", "cell", "count", "chars", "ints", "expect", "none", "into", "before",
  "off", "board", "stop", "break", "lose", "max", "has", "start", "everywhere", "cases",
  "until", "once", "header", "rows", "cols", "queries", "grid", "query", "base", "print",
  "solved", "unsolved", "invalid", "sprite",
];

const puzDecl = new Set(PUZ_DECLARATIONS);
const puzStmt = new Set(PUZ_STATEMENTS);
const puzWord = new Set(PUZ_WORDS);
/** After these keywords the next name is the one being declared. */
const puzDefines = new Set(["piece", "pose", "move", "counter", "metric"]);

export const puzLanguage = StreamLanguage.define({
  name: "puz",
  startState: () => ({ depth: 0, inText: false, defineNext: false }),
  copyState: (s) => ({ ...s }),
  token(stream, state) {
    if (state.inText) {
      // Inside a level's `"""` block: the picture, up to the closing quotes.
      if (stream.match(/^.*?"""/)) {
        state.inText = false;
        return "string.special";
      }
      stream.skipToEnd();
      return "string.special";
    }
    if (stream.eatSpace()) return null;
    if (stream.match("//")) {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match('"""')) {
      if (stream.match(/^.*?"""/)) return "string.special";
      state.inText = true;
      stream.skipToEnd();
      return "string.special";
    }
    if (stream.match(/^"(?:[^"\\\n]|\\.)*"?/)) return "string";
    if (stream.match(/^'(?:\\.|[^'\n])'?/)) return "character";
    if (stream.match(/^#[0-9A-Fa-f]{3}(?:[0-9A-Fa-f]{3})?(?![\w])/)) return "color";
    if (stream.match(/^-?\d+/)) return "number";
    if (stream.match(/^[A-Za-z_]\w*/)) {
      const w = stream.current();
      if (state.defineNext) {
        state.defineNext = false;
        return "definition";
      }
      if (puzDefines.has(w)) state.defineNext = true;
      if (puzDecl.has(w)) return "keyword";
      if (puzStmt.has(w)) return "controlKeyword";
      if (puzWord.has(w)) return "operatorKeyword";
      return "variableName";
    }
    const ch = stream.next();
    if (ch === "{") { state.depth++; return "brace"; }
    if (ch === "}") { state.depth = Math.max(0, state.depth - 1); return "brace"; }
    if (ch === "(" || ch === ")") return "paren";
    if (ch === "-" && stream.eat(">")) return "operator";
    if ("=!<>".includes(ch)) { stream.eat("="); return "compareOperator"; }
    if (ch === "+" || ch === "-") { stream.eat("="); return "operator"; }
    if (ch === "," || ch === ":" || ch === ".") return "punctuation";
    return null;
  },
  indent(state, textAfter, cx) {
    if (state.inText) return null;
    const closing = /^\s*\}/.test(textAfter) ? 1 : 0;
    return Math.max(0, state.depth - closing) * cx.unit;
  },
  languageData: {
    commentTokens: { line: "//" },
    indentOnInput: /^\s*\}$/,
    closeBrackets: { brackets: ["(", "{", '"', "'"] },
  },
});

/** The names a `.puz` file declares: tiles, marks, pieces, poses, dirs, moves, counters, metrics, costs. */
export function puzNames(text) {
  const clean = text.replace(/"""[\s\S]*?("""|$)/g, " ").replace(/\/\/.*$/gm, "");
  const out = new Map();
  const add = (name, kind) => {
    if (/^[A-Za-z_]\w*$/.test(name) && !out.has(name)) out.set(name, kind);
  };
  const block = (kw, kind, each) => {
    const re = new RegExp(`\\b${kw}\\s*\\{([^}]*)\\}`, "g");
    for (const m of clean.matchAll(re)) each(m[1], kind);
  };
  block("tiles", "tile", (body, kind) => {
    for (const w of body.match(/[A-Za-z_]\w*/g) || []) add(w, kind);
  });
  block("marks", "mark", (body, kind) => {
    for (const w of body.match(/[A-Za-z_]\w*/g) || []) if (w !== "single") add(w, kind);
  });
  block("dirs", "direction", (body, kind) => {
    for (const m of body.matchAll(/([A-Za-z_]\w*)\s*\(/g)) add(m[1], kind);
  });
  for (const [kw, kind] of [["piece", "piece"], ["pose", "pose"], ["move", "move"], ["counter", "counter"], ["metric", "metric"]]) {
    for (const m of clean.matchAll(new RegExp(`\\b${kw}\\s+([A-Za-z_]\\w*)`, "g"))) add(m[1], kind);
  }
  for (const m of clean.matchAll(/^\s*cost\s+([^\n]*)/gm)) {
    for (const w of m[1].split(",")) add(w.trim(), "cost");
  }
  return out;
}

// ---------------------------------------------------------------- PuzzleScript

export const PS_SECTIONS = ["OBJECTS", "LEGEND", "SOUNDS", "COLLISIONLAYERS", "RULES", "WINCONDITIONS", "LEVELS"];

/** Words of rules: directions, modifiers and commands. */
export const PS_RULE_WORDS = [
  "up", "down", "left", "right", "moving", "stationary", "action", "no", "randomdir",
  "random", "perpendicular", "parallel", "horizontal", "vertical", "orthogonal", "late",
  "rigid", "again", "cancel", "win", "restart", "checkpoint", "message", "startloop",
  "endloop", "sfx0", "sfx1", "sfx2", "sfx3", "sfx4", "sfx5", "sfx6", "sfx7", "sfx8",
  "sfx9", "sfx10",
];

/** Words of the other sections: win conditions, legend joins, the prelude's settings. */
export const PS_WORDS = [
  "all", "some", "any", "on", "and", "or", "title", "author", "homepage", "color_palette",
  "background_color", "text_color", "noaction", "noundo", "norestart", "require_player_movement",
  "run_rules_on_level_start", "key_repeat_interval", "realtime_interval", "again_interval",
  "throttle_movement", "flickscreen", "zoomscreen", "debug", "verbose_logging", "youtube",
  "scanline",
];

const psSectionSet = new Set(PS_SECTIONS);
const psRuleWords = new Set(PS_RULE_WORDS);
const psWords = new Set(PS_WORDS);
const psColors = new Set([
  "black", "white", "gray", "grey", "darkgray", "darkgrey", "lightgray", "lightgrey", "red",
  "darkred", "lightred", "brown", "darkbrown", "lightbrown", "orange", "yellow", "green",
  "darkgreen", "lightgreen", "blue", "lightblue", "darkblue", "purple", "pink", "transparent",
]);

export const psLanguage = StreamLanguage.define({
  name: "puzzlescript",
  startState: () => ({ comment: 0, section: "", lineStart: true }),
  copyState: (s) => ({ ...s }),
  token(stream, state) {
    if (stream.sol()) state.lineStart = true;
    if (state.comment > 0) {
      // Comments nest: ( a ( b ) c ).
      while (!stream.eol()) {
        const ch = stream.next();
        if (ch === "(") state.comment++;
        else if (ch === ")" && --state.comment === 0) break;
      }
      return "comment";
    }
    if (stream.eatSpace()) return null;
    if (stream.peek() === "(") {
      stream.next();
      state.comment = 1;
      return "comment";
    }
    const first = state.lineStart;
    state.lineStart = false;
    if (first && stream.match(/^=+\s*$/)) return "meta";
    if (first && stream.match(/^[A-Za-z]+(?=\s*(\(|$))/)) {
      const w = stream.current().toUpperCase();
      if (psSectionSet.has(w)) {
        state.section = w;
        return "heading";
      }
      stream.backUp(stream.current().length);
    }
    const sec = state.section;
    if (sec === "LEVELS") {
      if (first && stream.match(/^message\b/i)) {
        stream.skipToEnd();
        return "string";
      }
      stream.match(/^[^(]+/);
      return "string.special";
    }
    if (sec === "OBJECTS") {
      if (stream.match(/^#[0-9a-fA-F]{3,8}\b/)) return "color";
      if (first && stream.match(/^[0-9.]+$/)) return "number";
      if (stream.match(/^[^\s(]+/)) {
        const w = stream.current().toLowerCase();
        if (psColors.has(w)) return "color";
        return first ? "definition" : "variableName";
      }
    }
    if (sec === "RULES") {
      const ch = stream.peek();
      if (ch === "[" || ch === "]") { stream.next(); return "squareBracket"; }
      if (ch === "|") { stream.next(); return "separator"; }
      if (stream.match("->")) return "operator";
      if (stream.match(/^(>|<|\^|v)(?=[\s\]|])/)) return "operatorKeyword";
      if (stream.match(/^\+/)) return "operator";
    }
    if (sec === "LEGEND" && stream.eat("=")) return "operator";
    if (stream.match(/^[^\s()[\]|=]+/)) {
      const w = stream.current().toLowerCase();
      if (sec === "RULES" && w === "message") {
        stream.skipToEnd();
        return "controlKeyword";
      }
      if (sec === "RULES" && psRuleWords.has(w)) return "controlKeyword";
      if (sec !== "RULES" && psWords.has(w)) return "keyword";
      if (sec === "" || sec === "SOUNDS") return psRuleWords.has(w) || psWords.has(w) ? "keyword" : null;
      if (sec === "LEGEND" && first) return "definition";
      return "variableName";
    }
    stream.next();
    return null;
  },
  languageData: {
    commentTokens: { block: { open: "(", close: ")" } },
    closeBrackets: { brackets: ["(", "["] },
  },
});

/** The names a PuzzleScript game declares: its objects and its legend's symbols and names. */
export function psNames(text) {
  const out = new Map();
  const lines = text.replace(/\([^()]*\)/g, " ").split("\n");
  let section = "";
  let prevBlank = true;
  for (const raw of lines) {
    const line = raw.trim();
    if (/^=+$/.test(line)) continue;
    const head = line.toUpperCase();
    if (psSectionSet.has(head)) { section = head; prevBlank = true; continue; }
    if (!line) { prevBlank = true; continue; }
    if (section === "OBJECTS" && prevBlank) {
      for (const w of line.split(/\s+/)) if (/^[A-Za-z_]\w*$/.test(w) && !out.has(w)) out.set(w, "object");
    }
    if (section === "LEGEND") {
      const m = /^(\S+)\s*=/.exec(line);
      if (m && /^[A-Za-z_]\w*$/.test(m[1]) && !out.has(m[1])) out.set(m[1], "legend");
    }
    prevBlank = false;
  }
  return out;
}
