//! The renderer: any diagnostic on any source renders, however long its lines.
//!
//! miette draws a report from the source and its labels; [`render_with`] first prepares
//! the diagnostic (long lines cut to windows around the labels, labels kept inside the
//! cut text, headers still naming the original line and column) and falls back to a plain
//! listing should the handler fail. The handler is the caller's: the command line's
//! terminal-aware one, or [`render_plain`]'s fixed unicode one (the `render` feature).

use miette::{Diagnostic, SourceSpan};

/// Lines longer than this many characters are shown cut to windows around the labels on
/// them. miette draws a label by padding to its column, and a column past 65,535 panics
/// inside its formatter; a line that long is unreadable in a terminal anyway.
const MAX_SHOWN_LINE: usize = 200;
/// Characters kept on either side of a label's start or end on a cut line.
const WINDOW: usize = 40;
/// Windows kept on one cut line; labels further right point at the last `…`.
const MAX_WINDOWS: usize = 8;
/// A label over more lines than this is shown on its first line only, so that a span
/// covering a whole level file does not print the whole file.
const MAX_LABEL_LINES: usize = 8;
/// What stands for the text cut out of a long line.
const ELLIPSIS: &str = "…";

/// A diagnostic prepared for display: its source has every over-long line cut to windows
/// around the labels, its labels point into that cut text and are kept inside it, and
/// its `file:line:column` header still names the position in the original text
/// (columns counted in characters).
///
/// [`render_with`] renders this rather than the diagnostic itself.
struct Displayable<'a> {
    inner: &'a dyn Diagnostic,
    source: Option<Excerpt<'a>>,
    labels: Vec<miette::LabeledSpan>,
    related: Vec<Displayable<'a>>,
    cause: Option<Box<Displayable<'a>>>,
}

impl<'a> Displayable<'a> {
    /// Prepares `d` (and its related diagnostics and causes) for display.
    fn new(d: &'a dyn Diagnostic) -> Self {
        Self::build(d, None)
    }

    fn build(d: &'a dyn Diagnostic, parent: Option<&Excerpt<'a>>) -> Self {
        let source = d.source_code().map(|src| {
            let mut points = vec![];
            label_points(d, true, &mut points);
            Excerpt::new(src, points)
        });
        let view = source.as_ref().or(parent);
        let labels = d
            .labels()
            .into_iter()
            .flatten()
            .map(|l| match view {
                Some(x) => x.label(&l),
                None => l,
            })
            .collect();
        let related = d
            .related()
            .into_iter()
            .flatten()
            .map(|r| Self::build(r, view))
            .collect();
        let cause = d
            .diagnostic_source()
            .map(|c| Box::new(Self::build(c, view)));
        Displayable {
            inner: d,
            source,
            labels,
            related,
            cause,
        }
    }
}

/// The start and end of every label of `d`, and of its related diagnostics and causes
/// that share its source (those with a source of their own get their own excerpt).
fn label_points(d: &dyn Diagnostic, own: bool, out: &mut Vec<usize>) {
    if !own && d.source_code().is_some() {
        return;
    }
    for l in d.labels().into_iter().flatten() {
        out.push(l.offset());
        out.push(l.offset().saturating_add(l.len()));
    }
    for r in d.related().into_iter().flatten() {
        label_points(r, false, out);
    }
    if let Some(c) = d.diagnostic_source() {
        label_points(c, false, out);
    }
}

impl std::fmt::Debug for Displayable<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.inner, f)
    }
}

impl std::fmt::Display for Displayable<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self.inner, f)
    }
}

impl std::error::Error for Displayable<'_> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.inner.source()
    }
}

impl Diagnostic for Displayable<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.inner.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.inner.severity()
    }
    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.inner.help()
    }
    fn url<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.inner.url()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        (!self.labels.is_empty()).then(|| Box::new(self.labels.iter().cloned()) as Box<_>)
    }
    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn Diagnostic> + 'b>> {
        (!self.related.is_empty())
            .then(|| Box::new(self.related.iter().map(|r| r as &dyn Diagnostic)) as Box<_>)
    }
    fn diagnostic_source(&self) -> Option<&dyn Diagnostic> {
        self.cause.as_deref().map(|c| c as &dyn Diagnostic)
    }
}

