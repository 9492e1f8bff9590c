// The playground's code editor: CodeMirror 6 with the `.puz` and PuzzleScript languages,
// line numbers, bracket matching, auto-indent, completion of keywords and the file's own
// names, and the server's diagnostics as lint marks (gutter and underlines). Bundled by
// scripts/build-editor into src/serve/assets/editor.js, which defines `window.PuzEditor`;
// app.js drives it through the small object `PuzEditor.create` returns.

import { EditorState, StateEffect, StateField, Compartment, EditorSelection } from "@codemirror/state";
import {
  EditorView, Decoration, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, highlightSpecialChars,
} from "@codemirror/view";
import {
  bracketMatching, indentOnInput, indentUnit, syntaxHighlighting, HighlightStyle,
} from "@codemirror/language";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { autocompletion, completionKeymap } from "@codemirror/autocomplete";
import { searchKeymap, highlightSelectionMatches } from "@codemirror/search";
import { setDiagnostics, lintGutter } from "@codemirror/lint";
import { tags as t } from "@lezer/highlight";
import {
  puzLanguage, psLanguage, puzNames, psNames, PUZ_DECLARATIONS, PUZ_STATEMENTS, PUZ_WORDS,
  PS_SECTIONS, PS_RULE_WORDS, PS_WORDS,
} from "./languages.js";

const style = HighlightStyle.define([
  { tag: t.comment, color: "#7a7f87", fontStyle: "italic" },
  { tag: t.keyword, color: "#7a2bbf", fontWeight: "600" },
  { tag: t.controlKeyword, color: "#0b63b6", fontWeight: "600" },
  { tag: t.operatorKeyword, color: "#0b7a75" },
  { tag: t.definition(t.variableName), color: "#a04a00", fontWeight: "600" },
  { tag: t.string, color: "#1f7a1f" },
  { tag: t.special(t.string), color: "#4b5a2a", background: "#f4f6ec" },
  { tag: t.character, color: "#1f7a1f" },
  { tag: t.number, color: "#b3261e" },
  { tag: t.heading, color: "#7a2bbf", fontWeight: "700" },
  { tag: t.meta, color: "#9aa0a6" },
  { tag: t.color, color: "#a04a00" },
  { tag: [t.squareBracket, t.brace, t.paren], color: "#444" },
  { tag: [t.operator, t.compareOperator, t.separator], color: "#0b7a75" },
]);

/** The rule a refused move stopped at: one highlighted span, gone with the next edit. */
const setBlocked = StateEffect.define();
const blockedMark = Decoration.mark({ class: "cm-blocked" });
const blockedField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) {
      if (e.is(setBlocked)) {
        const v = e.value;
        return v && v.from < v.to && v.to <= tr.state.doc.length
          ? Decoration.set([blockedMark.range(v.from, v.to)]) : Decoration.none;
      }
    }
    return tr.docChanged ? Decoration.none : deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/** Completion: the language's keywords and the names the file declares. */
function completions(langName) {
  return (cx) => {
    const word = cx.matchBefore(/[A-Za-z_][\w]*/);
    if (!word || (word.from === word.to && !cx.explicit)) return null;
    const text = cx.state.doc.toString();
    const options = [];
    const names = langName() === "ps" ? psNames(text) : puzNames(text);
    const typed = cx.state.sliceDoc(word.from, word.to);
    for (const [name, kind] of names) {
      if (name !== typed) options.push({ label: name, type: "variable", detail: kind, boost: 1 });
    }
    const kw = (list, detail) => {
      for (const k of list) options.push({ label: k, type: "keyword", detail });
    };
    if (langName() === "ps") {
      kw(PS_SECTIONS, "section");
      kw(PS_RULE_WORDS, "rules");
      kw(PS_WORDS, "keyword");
    } else {
      kw(PUZ_DECLARATIONS, "declaration");
      kw(PUZ_STATEMENTS, "statement");
      kw(PUZ_WORDS, "keyword");
    }
    return { from: word.from, options, validFor: /^[\w]*$/ };
  };
}

