//! The prelude and the sections of declarations: objects, legend, sounds, collision
//! layers, win conditions.

use pest::iterators::Pair;

use super::{name_of, range, span_of, Item, Lower, R};
use crate::diagnostics::PsProblem;
use crate::puzzlescript::ast::*;
use crate::syntax::Span;

/// Prelude settings that take a value (PuzzleScript's `metadata_with_value`).
const WITH_VALUE: [&str; 12] = [
    "title",
    "author",
    "homepage",
    "background_color",
    "text_color",
    "key_repeat_interval",
    "realtime_interval",
    "again_interval",
    "flickscreen",
    "zoomscreen",
    "color_palette",
    "youtube",
];
/// Prelude settings that take none (`metadata_no_value`).
const NO_VALUE: [&str; 10] = [
    "run_rules_on_level_start",
    "norepeat_action",
    "require_player_movement",
    "debug",
    "verbose_logging",
    "throttle_movement",
    "noundo",
    "noaction",
    "norestart",
    "scanline",
];

/// PuzzleScript's colour names.
pub(crate) const COLOR_NAMES: [&str; 25] = [
    "black",
    "white",
    "gray",
    "darkgray",
    "lightgray",
    "grey",
    "darkgrey",
    "lightgrey",
    "red",
    "darkred",
    "lightred",
    "brown",
    "darkbrown",
    "lightbrown",
    "orange",
    "yellow",
    "green",
    "darkgreen",
    "lightgreen",
    "blue",
    "lightblue",
    "darkblue",
    "purple",
    "pink",
    "transparent",
];

/// Splits a lowercased word of a colour line into colours as PuzzleScript's pattern reads
/// them (names and `#rgb`/`#rrggbb`, with or without spaces between): each colour's byte
/// range, or the offset where the word stops being colours.
fn split_colors(w: &str) -> Result<Vec<(usize, usize)>, usize> {
    let mut out = vec![];
    let mut i = 0;
    while i < w.len() {
        let rest = &w[i..];
        let len = if let Some(hex) = rest.strip_prefix('#') {
            let digits = hex.bytes().take_while(|b| b.is_ascii_hexdigit()).count();
            match digits {
                0..=2 => return Err(i),
                3..=5 => 4,
                _ => 7,
            }
        } else {
            match COLOR_NAMES.iter().find(|c| rest.starts_with(**c)) {
                Some(c) => c.len(),
                None => return Err(i),
            }
        };
        out.push((i, i + len));
        i += len;
    }
    Ok(out)
}

/// Whether a character may be in a PuzzleScript name (`[\p{L}\p{N}_]`).
fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The tokens of a logical line (its comments dropped).
fn tokens<'i>(seg: Vec<Item<'i>>) -> Vec<Pair<'i, R>> {
    seg.into_iter()
        .filter_map(|i| match i {
            Item::Tok(t) => Some(t),
            Item::Comment(_) => None,
        })
        .collect()
}

/// Where the object being read is: PuzzleScript's `objects_section` state.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ObjState {
    /// Expecting a name line.
    Name,
    /// After the name line: the next line is colours.
    Named,
    /// After the colour line: the next line is a sprite row, or a new name.
    Colored,
    /// Reading sprite rows.
    Sprite,
}

