//! The command bodies of the `puz` binary, one module per command, and what they share:
//! exit codes, output that never panics, loading files and picking levels, reports.
//! `main.rs` parses the arguments and calls them; the work itself is the library's.

use std::time::{Duration, Instant};

use puz::io::read_source;
use puz::solver::SolveError;
use puz::Puzzle;

/// Exit codes, documented in the README's table.
pub mod exit {
    /// Success; also a closed standard output (the reader has what it wanted).
    pub const OK: u8 = 0;
    /// The `.puz` file has errors.
    pub const RULES: u8 = 1;
    /// Bad input: an unreadable file, a malformed level or judge input, bad usage.
    pub const INPUT: u8 = 2;
    /// A search hit `--max-states`, `--timeout` or `--max-memory`.
    pub const CUTOFF: u8 = 3;
    /// `--engine fast` with no matching fast path.
    pub const ENGINE: u8 = 4;
    /// The requested search cannot run on these rules.
    pub const SEARCH: u8 = 5;
    /// The state graph is larger than `--max-states` allows.
    pub const GRAPH: u8 = 6;
    /// `bidir` refused.
    pub const BIDIR: u8 = 7;
    /// The output could not be written (a full disk, a failing device).
    pub const OUTPUT: u8 = 8;
    /// A bug in puz caught by its own checks (a returned path that does not replay).
    pub const INTERNAL: u8 = 9;
    /// A distributed run failed: processes could not connect, one went away, or a
    /// checkpoint does not belong to the run.
    pub const DIST: u8 = 10;
}

/// Every byte the binary prints goes through here, so that no write error is lost and
/// none panics (`println!` panics on a closed pipe and hides a full disk until exit).
pub mod output {
    use std::io::Write;

    /// Writes answers to standard output and flushes them.
    pub fn stdout(text: &str) -> Result<(), u8> {
        let mut o = std::io::stdout().lock();
        o.write_all(text.as_bytes())
            .and_then(|_| o.flush())
            .map_err(write_failed)
    }

    /// The exit code for a failed write of the answers: a closed pipe (`| head`) means
    /// the reader has all it wants, so the run ends quietly with 0; any other failure
    /// (a full disk) loses answers, so it is reported and exits with
    /// [`super::exit::OUTPUT`].
    pub fn write_failed(e: std::io::Error) -> u8 {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return super::exit::OK;
        }
        stderr(&format!("error: cannot write the output: {e}\n"));
        super::exit::OUTPUT
    }

    /// Writes a message to standard error. A failure is ignored: there is nowhere left
    /// to report it, and the exit code still says how the run ended.
    pub fn stderr(text: &str) {
        let mut e = std::io::stderr().lock();
        let _ = e.write_all(text.as_bytes()).and_then(|_| e.flush());
    }

    /// Writes a diagnostic report to standard error: miette's own handler (colours and
    /// width follow the terminal, `NO_COLOR` is honoured) over a view of the source in
    /// which any span on any line length renders.
    pub fn report(d: &dyn miette::Diagnostic) {
        let handler = miette::MietteHandlerOpts::new().build();
        stderr(&puz::diagnostics::render_with(&handler, d));
    }
}

/// `eprintln!` that cannot panic: a message line on standard error.
macro_rules! say {
    ($($t:tt)*) => {
        $crate::cli::output::stderr(&format!("{}\n", format_args!($($t)*)))
    };
}

/// Appends a formatted line to an output buffer.
macro_rules! outln {
    ($o:expr, $($t:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($o, $($t)*);
    }};
}

/// Appends formatted text to an output buffer.
macro_rules! out {
    ($o:expr, $($t:tt)*) => {{
        use std::fmt::Write as _;
        let _ = write!($o, $($t)*);
    }};
}

// The commands come after the macros they use.
pub mod all;
pub mod check;
pub mod dist;
pub mod export;
pub mod graph;
pub mod judge;
pub mod play;
pub mod ps;
pub mod serve;
pub mod solve;
pub mod test;

/// Writes answers to stdout (see [`output::stdout`]).
pub fn emit(text: &str) -> Result<(), u8> {
    output::stdout(text)
}

/// How reports name an input: its path, or "standard input" for `-`.
pub fn source_name(path: &str) -> &str {
    if path == "-" {
        "standard input"
    } else {
        path
    }
}

/// Loads and checks a `.puz` file (`-` reads standard input), reporting any problem.
pub fn load(file: &str) -> Result<Puzzle, u8> {
    let text = read_rules(file)?;
    refuse_puzzlescript(file, &text)?;
    load_text(file, text)
}

