//! Reading input files with clear errors for unreadable, non-UTF-8, empty or huge files.

use std::path::Path;

use miette::Diagnostic;
use thiserror::Error;

/// Inputs larger than this are refused rather than read into memory.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// Why an input file could not be read as text. Each kind has its own diagnostic code.
#[derive(Debug, Error, Diagnostic)]
pub enum SourceError {
    /// The file cannot be opened or read.
    #[error("cannot read {path}: {err}")]
    #[diagnostic(
        code(puz::input::unreadable),
        help("check the path and that the file is readable")
    )]
    Io {
        /// The file, or "standard input".
        path: String,
        /// What the system said.
        err: std::io::Error,
    },
    /// The file holds bytes that are not UTF-8.
    #[error("{path} is not UTF-8 text (invalid byte at offset {offset})")]
    #[diagnostic(code(puz::input::not_utf8), help("save the file as UTF-8 text"))]
    NotUtf8 {
        /// The file, or "standard input".
        path: String,
        /// The first invalid byte.
        offset: usize,
    },
    /// The file holds nothing but blanks.
    #[error("{path} is empty")]
    #[diagnostic(
        code(puz::input::empty),
        help("the file holds nothing but blanks; give it some content")
    )]
    Empty {
        /// The file, or "standard input".
        path: String,
    },
    /// The file is larger than `MAX_INPUT_BYTES`.
    #[error("{path} is {size} bytes, more than the {limit} byte limit")]
    #[diagnostic(
        code(puz::input::too_large),
        help("inputs are read into memory whole; split the file")
    )]
    TooLarge {
        /// The file, or "standard input".
        path: String,
        /// Its size in bytes.
        size: u64,
        /// The limit.
        limit: u64,
    },
}

/// `text` without a leading UTF-8 byte-order mark, which some editors write.
pub(crate) fn without_bom(mut text: String) -> String {
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    text
}

/// Reads a whole file as UTF-8 text; `-` reads standard input. A byte-order mark at the
/// start is dropped.
pub fn read_source(path: &str) -> Result<String, SourceError> {
    use std::io::Read;
    let mut bytes = vec![];
    if path == "-" {
        std::io::stdin()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|err| SourceError::Io {
                path: "standard input".into(),
                err,
            })?;
    } else {
        let p = Path::new(path);
        let size = std::fs::metadata(p)
            .map_err(|err| SourceError::Io {
                path: path.into(),
                err,
            })?
            .len();
        if size > MAX_INPUT_BYTES {
            return Err(SourceError::TooLarge {
                path: path.into(),
                size,
                limit: MAX_INPUT_BYTES,
            });
        }
        bytes = std::fs::read(p).map_err(|err| SourceError::Io {
            path: path.into(),
            err,
        })?;
    }
    let shown = if path == "-" { "standard input" } else { path };
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(SourceError::TooLarge {
            path: shown.into(),
            size: bytes.len() as u64,
            limit: MAX_INPUT_BYTES,
        });
    }
    let text = without_bom(String::from_utf8(bytes).map_err(|e| SourceError::NotUtf8 {
        path: shown.into(),
        offset: e.utf8_error().valid_up_to(),
    })?);
    if text.trim().is_empty() {
        return Err(SourceError::Empty { path: shown.into() });
    }
    Ok(text)
}
