//! Every diagnostic puz reports about a `.puz` file or a level, and how they are shown.
//!
//! - `catalogue.rs`: the diagnostics themselves, one enum [`Problem`] with a unique code,
//!   a labelled span and help where a fix exists for each variant.
//! - `report.rs`: a run collects them into one [`Diagnostics`] (errors) or [`Warnings`]
//!   (lints) value with the source attached once, one generic [`SourceReport`].
//! - `render.rs`: rendering that copes with any span on any line ([`render_with`]).
//! - `words.rs`: the wording messages share ([`quantity`], suggestions).

mod catalogue;
mod formats;
mod puzzlescript;
mod render;
mod report;
mod words;

pub use catalogue::Problem;
pub use formats::FormatProblem;
pub use puzzlescript::{NeverSettles, PsProblem};
#[cfg(feature = "render")]
pub use render::render_plain;
pub use render::render_with;
pub use report::{Diagnostics, Errors, Lints, ReportKind, SourceReport, Warnings, MAX_SHOWN};
pub(crate) use words::did_you_mean;
pub use words::{quantity, singular};
