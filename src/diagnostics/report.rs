//! The wrappers: every problem of one run over one source, with that source attached
//! once. [`Diagnostics`] holds errors and [`Warnings`] holds lints; both are one generic
//! [`SourceReport`] that differs only in its wording and severity ([`ReportKind`]).

use std::marker::PhantomData;
use std::sync::Arc;

use miette::{Diagnostic, NamedSource, Severity};

use super::catalogue::Problem;
use super::words::thousands;

/// At most this many problems of one run are reported in full; the rest are counted.
///
/// A hostile file can provoke one problem per token (13 KB of `cost c0, c1, ...` gives
/// 2,000); each full report prints its source line, so an unbounded list is quadratic in
/// the file size. The first problems in source order are the ones worth reading.
pub const MAX_SHOWN: usize = 50;

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Errors {}
    impl Sealed for super::Lints {}
}

/// What a [`SourceReport`] holds, and so how it is worded: [`Errors`] or [`Lints`].
pub trait ReportKind: sealed::Sealed + std::fmt::Debug + Send + Sync + 'static {
    /// The noun for one problem, e.g. `error`.
    const ONE: &'static str;
    /// The noun for several, e.g. `errors`.
    const MANY: &'static str;
    /// What joins the count and the source's name in the title, e.g. ` found in `.
    const IN: &'static str;
    /// What follows "and 3 more errors not shown" when some were omitted.
    const ADVICE: &'static str;
    /// The severity the report is shown with (`None`: an error).
    const SEVERITY: Option<Severity>;
    /// The report's type as debug output names it.
    const NAME: &'static str;
}

/// Errors: the source cannot be used until they are fixed ([`Diagnostics`]).
#[derive(Debug)]
pub struct Errors;

/// Lints, warnings about a source that still loads ([`Warnings`]).
#[derive(Debug)]
pub struct Lints;

impl ReportKind for Errors {
    const ONE: &'static str = "error";
    const MANY: &'static str = "errors";
    const IN: &'static str = " found in ";
    const ADVICE: &'static str = "; fix these first";
    const SEVERITY: Option<Severity> = None;
    const NAME: &'static str = "Diagnostics";
}

impl ReportKind for Lints {
    const ONE: &'static str = "warning";
    const MANY: &'static str = "warnings";
    const IN: &'static str = " in ";
    const ADVICE: &'static str = "";
    const SEVERITY: Option<Severity> = Some(Severity::Warning);
    const NAME: &'static str = "Warnings";
}

/// All problems found in one source, with that source attached once.
///
/// Holds at most [`MAX_SHOWN`] problems; `omitted` counts the rest, which the title and
/// the help line mention.
pub struct SourceReport<K: ReportKind> {
    /// The source text and its name as reports show it (usually its path), shared by every
    /// problem's spans.
    src: NamedSource<Arc<String>>,
    /// The problems reported in full, in order.
    pub problems: Vec<Problem>,
    /// How many more problems were found but not kept.
    pub omitted: usize,
    /// "and 1,950 more errors not shown", when some were omitted.
    more: Option<String>,
    kind: PhantomData<K>,
}

/// All errors found in one source: a [`SourceReport`] of [`Errors`].
pub type Diagnostics = SourceReport<Errors>;

/// Lints (warnings) found in one source, with that source attached once: the warning
/// counterpart of [`Diagnostics`], a [`SourceReport`] of [`Lints`].
pub type Warnings = SourceReport<Lints>;

/// `1 error`, `1,950 errors`.
fn count_phrase<K: ReportKind>(n: usize) -> String {
    if n == 1 {
        format!("1 {}", K::ONE)
    } else {
        format!("{} {}", thousands(&n), K::MANY)
    }
}

impl<K: ReportKind> SourceReport<K> {
    /// A report of `problems` in the source `text` called `name`. Keeps the first
    /// [`MAX_SHOWN`] problems and counts the rest.
    pub fn new(name: &str, text: Arc<String>, mut problems: Vec<Problem>) -> Self {
        let omitted = problems.len().saturating_sub(MAX_SHOWN);
        problems.truncate(MAX_SHOWN);
        let more = (omitted > 0).then(|| {
            let noun = if omitted == 1 { K::ONE } else { K::MANY };
            format!(
                "and {} more {noun} not shown{}",
                thousands(&omitted),
                K::ADVICE
            )
        });
        SourceReport {
            src: NamedSource::new(name, text),
            problems,
            omitted,
            more,
            kind: PhantomData,
        }
    }

    /// Renders the report as plain unicode text without colour, `width` columns wide.
    #[cfg(feature = "render")]
    pub fn render_plain(&self, width: usize) -> String {
        super::render_plain(self, width)
    }
}

impl<K: ReportKind> std::fmt::Debug for SourceReport<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct(K::NAME)
            .field("src", &self.src)
            .field("problems", &self.problems)
            .field("omitted", &self.omitted)
            .field("more", &self.more)
            .finish()
    }
}

impl<K: ReportKind> std::fmt::Display for SourceReport<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.problems.len() + self.omitted;
        write!(f, "{}{}{}", count_phrase::<K>(n), K::IN, self.src.name())
    }
}

impl<K: ReportKind> std::error::Error for SourceReport<K> {}

impl<K: ReportKind> Diagnostic for SourceReport<K> {
    fn severity(&self) -> Option<Severity> {
        K::SEVERITY
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.more
            .as_ref()
            .map(|m| Box::new(m) as Box<dyn std::fmt::Display + 'a>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.src)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        Some(Box::new(self.problems.iter().map(|p| p as &dyn Diagnostic)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(n: usize) -> Vec<Problem> {
        (0..n)
            .map(|i| Problem::TextBlock {
                span: (i, 1).into(),
            })
            .collect()
    }

    #[test]
    fn errors_and_warnings_are_worded_apart() {
        let text = Arc::new("x".repeat(100));
        let d = Diagnostics::new("a.puz", text.clone(), problems(1));
        assert_eq!(d.to_string(), "1 error found in a.puz");
        assert_eq!(d.severity(), None);
        assert!(d.help().is_none());
        let d = Diagnostics::new("a.puz", text.clone(), problems(MAX_SHOWN + 1_200));
        assert_eq!(d.to_string(), "1,250 errors found in a.puz");
        assert_eq!((d.problems.len(), d.omitted), (MAX_SHOWN, 1_200));
        assert_eq!(
            d.help().map(|h| h.to_string()).as_deref(),
            Some("and 1,200 more errors not shown; fix these first")
        );
        let w = Warnings::new("b.puz", text.clone(), problems(MAX_SHOWN + 1));
        assert_eq!(w.to_string(), "51 warnings in b.puz");
        assert_eq!(w.severity(), Some(Severity::Warning));
        assert_eq!(
            w.help().map(|h| h.to_string()).as_deref(),
            Some("and 1 more warning not shown")
        );
        assert_eq!(w.related().map_or(0, Iterator::count), MAX_SHOWN);
    }
}