/**
 * Makes an editor in `parent`. `opts`: `onChange(text, changes)` after each edit (changes:
 * a function mapping an old offset to a new one), `onCaret(pos)` when the selection moves,
 * `onEscape()` on Esc, `lang` ("puz" or "ps").
 */
function create(parent, opts = {}) {
  let lang = opts.lang || "puz";
  const language = new Compartment();
  const langExt = (l) => (l === "ps" ? psLanguage : puzLanguage);
  const listener = EditorView.updateListener.of((u) => {
    if (u.docChanged && opts.onChange) {
      const changes = u.changes;
      opts.onChange(u.state.doc.toString(), (pos, assoc) => changes.mapPos(pos, assoc || -1));
    }
    if ((u.selectionSet || u.docChanged) && opts.onCaret) opts.onCaret(u.state.selection.main.head);
  });
  const escape = keymap.of([{
    key: "Escape",
    run: () => {
      if (!opts.onEscape) return false;
      opts.onEscape();
      return true;
    },
  }]);
  const extensions = [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    indentOnInput(),
    indentUnit.of("  "),
    EditorState.tabSize.of(2),
    bracketMatching(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    autocompletion({ override: [completions(() => lang)], activateOnTypingDelay: 250 }),
    lintGutter(),
    syntaxHighlighting(style),
    language.of(langExt(lang)),
    blockedField,
    listener,
    keymap.of([...completionKeymap]),
    escape,
    keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, indentWithTab]),
    EditorView.contentAttributes.of({ "aria-label": "rule file text", spellcheck: "false", autocapitalize: "off", autocorrect: "off" }),
  ];
  const view = new EditorView({ parent, state: EditorState.create({ doc: "", extensions }) });

  return {
    view,
    /** The text. */
    getText: () => view.state.doc.toString(),
    /** Replaces the text (a file opened): undo history, diagnostics and highlight start over. */
    setText(text) {
      view.setState(EditorState.create({ doc: text, extensions }));
      view.scrollDOM.scrollTop = 0;
    },
    /** Replaces the whole text as one undoable edit (as typing would). */
    replaceText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    /** "puz" or "ps": the colouring, indentation and completion used. */
    setLanguage(l) {
      if (l === lang) return;
      lang = l;
      view.dispatch({ effects: language.reconfigure(langExt(l)) });
    },
    getLanguage: () => lang,
    /**
     * The server's diagnostics: `{from, to, severity: "error"|"warning", message, code}`
     * in UTF-16 offsets; gutter marks and underlines until the next call.
     */
    setDiagnostics(list) {
      const len = view.state.doc.length;
      const diags = list.map((d) => {
        const from = Math.max(0, Math.min(len, d.from));
        const to = Math.max(from, Math.min(len, d.to));
        return { from, to, severity: d.severity === "warning" ? "warning" : "error", message: d.message, source: d.code || undefined };
      });
      view.dispatch(setDiagnostics(view.state, diags));
    },
    /** Highlights [from, to) (the statement that refused a move); null clears it. */
    setBlocked(from, to) {
      view.dispatch({ effects: setBlocked.of(from == null ? null : { from, to }) });
    },
    /** Selects [from, to), scrolls it into view and focuses the editor. */
    select(from, to) {
      const len = view.state.doc.length;
      from = Math.max(0, Math.min(len, from));
      to = Math.max(from, Math.min(len, to));
      view.dispatch({ selection: EditorSelection.single(from, to), effects: EditorView.scrollIntoView(from, { y: "center" }) });
      view.focus();
    },
    /** Scrolls offset `pos` into view without moving the focus. */
    reveal(pos) {
      pos = Math.max(0, Math.min(view.state.doc.length, pos));
      view.dispatch({ effects: EditorView.scrollIntoView(pos, { y: "nearest", yMargin: 40 }) });
    },
    /** The caret's offset. */
    caret: () => view.state.selection.main.head,
    focus: () => view.focus(),
    hasFocus: () => view.hasFocus,
    blur: () => view.contentDOM.blur(),
    /** Whether `node` is inside the editor. */
    contains: (node) => view.dom.contains(node),
  };
}

window.PuzEditor = { create };