/// The text of the rules in `file`: the built-in Sokoban rules for [`BUILTIN_SOKOBAN`].
fn read_rules(file: &str) -> Result<String, u8> {
    if file == BUILTIN_SOKOBAN {
        return Ok(puz::io::formats::SOKOBAN_RULES.to_string());
    }
    read_source(file).map_err(|e| {
        output::report(&e);
        exit::INPUT
    })
}

/// Loads the `.puz` rules of `text`, read from `file`.
pub fn load_text(file: &str, text: String) -> Result<Puzzle, u8> {
    Puzzle::load(source_name(file), text).map_err(|d| {
        output::report(&d);
        exit::RULES
    })
}

/// A PuzzleScript game read where a `.puz` file was expected: standard input (whose
/// language `auto` does not guess, as it can be read only once) or `--lang puz`.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{file} is a PuzzleScript game, read here as a .puz file")]
#[diagnostic(
    code(puz::ps::read_as_puz),
    help("give --lang puzzlescript to read it as a game (a file path is recognised by itself; standard input is not)")
)]
struct PuzzleScriptNotYet {
    file: String,
}

/// Refuses a PuzzleScript game, with a clear message, where only `.puz` files are read
/// (instead of reporting its text as `.puz` syntax errors).
fn refuse_puzzlescript(file: &str, text: &str) -> Result<(), u8> {
    if puz::puzzlescript::looks_like_puzzlescript(text) {
        output::report(&PuzzleScriptNotYet {
            file: file.to_string(),
        });
        return Err(exit::INPUT);
    }
    Ok(())
}

/// `--lang`: which language a file is read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// A `.puz` rule file.
    Puz,
    /// A PuzzleScript game (the text PuzzleScript's editor saves).
    #[value(name = "puzzlescript")]
    PuzzleScript,
    /// PuzzleScript when the text has its section headers on lines of their own
    /// (`puz::puzzlescript::looks_like_puzzlescript`), else `.puz`.
    Auto,
}

/// Reads a file and decides its language as `lang` says (`auto` looks at the text):
/// the text, and whether it is a PuzzleScript game. An unreadable file is reported (exit
/// 2).
///
/// `puz play` reads through here and refuses a `.puz` file. `check`, `compile` and
/// `solve` still call [`load`] (`.puz` only); each would take `--lang` and branch on the
/// answer: PuzzleScript to [`play::load_game`], else `Puzzle::load` as [`load`] does.
pub fn read_as(file: &str, lang: Lang) -> Result<(String, bool), u8> {
    let text = read_source(file).map_err(|e| {
        output::report(&e);
        exit::INPUT
    })?;
    let puzzlescript = match lang {
        Lang::Puz => false,
        Lang::PuzzleScript => true,
        Lang::Auto => puz::puzzlescript::looks_like_puzzlescript(&text),
    };
    Ok((text, puzzlescript))
}

/// Whether `file` is read as a PuzzleScript game under `lang` (`auto` looks at the text;
/// an unreadable file is left to the command's own reading, which reports it). Standard
/// input (`-`) is never looked at here: it can be read only once.
pub fn is_puzzlescript(file: &str, lang: Lang) -> bool {
    match lang {
        Lang::Puz => false,
        Lang::PuzzleScript => true,
        Lang::Auto => {
            file != "-"
                && std::fs::read_to_string(file)
                    .is_ok_and(|t| puz::puzzlescript::looks_like_puzzlescript(&t))
        }
    }
}

/// Loads a file's rules for `--all` and `puz test`, leaving each level to be checked
/// alone, so that one broken level does not hide the others.
pub fn load_rules(file: &str) -> Result<Puzzle, u8> {
    let text = read_rules(file)?;
    refuse_puzzlescript(file, &text)?;
    Puzzle::load_rules(source_name(file), text).map_err(|d| {
        output::report(&d);
        exit::RULES
    })
}

/// Reports a solver refusal and gives its exit code.
pub fn solve_failed(e: SolveError) -> u8 {
    output::report(&e);
    match e {
        SolveError::NoFastPath(_) => exit::ENGINE,
        SolveError::SearchUnavailable(_) => exit::SEARCH,
        SolveError::NotInvertible(_) => exit::BIDIR,
        SolveError::BadPath(_) => exit::INTERNAL,
        SolveError::TooLarge(_) => exit::INPUT,
    }
}

/// Reports a library error and gives its exit code: a file with errors exits 1, a level
/// or metric that does not exist 2, a solver refusal its own code.
pub fn failed(e: puz::Error) -> u8 {
    match e {
        puz::Error::Solve(e) => solve_failed(e),
        puz::Error::Load(d) => {
            output::report(&d);
            exit::RULES
        }
        e => {
            output::report(&e);
            exit::INPUT
        }
    }
}