impl<'s> Lower<'s> {
    pub(super) fn prelude(&mut self, pair: Pair<'s, R>) {
        let mut seen: Vec<(String, usize)> = vec![];
        for line in pair.into_inner() {
            match line.as_rule() {
                R::equals_line => self.equals_line(line),
                R::prelude_line => {
                    for seg in self.segments(line) {
                        let mut after_comment = false;
                        let mut setting_done = false;
                        for item in seg {
                            match item {
                                Item::Comment(_) => after_comment = setting_done,
                                Item::Tok(t) if t.as_rule() == R::setting && !setting_done => {
                                    setting_done = true;
                                    self.setting(t, &mut seen);
                                }
                                Item::Tok(t) => {
                                    if after_comment {
                                        self.warning(PsProblem::PreludeExtra {
                                            span: span_of(&t).into(),
                                            what: "Error: you can't embed comments in metadata values. Anything after the comment will be ignored.".into(),
                                        });
                                    }
                                    break;
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn setting(&mut self, t: Pair<'s, R>, seen: &mut Vec<(String, usize)>) {
        let span = span_of(&t);
        let mut key = None;
        let mut value = None;
        for p in t.into_inner() {
            match p.as_rule() {
                R::key => key = Some(name_of(&p)),
                R::value => {
                    let (a, _) = range(span_of(&p));
                    let raw = p.as_str();
                    let lead = raw.len() - raw.trim_start().len();
                    let trimmed = raw.trim();
                    if !trimmed.is_empty() {
                        let s = a + lead;
                        value = Some((trimmed.to_string(), Span::new(s, s + trimmed.len())));
                    }
                }
                _ => {}
            }
        }
        let Some(key) = key else { return };
        let k = key.text.as_str();
        let line = self.line_of(range(span).0);
        if WITH_VALUE.contains(&k) {
            if value.is_none() {
                self.error(PsProblem::PreludeValue {
                    span: key.span.into(),
                    what: format!("MetaData \"{k}\" needs a value."),
                });
                return;
            }
        } else if NO_VALUE.contains(&k) {
            if let Some((v, vs)) = &value {
                self.warning(PsProblem::PreludeExtra {
                    span: (*vs).into(),
                    what: format!(
                        "MetaData {} doesn't take any parameters, but you went and gave it \"{v}\".",
                        k.to_uppercase()
                    ),
                });
            }
            value = None;
        } else {
            self.error(PsProblem::PreludeUnknown {
                span: key.span.into(),
                what: "Unrecognised stuff in the prelude.".into(),
            });
            return;
        }
        if let Some((_, other)) = seen.iter().find(|(s, _)| s == k) {
            if WITH_VALUE.contains(&k) {
                self.warning(PsProblem::PreludeExtra {
                    span: key.span.into(),
                    what: format!(
                        "You've already defined a {} in the prelude on line {other}.",
                        k.to_uppercase()
                    ),
                });
            }
        }
        seen.push((k.to_string(), line));
        self.game.prelude.push(Setting { key, value, span });
    }

    pub(super) fn objects(&mut self, body: Vec<Pair<'s, R>>) {
        let mut state = ObjState::Name;
        // Colour indices already reported, per line, as PuzzleScript reports each once.
        let mut reported: Vec<(usize, u32)> = vec![];
        for line in body {
            match line.as_rule() {
                R::blank_line => state = ObjState::Name,
                R::equals_line => self.equals_line(line),
                _ => {
                    for seg in self.segments(line) {
                        let toks = tokens(seg);
                        if toks.is_empty() {
                            continue;
                        }
                        state = match state {
                            ObjState::Named => ObjState::Colored,
                            ObjState::Colored => ObjState::Sprite,
                            s => s,
                        };
                        state = match state {
                            ObjState::Name | ObjState::Named => self.object_name(&toks),
                            ObjState::Colored => {
                                self.object_colors(&toks);
                                ObjState::Colored
                            }
                            ObjState::Sprite => self.sprite_row(&toks, &mut reported),
                        };
                    }
                }
            }
        }
    }

    /// A name line: a new object and its synonyms.
    fn object_name(&mut self, toks: &[Pair<'s, R>]) -> ObjState {
        let first = &toks[0];
        let text = first.as_str();
        let (a, _) = range(span_of(first));
        let name_len: usize = text
            .char_indices()
            .find(|(_, c)| !is_name_char(*c))
            .map(|(i, _)| i)
            .unwrap_or(text.len());
        if name_len == 0 {
            self.warning(PsProblem::ObjectJunk {
                span: span_of(first).into(),
                what: "Unknown junk in object section (possibly: sprites have to be 5 pixels wide and 5 pixels high exactly. Or maybe: the main names for objects have to be words containing only the letters a-z0.9 - if you want to call them something like \",\", do it in the legend section).".into(),
            });
            return ObjState::Name;
        }
        let name = Name {
            text: text[..name_len].to_lowercase(),
            span: Span::new(a, a + name_len),
        };
        let mut synonyms = vec![];
        if name_len < text.len() {
            synonyms.push(Name {
                text: text[name_len..].to_lowercase(),
                span: Span::new(a + name_len, a + text.len()),
            });
        }
        synonyms.extend(toks[1..].iter().map(name_of));
        let end = toks.last().map(span_of).unwrap_or(name.span);
        self.game.objects.push(Object {
            span: name.span.merge(end),
            name,
            synonyms,
            colors: vec![],
            sprite: vec![],
            sprite_span: None,
        });
        ObjState::Named
    }

    fn object_colors(&mut self, toks: &[Pair<'s, R>]) {
        let Some(obj) = self.game.objects.last() else {
            return;
        };
        let oname = obj.name.text.to_uppercase();
        let mut colors = vec![];
        let mut bad = vec![];
        for t in toks {
            let raw = t.as_str();
            let (a, b) = range(span_of(t));
            // Lowercasing keeps byte offsets for ASCII; other text is not a colour anyway.
            let w = raw.to_ascii_lowercase();
            let (found, stop) = match split_colors(&w) {
                Ok(found) => (found, None),
                Err(at) => (split_colors(&w[..at]).unwrap_or_default(), Some(at)),
            };
            for (i, j) in found {
                colors.push((w[i..j].to_string(), Span::new(a + i, a + j)));
            }
            if let Some(at) = stop {
                bad.push(PsProblem::BadColor {
                    span: Span::new(a + at, b).into(),
                    what: format!(
                        "Was looking for color for object {oname}, got \"{}\" instead.",
                        raw.get(at..).unwrap_or(raw)
                    ),
                });
            }
        }
        for b in bad {
            self.error(b);
        }
        if let Some(obj) = self.game.objects.last_mut() {
            let end = toks.last().map(span_of).unwrap_or(obj.span);
            obj.span = obj.span.merge(end);
            obj.colors.extend(colors);
        }
    }

    /// A sprite row (or, before the first row, a new object's name line).
    fn sprite_row(&mut self, toks: &[Pair<'s, R>], reported: &mut Vec<(usize, u32)>) -> ObjState {
        let starts_row = toks[0]
            .as_str()
            .starts_with(|c: char| c == '.' || c.is_ascii_digit());
        let Some(obj) = self.game.objects.last() else {
            return ObjState::Name;
        };
        if !starts_row {
            if obj.sprite.is_empty() {
                return self.object_name(toks);
            }
            let oname = obj.name.text.to_uppercase();
            self.error(PsProblem::SpriteJunk {
                span: span_of(&toks[0]).into(),
                what: format!("Unknown junk in spritematrix for object {oname}."),
            });
            return ObjState::Sprite;
        }
        let oname = obj.name.text.to_uppercase();
        let ncolors = obj.colors.len();
        let line = self.line_of(range(span_of(&toks[0])).0);
        let mut row: Vec<Option<u8>> = vec![];
        let mut problems = vec![];
        let mut too_wide = false;
        'toks: for t in toks {
            let (a, _) = range(span_of(t));
            for (i, c) in t.as_str().char_indices() {
                let at = Span::new(a + i, a + i + c.len_utf8());
                let pixel = match c {
                    '.' => None,
                    '0'..='9' => Some(c as u8 - b'0'),
                    _ => {
                        problems.push((
                            false,
                            PsProblem::SpriteJunk {
                                span: at.into(),
                                what: format!("Unknown junk in spritematrix for object {oname}."),
                            },
                        ));
                        break 'toks;
                    }
                };
                row.push(pixel);
                if row.len() > 5 {
                    too_wide = true;
                    problems.push((
                        true,
                        PsProblem::SpriteSize {
                            span: at.into(),
                            what: "Sprites must be 5 wide and 5 high.".into(),
                        },
                    ));
                    break 'toks;
                }
                let Some(n) = pixel else { continue };
                if n as usize >= ncolors && !reported.contains(&(line, n as u32)) {
                    reported.push((line, n as u32));
                    problems.push((
                        false,
                        PsProblem::ColorIndex {
                            span: at.into(),
                            what: format!("Trying to access color number {n} from the color palette of sprite {oname}, but there are only {ncolors} defined in it."),
                        },
                    ));
                }
            }
        }
        for (warn, p) in problems {
            if warn {
                self.warning(p);
            } else {
                self.error(p);
            }
        }
        let row_span =
            span_of(&toks[0]).merge(toks.last().map(span_of).unwrap_or(span_of(&toks[0])));
        let Some(obj) = self.game.objects.last_mut() else {
            return ObjState::Name;
        };
        obj.sprite.push(row);
        obj.sprite_span = Some(obj.sprite_span.map_or(row_span, |s| s.merge(row_span)));
        obj.span = obj.span.merge(row_span);
        if !too_wide && obj.sprite.len() == 5 && obj.sprite.last().is_some_and(|r| r.len() == 5) {
            ObjState::Name
        } else {
            ObjState::Sprite
        }
    }

    pub(super) fn legend(&mut self, body: Vec<Pair<'s, R>>) {
        for line in body {
            match line.as_rule() {
                R::equals_line => self.equals_line(line),
                R::legend_line => {
                    for seg in self.segments(line) {
                        let toks = tokens(seg);
                        if !toks.is_empty() {
                            self.legend_entry(&toks);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn legend_entry(&mut self, toks: &[Pair<'s, R>]) {
        let span = span_of(&toks[0]).merge(span_of(&toks[toks.len() - 1]));
        let format = "Incorrect format of legend - should be one of \"A = B\", \"A = B or C [ or D ...]\", \"A = B and C [ and D ...]\"";
        let fail = |l: &mut Self, at: Span, what: String| {
            l.error(PsProblem::LegendFormat {
                span: at.into(),
                what,
            });
        };
        if toks[0].as_rule() == R::assign {
            return fail(
                self,
                span_of(&toks[0]),
                format!("{format}, but the name before the \"=\" is missing."),
            );
        }
        if toks.len() == 1 {
            return fail(self, span, format!("{format}."));
        }
        if toks[1].as_rule() != R::assign {
            return fail(self, span_of(&toks[1]), "In the legend, define new items using the equals symbol - declarations must look like \"A = B\", \"A = B or C [ or D ...]\", \"A = B and C [ and D ...]\".".into());
        }
        if toks.len().is_multiple_of(2) {
            let last = &toks[toks.len() - 1];
            return fail(
                self,
                span_of(last),
                format!(
                    "{format}, but it looks like you have a dangling \"{}\"?",
                    last.as_str().to_uppercase()
                ),
            );
        }
        let mut items = vec![];
        let mut kind = LegendKind::Alias;
        let mut mixed = None;
        for (i, t) in toks.iter().enumerate().skip(2) {
            if t.as_rule() == R::assign {
                return fail(
                    self,
                    span_of(t),
                    format!("{format}, but there is an \"=\" too many."),
                );
            }
            if i % 2 == 0 {
                items.push(name_of(t));
                continue;
            }
            let w = t.as_str().to_lowercase();
            let k = match w.as_str() {
                "and" => LegendKind::And,
                "or" => LegendKind::Or,
                _ => {
                    return fail(self, span_of(t), format!("Expected and 'AND' or an 'OR' here, but got {} instead. In the legend, define new items using the equals symbol - declarations must look like 'A = B' or 'A = B and C' or 'A = B or C'.", w.to_uppercase()));
                }
            };
            if kind == LegendKind::Alias {
                kind = k;
            } else if kind != k && mixed.is_none() {
                mixed = Some(span_of(t));
            }
        }
        if let Some(m) = mixed {
            self.error(PsProblem::LegendMixed {
                span: m.into(),
                what: "Hey! You can't go mixing ANDs and ORs in a single legend entry.".into(),
            });
        }
        self.game.legend.push(LegendEntry {
            name: name_of(&toks[0]),
            kind,
            items,
            mixed,
            span,
        });
    }

    pub(super) fn sounds(&mut self, body: Vec<Pair<'s, R>>) {
        for (words, span) in self.name_lines(body, R::words_line) {
            self.game.sounds.push(SoundLine { words, span });
        }
    }

    pub(super) fn layers(&mut self, body: Vec<Pair<'s, R>>) {
        for (names, span) in self.name_lines(body, R::layer_line) {
            self.game.layers.push(Layer { names, span });
        }
    }

    /// The lines of a section of names (sounds, layers): each segment's words, with the
    /// span from its first word to its last; `=` lines are checked on the way.
    fn name_lines(&mut self, body: Vec<Pair<'s, R>>, rule: R) -> Vec<(Vec<Name>, Span)> {
        let mut out = vec![];
        for line in body {
            if line.as_rule() == R::equals_line {
                self.equals_line(line);
            } else if line.as_rule() == rule {
                for seg in self.segments(line) {
                    let toks = tokens(seg);
                    if let (Some(f), Some(l)) = (toks.first(), toks.last()) {
                        let span = span_of(f).merge(span_of(l));
                        out.push((toks.iter().map(name_of).collect(), span));
                    }
                }
            }
        }
        out
    }

    pub(super) fn wins(&mut self, body: Vec<Pair<'s, R>>) {
        for line in body {
            match line.as_rule() {
                R::equals_line => self.equals_line(line),
                R::words_line => {
                    for seg in self.segments(line) {
                        let toks = tokens(seg);
                        if !toks.is_empty() {
                            self.win_condition(&toks);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn win_condition(&mut self, toks: &[Pair<'s, R>]) {
        let span = span_of(&toks[0]).merge(span_of(&toks[toks.len() - 1]));
        let q = toks[0].as_str().to_lowercase();
        let quantifier = match q.as_str() {
            "all" => Quantifier::All,
            "no" => Quantifier::No,
            "some" | "any" => Quantifier::Some,
            _ => {
                return self.error(PsProblem::WinFormat {
                    span: span_of(&toks[0]).into(),
                    what: format!(
                        "Expecting the start of a win condition (\"ALL\",\"SOME\",\"NO\") but got \"{}'.",
                        q.to_uppercase()
                    ),
                });
            }
        };
        let bad = "Win conditions is badly formatted - needs to look something like \"No Fruit\", \"All Target On Crate\", \"Some Fruit\", \"Some Gold on Chest\", \"No Gold on Chest\", or the like.";
        if toks.len() == 1 || toks.len() == 3 {
            if toks.len() == 3 && !toks[2].as_str().eq_ignore_ascii_case("on") {
                return self.error(PsProblem::WinOn {
                    span: span_of(&toks[2]).into(),
                    what: format!(
                        "Expecting the word \"ON\" but got \"{}\".",
                        toks[2].as_str().to_uppercase()
                    ),
                });
            }
            return self.error(PsProblem::WinFormat {
                span: span.into(),
                what: bad.into(),
            });
        }
        if toks.len() >= 4 && !toks[2].as_str().eq_ignore_ascii_case("on") {
            return self.error(PsProblem::WinOn {
                span: span_of(&toks[2]).into(),
                what: format!(
                    "Expecting the word \"ON\" but got \"{}\".",
                    toks[2].as_str().to_uppercase()
                ),
            });
        }
        if toks.len() > 4 {
            return self.error(PsProblem::WinFormat {
                span: span_of(&toks[4]).into(),
                what: format!(
                    "Error in win condition: I don't know what to do with {}.",
                    toks[4].as_str().to_uppercase()
                ),
            });
        }
        let line = self.line_of(range(span).0);
        self.game.wins.push(WinCondition {
            quantifier: (quantifier, span_of(&toks[0])),
            what: name_of(&toks[1]),
            on: toks.get(3).map(name_of),
            line,
            span,
        });
    }
}