/// One run of the excerpt: `len` bytes of the original at `orig` shown unchanged at
/// `shown`, or (cut) shown as one [`ELLIPSIS`] at `shown`.
#[derive(Clone, Copy, Debug)]
struct Segment {
    orig: usize,
    shown: usize,
    len: usize,
    cut: bool,
}

/// A source as a report shows it: the original text, or a copy with long lines cut.
struct Excerpt<'a> {
    name: Option<String>,
    original: std::borrow::Cow<'a, str>,
    /// The cut text and how it maps to the original; `None` when no line is too long.
    cut: Option<(String, Vec<Segment>)>,
}

impl<'a> Excerpt<'a> {
    /// Reads the whole of `src` and cuts its long lines around `points` (byte offsets).
    fn new(src: &'a dyn miette::SourceCode, mut points: Vec<usize>) -> Self {
        // `SourceCode` only hands out spans with context lines: asking for every line
        // around an empty span at the start yields the whole text.
        let whole = src.read_span(&SourceSpan::from((0, 0)), usize::MAX, usize::MAX);
        let (name, original) = match whole {
            Ok(c) => (
                c.name().map(str::to_string),
                String::from_utf8_lossy(c.data()),
            ),
            Err(_) => (None, std::borrow::Cow::Borrowed("")),
        };
        points.sort_unstable();
        points.dedup();
        let cut = cut_long_lines(&original, &points);
        Excerpt {
            name,
            original,
            cut,
        }
    }

    fn shown(&self) -> &str {
        self.cut.as_ref().map_or(&self.original, |(s, _)| s)
    }

    /// Where byte `o` of the original is in the shown text. A position inside a cut
    /// run goes to the ellipsis: its start for a span's start, its end for a span's end.
    fn to_shown(&self, o: usize, end: bool) -> usize {
        let o = floor_char(&self.original, o);
        let Some((_, segs)) = &self.cut else {
            return o;
        };
        let i = segs.partition_point(|s| s.orig <= o).saturating_sub(1);
        let s = segs[i];
        match (s.cut, o == s.orig, end) {
            (false, _, _) => s.shown + (o - s.orig).min(s.len),
            (true, true, _) | (true, false, false) => s.shown,
            (true, false, true) => s.shown + ELLIPSIS.len(),
        }
    }

    /// Where byte `w` of the shown text is in the original.
    fn to_orig(&self, w: usize) -> usize {
        let Some((_, segs)) = &self.cut else {
            return w;
        };
        let i = segs.partition_point(|s| s.shown <= w).saturating_sub(1);
        let s = segs[i];
        if s.cut {
            s.orig
        } else {
            s.orig + (w - s.shown).min(s.len)
        }
    }

    /// `l` moved into the shown text, inside it, and at most [`MAX_LABEL_LINES`] long.
    fn label(&self, l: &miette::LabeledSpan) -> miette::LabeledSpan {
        let start = self.to_shown(l.offset(), false);
        let mut end = self
            .to_shown(l.offset().saturating_add(l.len()), true)
            .max(start);
        let shown = self.shown();
        let body = &shown[start..end];
        if let Some((i, _)) = body.match_indices('\n').nth(MAX_LABEL_LINES) {
            end = start + body[..i].find('\n').unwrap_or(i);
        }
        let span = SourceSpan::from((start, end - start));
        if l.primary() {
            miette::LabeledSpan::new_primary_with_span(l.label().map(str::to_string), span)
        } else {
            miette::LabeledSpan::new_with_span(l.label().map(str::to_string), span)
        }
    }
}