/// The metric `--metric NAME` names (an index into the model's metrics), or `None`
/// without the flag; an unknown name is reported with the file's metrics (exit 2).
pub fn pick_metric(p: &Puzzle, name: Option<&str>) -> Result<Option<usize>, u8> {
    p.pick_metric(name).map_err(failed)
}

/// Which level a command works on: a level file (in `format`, or the format its name and
/// text say) and, in a collection, `level` (a title or a number from 1); without a file,
/// the inline level `level` names, or the first.
#[derive(Clone, Debug, Default)]
pub struct LevelChoice {
    /// The level file.
    pub file: Option<String>,
    /// `--level`: an inline level's name, or a collection's title or number.
    pub level: Option<String>,
    /// `--format`: how the level file is written (detected when `None`).
    pub format: Option<puz::io::formats::LevelFormat>,
}

/// A Sokoban collection given in place of the rules (`puz solve microban.xsb`) is the
/// level file of the built-in `puzzles/sokoban-boxes.puz`: `file` becomes
/// [`BUILTIN_SOKOBAN`] and the collection the level file.
pub fn imply_rules(file: &mut String, level_file: &mut Option<String>) {
    if level_file.is_none() && puz::io::formats::is_sokoban_path(file) {
        *level_file = Some(std::mem::replace(file, BUILTIN_SOKOBAN.to_string()));
    }
}

/// The name of the built-in Sokoban rules ([`puz::io::formats::SOKOBAN_RULES`]) that a
/// collection given alone implies.
pub const BUILTIN_SOKOBAN: &str = "sokoban-boxes.puz (built in)";

/// Reads a level file into its levels, reporting any problem (exit 2).
pub fn read_level_file(
    path: &str,
    format: Option<puz::io::formats::LevelFormat>,
) -> Result<puz::io::formats::LevelFile, u8> {
    let text = read_source(path).map_err(|e| {
        output::report(&e);
        exit::INPUT
    })?;
    puz::io::formats::LevelFile::read(source_name(path), text, format).map_err(|d| {
        output::report(&d);
        exit::INPUT
    })
}

/// Level `index` of a level file, reporting any problem (exit 2).
pub fn file_level(
    p: &Puzzle,
    file: &puz::io::formats::LevelFile,
    index: usize,
) -> Result<puz::engine::Level, u8> {
    p.file_level(file, index).map_err(|d| {
        output::report(&d);
        exit::INPUT
    })
}

/// The level a command works on (see [`LevelChoice`]).
pub fn pick_level(p: &Puzzle, choice: &LevelChoice) -> Result<puz::engine::Level, u8> {
    match &choice.file {
        Some(path) => {
            let file = read_level_file(path, choice.format)?;
            if !file.is_collection() && choice.level.is_some() {
                say!("error: {path} holds one level in the legend: drop --level, or give a collection (.xsb, .sok, Rush Hour lines; --format)");
                return Err(exit::INPUT);
            }
            let index = file.pick(choice.level.as_deref()).map_err(failed)?;
            file_level(p, &file, index)
        }
        None => {
            let index = p.pick_level(choice.level.as_deref()).map_err(failed)?;
            p.inline_level(index).map_err(|d| {
                output::report(&d);
                exit::RULES
            })
        }
    }
}

/// A spinner on stderr once a search has run for a second, when stderr is a terminal.
pub fn progress_bar() -> Option<puz::search::Progress> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let started = Instant::now();
    let bar = indicatif::ProgressBar::hidden();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {elapsed} searching: {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    Some(std::sync::Arc::new(move |s: &puz::search::Stats| {
        if started.elapsed() < Duration::from_secs(1) {
            return;
        }
        if bar.is_hidden() {
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        bar.set_message(spinner_text(s));
        bar.tick();
    }))
}

/// The spinner's message: the counts, or (before the search's first state, while a layered
/// search studies the free piece's moves or a fast path builds its tables) that it is
/// preparing. A count of stored states is left out while it is 0 (a depth-first search
/// stores none) rather than saying "0 stored".
fn spinner_text(s: &puz::search::Stats) -> String {
    match (s.expanded, s.stored) {
        (0, 0) => "preparing the search".to_string(),
        (e, 0) => format!("{e} expanded"),
        (e, n) => format!("{e} expanded, {n} stored"),
    }
}

/// Prints search statistics on stderr.
pub fn print_stats(s: &puz::search::Stats) {
    let peak = puz::search::peak_bytes().map_or("unknown".to_string(), |b| {
        format!("{:.1} MiB", b as f64 / 1048576.0)
    });
    say!(
        "stats: expanded {}, generated {}, stored {}, peak frontier {}, peak memory {}, time {:.3}s",
        s.expanded,
        s.generated,
        s.stored,
        s.peak_frontier,
        peak,
        s.elapsed.as_secs_f64()
    );
    if let Some(b) = &s.bound {
        say!("bound: {b}");
    }
}