impl miette::SourceCode for Excerpt<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'b> + 'b>, miette::MietteError> {
        let c = self.shown().read_span(span, before, after)?;
        // With no context the header reads the column: give the original's, counted in
        // characters (miette counts bytes of the text it is given).
        let column = if before == 0 {
            let o = self.to_orig(span.offset());
            let line_start = self.original[..o].rfind('\n').map_or(0, |i| i + 1);
            self.original[line_start..o].chars().count()
        } else {
            c.column()
        };
        let data = c.data();
        let contents = match &self.name {
            Some(n) => miette::MietteSpanContents::new_named(
                n.clone(),
                data,
                *c.span(),
                c.line(),
                column,
                c.line_count(),
            ),
            None => {
                miette::MietteSpanContents::new(data, *c.span(), c.line(), column, c.line_count())
            }
        };
        Ok(Box::new(contents))
    }
}

/// The largest char boundary of `s` at or before `o` (and inside `s`).
fn floor_char(s: &str, o: usize) -> usize {
    let mut o = o.min(s.len());
    while !s.is_char_boundary(o) {
        o -= 1;
    }
    o
}

/// `text` with every line longer than [`MAX_SHOWN_LINE`] characters cut to windows around
/// the `points` (sorted byte offsets) on it, and the runs that map it back; `None` when
/// no line is that long.
fn cut_long_lines(text: &str, points: &[usize]) -> Option<(String, Vec<Segment>)> {
    let long = |body: &str| body.len() > MAX_SHOWN_LINE && body.chars().count() > MAX_SHOWN_LINE;
    if !text.split('\n').any(long) {
        return None;
    }
    let mut shown = String::new();
    let mut segs: Vec<Segment> = vec![];
    let keep = |shown: &mut String, segs: &mut Vec<Segment>, orig: usize, part: &str| {
        if part.is_empty() {
            return;
        }
        match segs.last_mut() {
            Some(s) if !s.cut && s.orig + s.len == orig => s.len += part.len(),
            _ => segs.push(Segment {
                orig,
                shown: shown.len(),
                len: part.len(),
                cut: false,
            }),
        }
        shown.push_str(part);
    };
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        if !long(body) {
            keep(&mut shown, &mut segs, line_start, line);
            line_start += line.len();
            continue;
        }
        let lo = points.partition_point(|&p| p < line_start);
        let hi = points.partition_point(|&p| p <= line_start + body.len());
        let mut windows: Vec<(usize, usize)> = vec![];
        for &p in &points[lo..hi] {
            let rel = floor_char(body, p - line_start);
            let a = body[..rel]
                .char_indices()
                .rev()
                .nth(WINDOW - 1)
                .map_or(0, |(i, _)| i);
            let b = body[rel..]
                .char_indices()
                .nth(WINDOW)
                .map_or(body.len(), |(i, _)| rel + i);
            let full = windows.len() == MAX_WINDOWS;
            match windows.last_mut() {
                Some(w) if a <= w.1 + ELLIPSIS.len() => w.1 = w.1.max(b),
                _ if full => break,
                _ => windows.push((a, b)),
            }
        }
        if windows.is_empty() {
            let b = body
                .char_indices()
                .nth(2 * WINDOW)
                .map_or(body.len(), |x| x.0);
            windows.push((0, b));
        }
        let mut pos = 0;
        for (a, b) in windows.into_iter().chain([(body.len(), body.len())]) {
            if a > pos {
                segs.push(Segment {
                    orig: line_start + pos,
                    shown: shown.len(),
                    len: a - pos,
                    cut: true,
                });
                shown.push_str(ELLIPSIS);
            }
            keep(&mut shown, &mut segs, line_start + a, &body[a..b]);
            pos = b;
        }
        keep(
            &mut shown,
            &mut segs,
            line_start + body.len(),
            &line[body.len()..],
        );
        line_start += line.len();
    }
    Some((shown, segs))
}

/// Renders `d` with `handler` (a miette handler: colours, width and theme are the
/// caller's choice) after cutting its long lines to windows around the labels. Should the
/// handler still fail, a plain listing of the same facts is returned instead: rendering
/// never fails.
pub fn render_with(handler: &dyn miette::ReportHandler, d: &dyn Diagnostic) -> String {
    struct Via<'a>(&'a dyn miette::ReportHandler, &'a dyn Diagnostic);
    impl std::fmt::Display for Via<'_> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.0.debug(self.1, f)
        }
    }
    let shown = Displayable::new(d);
    let mut out = String::new();
    use std::fmt::Write as _;
    if write!(out, "{}", Via(handler, &shown)).is_ok() {
        return out;
    }
    out.clear();
    render_fallback(&shown, None, 0, &mut out);
    out
}

/// Renders any diagnostic as plain unicode text without colour, `width` columns wide:
/// the stable form tests compare. (Needs the `render` feature: miette's graphical
/// handler, without its terminal detection.)
#[cfg(feature = "render")]
pub fn render_plain(d: &dyn Diagnostic, width: usize) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(width);
    render_with(&handler, d)
}

/// A plain listing of `d`: message, code, each label's `name:line:column`, help, then its
/// related diagnostics and causes, indented.
fn render_fallback(
    d: &dyn Diagnostic,
    parent: Option<&dyn miette::SourceCode>,
    depth: usize,
    out: &mut String,
) {
    use std::fmt::Write as _;
    let pad = "  ".repeat(depth);
    let _ = write!(out, "{pad}error");
    if let Some(c) = d.code() {
        let _ = write!(out, "[{c}]");
    }
    let _ = writeln!(out, ": {d}");
    let src = d.source_code().or(parent);
    for l in d.labels().into_iter().flatten() {
        let at = src
            .and_then(|s| s.read_span(l.inner(), 0, 0).ok())
            .map(|c| {
                let name = c.name().map_or(String::new(), |n| format!("{n}:"));
                format!("{name}{}:{}", c.line() + 1, c.column() + 1)
            })
            .unwrap_or_else(|| format!("byte {}", l.offset()));
        let _ = writeln!(out, "{pad}  at {at}: {}", l.label().unwrap_or(""));
    }
    if let Some(h) = d.help() {
        let _ = writeln!(out, "{pad}  help: {h}");
    }
    for r in d.related().into_iter().flatten() {
        render_fallback(r, src, depth + 1, out);
    }
    if let Some(c) = d.diagnostic_source() {
        render_fallback(c, src, depth + 1, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_shown_as_they_are() {
        assert!(cut_long_lines("abc\ndef\n", &[1, 5]).is_none());
    }

    #[test]
    fn long_lines_keep_windows_around_the_points() {
        let line = format!("{}X{}", "a".repeat(1000), "b".repeat(1000));
        let text = format!("short\n{line}\nend\n");
        let at = 6 + 1000;
        let (shown, segs) = cut_long_lines(&text, &[at, at + 1]).expect("a long line");
        assert!(shown.starts_with("short\n…"), "{shown:?}");
        assert!(shown.ends_with("…\nend\n"), "{shown:?}");
        assert!(shown.len() < 200, "{}", shown.len());
        let x = Excerpt {
            name: None,
            original: std::borrow::Cow::Borrowed(&text),
            cut: Some((shown.clone(), segs)),
        };
        let w = x.to_shown(at, false);
        assert_eq!(&shown[w..w + 1], "X");
        assert_eq!(x.to_orig(w), at);
        // A point in a cut run maps to its ellipsis, and back to the run's start.
        let cut = x.to_shown(6 + 10, false);
        assert_eq!(&shown[cut..cut + ELLIPSIS.len()], ELLIPSIS);
        assert_eq!(x.to_shown(6 + 10, true), cut + ELLIPSIS.len());
        assert_eq!(x.to_orig(cut), 6);
    }

    #[test]
    fn windows_per_line_are_bounded() {
        let text = "x".repeat(100_000);
        let points: Vec<usize> = (0..100_000).step_by(500).collect();
        let (shown, _) = cut_long_lines(&text, &points).expect("a long line");
        assert!(
            shown.chars().count() <= MAX_WINDOWS * (2 * WINDOW + 1) + MAX_WINDOWS + 1,
            "{}",
            shown.chars().count()
        );
    }
}
