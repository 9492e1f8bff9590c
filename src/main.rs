//! The `puz` command line: a thin layer over the library.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};

use puz::diagnostics::quantity;
use puz::engine::compound::counted_cost;
use puz::engine::{cell_text, MoveDescription};
use puz::io::answer::{counted_json, move_json};
use puz::io::judge::{run_judge, JudgeError, JudgeOptions};
use puz::io::read_source;
use puz::io::render::{file_symbols, inline_symbols, render, render_as};
use puz::search::{Budget, Outcome};
use puz::solver::{path_cost, EngineChoice, SearchChoice, SolveError, Solver};
use puz::Puzzle;

/// Exit codes, documented in the README's table.
mod exit {
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
mod output {
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
        output::stderr(&format!("{}\n", format_args!($($t)*)))
    };
}

#[derive(Parser)]
#[command(
    name = "puz",
    version,
    about = "Declarative grid puzzles: check rule files, solve levels, answer judge inputs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `--engine`: the command-line face of [`EngineChoice`] (the library has no clap).
#[derive(Clone, Copy, clap::ValueEnum)]
enum EngineArg {
    /// The fast path when one applies, else the interpreter.
    Auto,
    /// The interpreter: the reference semantics.
    Interp,
    /// A hand-tuned fast path; fails when none applies.
    Fast,
}

impl From<EngineArg> for EngineChoice {
    fn from(e: EngineArg) -> EngineChoice {
        match e {
            EngineArg::Auto => EngineChoice::Auto,
            EngineArg::Interp => EngineChoice::Interp,
            EngineArg::Fast => EngineChoice::Fast,
        }
    }
}

/// `--search`: `auto` or a backend of [`puz::search::BACKENDS`], with its summary as help.
fn search_parser() -> impl clap::builder::TypedValueParser<Value = SearchChoice> {
    let auto = clap::builder::PossibleValue::new("auto")
        .help("a fast path when one applies; else bfs for unit costs, dijkstra otherwise");
    let names = std::iter::once(auto).chain(
        puz::search::BACKENDS
            .iter()
            .map(|b| clap::builder::PossibleValue::new(b.name).help(b.summary)),
    );
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(names)
        .map(|name: String| SearchChoice::from_name(&name).unwrap_or_default())
}

#[derive(clap::Args, Clone)]
struct SearchArgs {
    /// Which engine runs the search.
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
    engine: EngineArg,
    /// Which search backend the interpreter uses.
    #[arg(long, value_parser = search_parser(), default_value = "auto")]
    search: SearchChoice,
    /// Stop after storing this many states (exit code 3).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_states: Option<u64>,
    #[command(flatten)]
    limits: RunLimits,
    /// Say on stderr which engine and search ran, and why.
    #[arg(short, long)]
    verbose: bool,
}

impl SearchArgs {
    fn budget(&self) -> Budget {
        Budget {
            max_states: self.max_states.map(|n| n as usize),
            deadline: self.limits.timeout.map(|t| Instant::now() + t),
            max_bytes: self.limits.max_memory.map(|m| m << 20),
            max_depth: None,
            progress: progress_bar(),
            cancel: None,
        }
    }
}

/// A spinner on stderr once a search has run for a second, when stderr is a terminal.
fn progress_bar() -> Option<puz::search::Progress> {
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
        bar.set_message(format!("{} expanded, {} stored", s.expanded, s.stored));
        bar.tick();
    }))
}

/// `10 rolls` or `6 pushes, 22 walks`; `1 throw`, `1 push` (see [`quantity`]).
fn cost_text(cost: &[u64], names: &[String]) -> String {
    let parts: Vec<String> = cost
        .iter()
        .zip(names)
        .map(|(&c, n)| quantity(c, n))
        .collect();
    parts.join(", ")
}

/// Prints search statistics on stderr.
fn print_stats(s: &puz::search::Stats) {
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
}

/// A positive, finite number of seconds, at most a year.
fn parse_seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(v > 0.0 && v <= 31_536_000.0) {
        return Err(format!(
            "`{s}` seconds: give a positive number up to 31536000 (a year)"
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

#[derive(Subcommand)]
enum Command {
    /// Check a .puz file and its levels; exit 0 when clean, 1 with diagnostics otherwise.
    Check { file: String },
    /// Compile a .puz file and print the model.
    Compile {
        file: String,
        /// Print the readable listing of the compiled model.
        #[arg(long)]
        dump: bool,
        /// Print the compiled model as JSON.
        #[arg(long, conflicts_with = "dump")]
        json: bool,
    },
    /// Solve a level: the file's first level, `--level NAME`, or a level file.
    Solve {
        file: String,
        /// A level file written in the puzzle's legend.
        level_file: Option<String>,
        /// An inline level by name.
        #[arg(long, conflicts_with = "level_file")]
        level: Option<String>,
        /// Print the board after every move.
        #[arg(long)]
        steps: bool,
        /// Refuse `--steps` boards longer than this many MiB in all (exit code 6).
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
        max_output: u64,
        /// Print the answer as JSON.
        #[arg(long)]
        json: bool,
        /// Solve every inline level of the file and print a table: cost, states expanded,
        /// time, or the level's error.
        #[arg(long, conflicts_with_all = ["level_file", "level", "steps"])]
        all: bool,
        /// Count moves under this metric of the file (`metric NAME { ... }`).
        #[arg(long)]
        metric: Option<String>,
        #[command(flatten)]
        search: SearchArgs,
        #[command(flatten)]
        dist: DistArgs,
    },
    /// Check the `expect` answers of every level of the files; exit 1 on any mismatch.
    Test {
        /// The `.puz` files.
        #[arg(required = true)]
        files: Vec<String>,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Export the reachable state graph of a level as DOT or JSON.
    Graph {
        file: String,
        /// A level file written in the puzzle's legend.
        level_file: Option<String>,
        /// An inline level by name.
        #[arg(long, conflicts_with = "level_file")]
        level: Option<String>,
        #[arg(long, value_enum, default_value = "dot")]
        format: GraphFormat,
        /// Build the graph of counted moves under this metric of the file.
        #[arg(long)]
        metric: Option<String>,
        /// Refuse graphs with more states than this (exit code 6).
        #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
        max_states: u64,
        /// Refuse exports longer than this many MiB (exit code 6).
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
        max_output: u64,
        #[command(flatten)]
        limits: RunLimits,
    },
    /// Report what a designer wants to know of a level's state graph.
    Analyze {
        file: String,
        /// A level file written in the puzzle's legend.
        level_file: Option<String>,
        /// An inline level by name.
        #[arg(long, conflicts_with = "level_file")]
        level: Option<String>,
        /// Refuse graphs with more states than this (exit code 6).
        #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..))]
        max_states: u64,
        /// Print the figures as JSON.
        #[arg(long)]
        json: bool,
        /// Study the graph of counted moves under this metric of the file.
        #[arg(long)]
        metric: Option<String>,
        #[command(flatten)]
        limits: RunLimits,
        #[command(flatten)]
        dist: DistArgs,
    },
    /// Answer a judge input (stdin when INPUT is omitted) in the file's declared format.
    Judge {
        file: String,
        input: Option<String>,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Serve the browser playground: edit rules with live diagnostics, play levels, watch
    /// the solver. Serves only the .puz files inside PATH (a directory, or one file).
    Serve {
        /// The directory of .puz files (or one .puz file) to serve.
        #[arg(default_value = ".")]
        path: String,
        /// The port; 0 picks a free one (the line printed on start says which).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on. Anything but loopback lets other machines in: the
        /// server warns, and anyone who can reach it can read and write the served files.
        #[arg(long, default_value = "127.0.0.1")]
        listen: std::net::IpAddr,
        /// Searches (solve, analyze, test) running at once; more are refused.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
        max_jobs: u64,
        /// The most seconds one search may take.
        #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..))]
        max_timeout: u64,
        /// The most states one search may store.
        #[arg(long, default_value_t = 50_000_000, value_parser = clap::value_parser!(u64).range(1..))]
        max_states: u64,
        /// Searches stop when the server's memory passes this many MiB.
        #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..))]
        max_memory: u64,
    },
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

mod dist_cmd;
use dist_cmd::DistArgs;

/// Writes answers to stdout (see [`output::stdout`]).
fn emit(text: &str) -> Result<(), u8> {
    output::stdout(text)
}

fn main() -> ExitCode {
    let code = match Cli::try_parse() {
        Ok(cli) => run(cli).err().unwrap_or(exit::OK),
        // `--help` and `--version` are answers (stdout, 0); usage errors are not (stderr, 2).
        Err(e) if e.use_stderr() => {
            use std::io::IsTerminal;
            let text = e.render();
            output::stderr(&if std::io::stderr().is_terminal() {
                text.ansi().to_string()
            } else {
                text.to_string()
            });
            exit::INPUT
        }
        Err(e) => emit(&e.render().to_string()).err().unwrap_or(exit::OK),
    };
    ExitCode::from(code)
}

/// How reports name an input: its path, or "standard input" for `-`.
fn source_name(path: &str) -> &str {
    if path == "-" {
        "standard input"
    } else {
        path
    }
}

fn load(file: &str) -> Result<Puzzle, u8> {
    let text = read_source(file).map_err(|e| {
        output::report(&e);
        exit::INPUT
    })?;
    Puzzle::load(source_name(file), text).map_err(|d| {
        output::report(&d);
        exit::RULES
    })
}

fn run(cli: Cli) -> Result<(), u8> {
    match cli.command {
        Command::Check { file } => {
            let p = load(&file)?;
            let m = &p.model;
            // Lints are warnings: shown on stderr, and the check still succeeds.
            let lints = p.lints();
            if let Some(w) = &lints {
                output::report(w);
            }
            let warned = lints.map_or(0, |w| w.problems.len() + w.omitted);
            emit(&format!(
                "{file}: ok ({}, {}, {}, {}{}{})\n",
                quantity(m.tiles.len() as u64, "tiles"),
                quantity(m.pieces.len() as u64, "pieces"),
                quantity(m.moves.len() as u64, "moves"),
                quantity(m.levels.len() as u64, "levels"),
                if m.judge.is_some() {
                    ", judge format"
                } else {
                    ""
                },
                match warned {
                    0 => String::new(),
                    1 => ", 1 warning".to_string(),
                    n => format!(", {n} warnings"),
                }
            ))
        }
        Command::Compile { file, dump, json } => {
            let p = load(&file)?;
            if json {
                let text = serde_json::to_string_pretty(&p.model).map_err(|e| {
                    say!("error: cannot write the model as JSON: {e}");
                    exit::OUTPUT
                })?;
                emit(&(text + "\n"))
            } else if dump {
                emit(&puz::compile::dump(&p.model))
            } else {
                emit(&format!(
                    "{file}: compiled; use --dump or --json to print the model\n"
                ))
            }
        }
        Command::Solve {
            file,
            all: true,
            json,
            search,
            metric,
            dist,
            ..
        } if !dist.active() => all_cmd(&file, json, &search, metric.as_deref()),
        Command::Test { files, search } => test_cmd(&files, &search),
        Command::Serve {
            path,
            port,
            listen,
            max_jobs,
            max_timeout,
            max_states,
            max_memory,
        } => {
            if !listen.is_loopback() {
                say!(
                    "warning: listening on {listen}, not loopback: anyone who can reach this \
                     machine can read and write the .puz files in {path} and run searches"
                );
            }
            let defaults = puz::serve::Caps::default();
            let caps = puz::serve::Caps {
                max_timeout: Duration::from_secs(max_timeout),
                default_timeout: defaults
                    .default_timeout
                    .min(Duration::from_secs(max_timeout)),
                max_states: max_states as usize,
                default_states: defaults.default_states.min(max_states as usize),
                max_memory_mb: max_memory,
            };
            let opts = puz::serve::ServeOptions {
                path: path.into(),
                listen,
                port,
                max_jobs: max_jobs as usize,
                caps,
            };
            puz::serve::run(opts).map_err(|e| {
                output::report(&e);
                exit::INPUT
            })
        }
        Command::Solve {
            file,
            level_file,
            level,
            steps,
            max_output,
            json,
            search,
            all,
            metric,
            dist,
        } => {
            if all {
                say!("error: --all solves every level in one process; drop --all or the distributed options");
                return Err(exit::INPUT);
            }
            solve_cmd(
                &file,
                level_file,
                level,
                steps.then(|| max_output.saturating_mul(1 << 20)),
                json,
                &search,
                metric.as_deref(),
                &dist,
            )
        }
        Command::Graph {
            file,
            level_file,
            level,
            format,
            max_states,
            max_output,
            limits,
            metric,
        } => graph_cmd(
            &file,
            level_file,
            level,
            max_states,
            &limits,
            metric.as_deref(),
            GraphOutput::Export {
                format: match format {
                    GraphFormat::Dot => puz::io::graph::Format::Dot,
                    GraphFormat::Json => puz::io::graph::Format::Json,
                },
                max_bytes: max_output.saturating_mul(1 << 20),
            },
        ),
        Command::Analyze {
            file,
            level_file,
            level,
            max_states,
            json,
            limits,
            metric,
            dist,
        } if dist.active() => {
            if metric.is_some() {
                say!("error: --metric is not searched across processes; drop it or the distributed options");
                return Err(exit::INPUT);
            }
            dist_analyze(&file, level_file, level, max_states, &limits, json, &dist)
        }
        Command::Analyze {
            file,
            level_file,
            level,
            max_states,
            json,
            limits,
            metric,
            ..
        } => graph_cmd(
            &file,
            level_file,
            level,
            max_states,
            &limits,
            metric.as_deref(),
            GraphOutput::Analysis { json },
        ),
        Command::Judge {
            file,
            input,
            search,
        } => {
            let p = load(&file)?;
            let path = input.unwrap_or_else(|| "-".to_string());
            let text = read_source(&path).map_err(|e| {
                output::report(&e);
                exit::INPUT
            })?;
            let opts = JudgeOptions {
                engine: search.engine.into(),
                search: search.search,
                budget: search.budget(),
            };
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let res = run_judge(&p, &text, &mut out, &opts);
            let flushed = out.flush();
            match res {
                Ok(summary) => {
                    flushed.map_err(output::write_failed)?;
                    for w in &summary.warnings {
                        say!("warning: {w}");
                    }
                    if search.verbose {
                        say!(
                            "puz: {} case(s), engine {} ({}), search {}",
                            summary.cases,
                            summary.engine,
                            summary.engine_reason,
                            summary.search
                        );
                    }
                    Ok(())
                }
                Err(JudgeError::Output(e)) => Err(output::write_failed(e)),
                Err(e) => {
                    flushed.map_err(output::write_failed)?;
                    Err(match e {
                        JudgeError::Input(d) => {
                            output::report(&d.renamed(source_name(&path)));
                            exit::INPUT
                        }
                        JudgeError::Solve(e) => solve_failed(e),
                        e @ JudgeError::Cutoff { .. } => {
                            say!("error: {e}");
                            exit::CUTOFF
                        }
                        e => {
                            output::report(&e);
                            exit::INPUT
                        }
                    })
                }
            }
        }
    }
}

/// Reports a solver refusal and gives its exit code.
fn solve_failed(e: SolveError) -> u8 {
    output::report(&e);
    match e {
        SolveError::NoFastPath(_) => exit::ENGINE,
        SolveError::SearchUnavailable(_) => exit::SEARCH,
        SolveError::NotInvertible(_) => exit::BIDIR,
        SolveError::BadPath(_) => exit::INTERNAL,
        SolveError::TooLarge(_) => exit::INPUT,
    }
}

/// Why no inline level could be chosen: bad usage, exit 2.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
enum LevelChoice {
    /// `--level NAME` names no level of the file.
    #[error("{file} has no level named {name:?}")]
    #[diagnostic(code(puz::input::no_such_level), help("its levels: {names}"))]
    NoSuchLevel {
        file: String,
        name: String,
        names: String,
    },
    /// The file has no inline level and no level file was given.
    #[error("{file} has no levels")]
    #[diagnostic(
        code(puz::input::no_levels),
        help("give a level file: puz solve {file} LEVEL")
    )]
    NoLevels { file: String },
}

/// `--metric NAME` names no metric of the file: bad usage, exit 2.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{file} has no metric named {name:?}")]
#[diagnostic(code(puz::input::no_such_metric), help("{names}"))]
struct NoSuchMetric {
    file: String,
    name: String,
    names: String,
}

/// The metric `--metric NAME` names (an index into the model's metrics), or `None`
/// without the flag; an unknown name is reported with the file's metrics (exit 2).
fn pick_metric(p: &Puzzle, file: &str, name: Option<&str>) -> Result<Option<usize>, u8> {
    let Some(name) = name else {
        return Ok(None);
    };
    p.model.metric_index(name).map(Some).ok_or_else(|| {
        let names: Vec<&str> = p.model.metrics.iter().map(|m| m.name.as_str()).collect();
        output::report(&NoSuchMetric {
            file: file.to_string(),
            name: name.to_string(),
            names: if names.is_empty() {
                "the file declares no metric (`metric NAME { straight MOVE }`)".to_string()
            } else {
                format!("its metrics: {}", names.join(", "))
            },
        });
        exit::INPUT
    })
}

/// The level a command works on: a level file, an inline level by name, or the first.
fn pick_level(
    p: &Puzzle,
    file: &str,
    level_file: Option<String>,
    level: Option<String>,
) -> Result<puz::engine::Level, u8> {
    match (level_file, level) {
        (Some(path), _) => {
            let text = read_source(&path).map_err(|e| {
                output::report(&e);
                exit::INPUT
            })?;
            p.level_from_file(source_name(&path), text).map_err(|d| {
                output::report(&d);
                exit::INPUT
            })
        }
        (None, name) => {
            let idx = match &name {
                Some(n) => p.level_index(n).ok_or_else(|| {
                    let names: Vec<&str> = p.model.levels.iter().map(|l| l.name.as_str()).collect();
                    output::report(&LevelChoice::NoSuchLevel {
                        file: file.to_string(),
                        name: n.clone(),
                        names: names.join(", "),
                    });
                    exit::INPUT
                })?,
                None if p.model.levels.is_empty() => {
                    output::report(&LevelChoice::NoLevels {
                        file: file.to_string(),
                    });
                    return Err(exit::INPUT);
                }
                None => 0,
            };
            p.inline_level(idx).map_err(|d| {
                output::report(&d);
                exit::RULES
            })
        }
    }
}

/// The interpreter for a level, to build its graph or draw its states.
fn setup(
    model: &puz::compile::Model,
    lvl: puz::engine::Level,
) -> Result<puz::engine::Expander<'_>, u8> {
    puz::engine::Expander::new(model, lvl, &Budget::default()).map_err(|e| match e {
        puz::engine::SetupError::Cutoff(c) => {
            say!("error: {c}");
            exit::CUTOFF
        }
        puz::engine::SetupError::TooLarge(why) => solve_failed(SolveError::TooLarge(why)),
    })
}

/// Time and memory limits, and statistics: of `puz solve` and `puz judge` (with the state
/// limit beside them) and of `puz graph` and `puz analyze`.
#[derive(clap::Args, Clone)]
struct RunLimits {
    /// Stop after this many seconds (exit code 3).
    #[arg(long, value_parser = parse_seconds)]
    timeout: Option<Duration>,
    /// Stop when memory use passes this many MiB (exit code 3).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_memory: Option<u64>,
    /// Print statistics on stderr: states, frontier or moves, peak memory, time.
    #[arg(long)]
    stats: bool,
}

/// `puz graph` and `puz analyze`: build the reachable state graph, then export or study it,
/// every phase under the state, time and memory limits.
fn graph_cmd(
    file: &str,
    level_file: Option<String>,
    level: Option<String>,
    max_states: u64,
    limits: &RunLimits,
    metric: Option<&str>,
    what: GraphOutput,
) -> Result<(), u8> {
    let t0 = Instant::now();
    let budget = Budget {
        max_states: Some(max_states as usize),
        deadline: limits.timeout.map(|t| t0 + t),
        max_bytes: limits.max_memory.map(|m| m << 20),
        max_depth: None,
        progress: None,
        cancel: None,
    };
    // Time counts from the start of the command: loading, setup, building, the rest.
    let stats = |graph: Option<(usize, usize)>| {
        if limits.stats {
            let peak = puz::search::peak_bytes().map_or("unknown".to_string(), |b| {
                format!("{:.1} MiB", b as f64 / 1048576.0)
            });
            let size = graph.map_or("graph not built".to_string(), |(n, m)| {
                format!("states {n}, moves {m}")
            });
            say!(
                "stats: {size}, peak memory {peak}, time {:.3}s",
                t0.elapsed().as_secs_f64()
            );
        }
    };
    let p = load(file)?;
    let metric = pick_metric(&p, file, metric)?;
    let lvl = pick_level(&p, file, level_file, level)?;
    let mut exp = puz::engine::Expander::new(&p.model, lvl, &budget).map_err(|e| {
        say!("error: {e}");
        stats(None);
        match e {
            puz::engine::SetupError::Cutoff(_) => exit::CUTOFF,
            puz::engine::SetupError::TooLarge(_) => exit::INPUT,
        }
    })?;
    let build_budget = Budget {
        max_depth: p.model.limit,
        ..budget.clone()
    };
    // Under a metric the graph's edges are counted moves, each labelled by its first
    // unit step.
    let built = match metric {
        Some(m) => puz::search::graph::StateGraph::build(
            &mut puz::engine::compound::Compound::new(&mut exp, m).label_by_first_step(),
            &build_budget,
        ),
        None => puz::search::graph::StateGraph::build(&mut exp, &build_budget),
    };
    let g = built.map_err(|e| {
        output::report(&e);
        stats(None);
        match e {
            puz::search::graph::GraphError::TooLarge { .. } => exit::GRAPH,
            puz::search::graph::GraphError::Cutoff(_) => exit::CUTOFF,
        }
    })?;
    let (states, moves) = (g.graph.node_count(), g.graph.edge_count());
    let form = p.form();
    let result = match what {
        GraphOutput::Export { format, max_bytes } => {
            let stdout = std::io::stdout();
            let out = std::io::BufWriter::new(stdout.lock());
            match puz::io::graph::export(&g, &exp, form, format, out, &budget, max_bytes) {
                Ok(()) => Ok(()),
                // A closed pipe ends quietly (0); a full disk is lost output (8).
                Err(puz::io::graph::ExportError::Io(e)) => Err(output::write_failed(e)),
                Err(e) => {
                    output::report(&e);
                    Err(match e {
                        puz::io::graph::ExportError::Cutoff(_) => exit::CUTOFF,
                        _ => exit::GRAPH,
                    })
                }
            }
        }
        GraphOutput::Analysis { json } => match g.analyze(&budget) {
            Err(c) => {
                say!("error: the analysis stopped: {c}");
                Err(exit::CUTOFF)
            }
            Ok(a) if json => {
                emit(&(serde_json::to_string_pretty(&a).expect("analysis serializes") + "\n"))
            }
            Ok(a) => emit(&analysis_text(&a, &g, &exp, form)),
        },
    };
    stats(Some((states, moves)));
    result
}

/// The figures of `puz analyze` as text, with the farthest state drawn.
fn analysis_text(
    a: &puz::search::graph::Analysis,
    g: &puz::search::graph::StateGraph,
    exp: &puz::engine::Expander,
    form: puz::compile::GridForm,
) -> String {
    let mut o = String::new();
    outln!(
        o,
        "reachable states: {} ({} between them, {})",
        a.reachable_states,
        quantity(a.transitions as u64, "moves"),
        quantity(a.goal_states as u64, "goal states")
    );
    outln!(
        o,
        "dead states: {} (no goal reachable); moves into them: {}",
        a.dead_states,
        a.moves_into_dead_states
    );
    outln!(
        o,
        "strongly connected components: {} (largest {})",
        a.strongly_connected_components,
        a.largest_component
    );
    outln!(
        o,
        "reversible: {}",
        if a.reversible {
            "yes, every move can be undone"
        } else {
            "no, some moves cannot be undone"
        }
    );
    match (a.optimal_moves, &a.optimal_solutions) {
        (Some(m), Some(n)) => outln!(
            o,
            "fewest moves to a goal: {m} ({n} distinct optimal {})",
            if n.to_string() == "1" {
                "solution"
            } else {
                "solutions"
            }
        ),
        _ => outln!(o, "no goal is reachable"),
    }
    outln!(
        o,
        "farthest reachable state: {}",
        quantity(a.farthest_distance as u64, "moves")
    );
    if let Some(far) = g
        .graph
        .node_indices()
        .find(|&n| g.graph[n].depth == a.farthest_distance)
    {
        out!(o, "{}", render(exp, &g.state(far), form));
    }
    let layers: Vec<String> = a.states_at_distance.iter().map(|n| n.to_string()).collect();
    outln!(o, "states at each distance: {}", layers.join(" "));
    o
}

/// What `graph_cmd` prints.
enum GraphOutput {
    /// The graph itself, at most `max_bytes` bytes of it.
    Export {
        format: puz::io::graph::Format,
        max_bytes: u64,
    },
    /// The figures of [`puz::search::graph::Analysis`].
    Analysis { json: bool },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum GraphFormat {
    Dot,
    Json,
}

/// `--steps` boards estimated past the output limit: refused before anything is drawn.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("--steps would print {boards} boards of {rows} x {cols}, about {mib} MiB, more than --max-output {limit} MiB")]
#[diagnostic(
    code(puz::output::steps_too_large),
    help("drop --steps for the moves alone, or raise --max-output")
)]
struct StepsTooLarge {
    boards: usize,
    rows: usize,
    cols: usize,
    mib: u64,
    limit: u64,
}

/// `puz analyze` across processes.
fn dist_analyze(
    file: &str,
    level_file: Option<String>,
    level: Option<String>,
    max_states: u64,
    limits: &RunLimits,
    json: bool,
    dist: &DistArgs,
) -> Result<(), u8> {
    let p = load(file)?;
    let lvl = pick_level(&p, file, level_file, level)?;
    let caps = (Some(max_states), limits.timeout, limits.max_memory);
    dist_cmd::analyze(&p, lvl, dist, caps, json, limits.stats)
}

/// `puz solve`; `steps` is the byte limit of the `--steps` boards when they are asked for.
#[allow(clippy::too_many_arguments)]
fn solve_cmd(
    file: &str,
    level_file: Option<String>,
    level: Option<String>,
    steps: Option<u64>,
    json: bool,
    search: &SearchArgs,
    metric: Option<&str>,
    dist: &DistArgs,
) -> Result<(), u8> {
    let p = load(file)?;
    let metric = pick_metric(&p, file, metric)?;
    let mut o = String::new();
    // Where the level's text is, to draw `--steps` boards in the symbols it was written in.
    let source = match (&level_file, &level) {
        (Some(path), _) => Some(Err(path.clone())),
        (None, Some(name)) => p.level_index(name).map(Ok),
        (None, None) => Some(Ok(0)),
    };
    let lvl = pick_level(&p, file, level_file, level)?;
    // Lints go to stderr before the search; the answer on stdout is unchanged.
    let inline = source.as_ref().and_then(|s| s.as_ref().ok().copied());
    if let Some(w) = p.level_lints(&lvl, inline) {
        output::report(&w);
    }
    let model = &p.model;
    let level_name = lvl.name.clone();
    let (rows, cols) = (lvl.board.rows, lvl.board.cols);
    let ans = if dist.active() {
        if metric.is_some() {
            say!("error: --metric is not searched across processes; drop it or the distributed options");
            return Err(exit::INPUT);
        }
        let limits = (
            search.max_states,
            search.limits.timeout,
            search.limits.max_memory,
        );
        // Every process must run with the same engine and search (checked at connect).
        let engine = clap::ValueEnum::to_possible_value(&search.engine)
            .map_or(String::new(), |v| v.get_name().to_string());
        let settings = [
            ("--engine", engine),
            ("--search", search.search.name().into()),
        ];
        match dist_cmd::solve(
            &p,
            lvl.clone(),
            dist,
            limits,
            &settings,
            search.limits.stats,
        )? {
            Some(ans) => ans,
            None => return Ok(()),
        }
    } else {
        let ans = Solver::for_metric(model, search.engine.into(), search.search, metric)
            .and_then(|mut s| s.solve(lvl.clone(), &search.budget(), true))
            .map_err(solve_failed)?;
        if search.limits.stats {
            print_stats(&ans.stats);
        }
        ans
    };
    if search.verbose {
        say!(
            "puz: engine {} ({}), search {}",
            ans.engine,
            ans.engine_reason,
            ans.search
        );
    }
    let form = p.form();
    let cost_names = cost_names(model);
    match &ans.outcome {
        Outcome::Cutoff(c) => {
            say!(
                "error: search stopped: {c}; no answer (expanded {}, stored {}, {:.3}s)",
                quantity(ans.stats.expanded, "states"),
                ans.stats.stored,
                ans.stats.elapsed.as_secs_f64()
            );
            return Err(exit::CUTOFF);
        }
        Outcome::Cost(cost) => {
            outln!(o, "cost: {}", cost_text(cost, &cost_names));
        }
        Outcome::Unsolvable if json => {
            let v = serde_json::json!({
                "puzzle": model.title, "level": level_name, "engine": ans.engine,
                "engine_reason": ans.engine_reason, "search": ans.search,
                "solved": false, "stats": ans.stats,
                "out_of_reach": p.out_of_reach(&lvl),
            });
            outln!(o, "{v}");
        }
        Outcome::Unsolvable => {
            outln!(
                o,
                "puzzle: {} / level {level_name:?} ({rows} x {cols})",
                model.title
            );
            outln!(
                o,
                "no solution: no goal can be reached{} ({} {} searched {})",
                model.limit.map_or(String::new(), |l| format!(
                    " within {}",
                    quantity(l.into(), "moves")
                )),
                ans.engine,
                ans.search,
                quantity(ans.stats.stored, "states")
            );
            for r in p.out_of_reach(&lvl) {
                outln!(o, "out of reach: {}", r.text);
            }
        }
        Outcome::Solved(path) => {
            if let Some(limit) = steps {
                // Each board is at least one byte per cell and line break: the output grows
                // as moves x cells, and is built in memory, so it is bounded before drawing.
                let board = (rows as u64).saturating_mul(cols as u64 + 1);
                let bytes = board.saturating_mul(path.states.len() as u64);
                if bytes > limit {
                    output::report(&StepsTooLarge {
                        boards: path.states.len(),
                        rows,
                        cols,
                        mib: bytes.div_ceil(1 << 20),
                        limit: limit >> 20,
                    });
                    return Err(exit::GRAPH);
                }
            }
            let steps = steps.is_some();
            let written = match source {
                Some(Ok(index)) if steps => inline_symbols(model, index),
                Some(Err(path)) if steps => read_source(&path)
                    .map(|text| file_symbols(model, &text))
                    .unwrap_or_default(),
                _ => vec![],
            };
            // Built only to draw boards: a stopped search must not pay for a second setup.
            let exp = setup(model, lvl)?;
            let letters: String = path.actions.iter().map(|&a| model.letter(a)).collect();
            let described = exp.describe_path(&path.states, &path.actions);
            // Unit steps per counted move: one each without a metric.
            let groups: Vec<usize> = match &ans.counted {
                Some(c) => c.groups.clone(),
                None => vec![1; path.actions.len()],
            };
            let cost = match &ans.counted {
                Some(c) => counted_cost(model, &path.actions, &c.groups),
                None => path_cost(model, &path.actions),
            };
            // Each counted move's unit steps, as indices into the path.
            let mut ranges = vec![];
            let mut k = 0;
            for &len in &groups {
                ranges.push(k..k + len);
                k += len;
            }
            let board = |o: &mut String, d: &MoveDescription, s: &[u32]| {
                if !d.tiles.is_empty() {
                    let changes: Vec<String> = d
                        .tiles
                        .iter()
                        .map(|t| format!("{} {} -> {}", cell_text(t.cell), t.from, t.to))
                        .collect();
                    outln!(o, "tiles: {}", changes.join(", "));
                }
                if !d.counters.is_empty() {
                    let changes: Vec<String> = d
                        .counters
                        .iter()
                        .map(|c| format!("{} {} -> {}", c.name, c.from, c.to))
                        .collect();
                    outln!(o, "counters: {}", changes.join(", "));
                }
                out!(o, "{}", render_as(&exp, s, form, &written));
            };
            if json {
                let costs: serde_json::Map<String, serde_json::Value> = cost_names
                    .iter()
                    .cloned()
                    .zip(cost.iter().map(|&c| c.into()))
                    .collect();
                let moves: Vec<serde_json::Value> = match &ans.counted {
                    None => described.iter().map(move_json).collect(),
                    Some(_) => ranges
                        .iter()
                        .map(|r| counted_json(&described[r.clone()]))
                        .collect(),
                };
                let mut v = serde_json::json!({
                    "puzzle": model.title, "level": level_name, "engine": ans.engine, "engine_reason": ans.engine_reason,
                    "search": ans.search, "solved": true, "cost": costs, "path": letters,
                    "canonical": puz::search::canonical(ans.search),
                    "move_count": groups.len(),
                    "moves": moves,
                    "stats": ans.stats,
                });
                if let Some(c) = &ans.counted {
                    v["metric"] = c.metric.clone().into();
                    v["counted_moves"] = groups.len().into();
                    v["unit_steps"] = path.actions.len().into();
                }
                if steps {
                    v["boards"] = path
                        .states
                        .iter()
                        .map(|s| render_as(&exp, s, form, &written))
                        .collect::<Vec<_>>()
                        .into();
                }
                outln!(o, "{v}");
            } else if let Some(c) = &ans.counted {
                outln!(
                    o,
                    "puzzle: {} / level {level_name:?} ({rows} x {cols})",
                    model.title
                );
                // The cost counts the metric's moves: the line says so, and how many
                // unit steps they take.
                outln!(
                    o,
                    "cost: {} (metric {}: {}, {})",
                    cost_text(&cost, &cost_names),
                    c.metric,
                    quantity(groups.len() as u64, "counted moves"),
                    quantity(path.actions.len() as u64, "unit steps")
                );
                outln!(o, "unit steps ({}): {}", path.actions.len(), letters);
                let width = groups.len().to_string().len();
                for (g, r) in ranges.iter().enumerate() {
                    outln!(
                        o,
                        "{:>width$}. {}",
                        g + 1,
                        counted_line(&described[r.clone()])
                    );
                }
                if steps {
                    outln!(o, "\nstart:");
                    out!(o, "{}", render_as(&exp, &path.states[0], form, &written));
                    for (g, r) in ranges.iter().enumerate() {
                        outln!(o, "\n{}: {}", g + 1, counted_line(&described[r.clone()]));
                        for (j, k) in r.clone().enumerate() {
                            let d = &described[k];
                            outln!(o, "{}.{}: {} ({})", g + 1, j + 1, d.line(), d.letter);
                            board(&mut o, d, &path.states[k + 1]);
                        }
                    }
                }
            } else {
                outln!(
                    o,
                    "puzzle: {} / level {level_name:?} ({rows} x {cols})",
                    model.title
                );
                outln!(o, "cost: {}", cost_text(&cost, &cost_names));
                outln!(o, "moves ({}): {}", path.actions.len(), letters);
                if !puz::search::canonical(ans.search) {
                    outln!(
                        o,
                        "note: one optimal path, not necessarily the tie rule's (--search {})",
                        ans.search
                    );
                }
                let width = described.len().to_string().len();
                for (k, d) in described.iter().enumerate() {
                    outln!(o, "{:>width$}. {}", k + 1, d.line());
                }
                if steps {
                    outln!(o, "\nstart:");
                    out!(o, "{}", render_as(&exp, &path.states[0], form, &written));
                    for (k, (d, s)) in described.iter().zip(&path.states[1..]).enumerate() {
                        outln!(o, "\n{}: {} ({})", k + 1, d.line(), d.letter);
                        board(&mut o, d, s);
                    }
                }
            }
        }
    }
    emit(&o)
}

/// One counted move as a line: the move, the piece, where its anchor started and ended,
/// and its unit steps' letters (`step_big big (0,1) -> (2,1) ss`). A move that moved no
/// piece shows its first step's line and the letters.
fn counted_line(steps: &[MoveDescription]) -> String {
    let letters: String = steps.iter().map(|d| d.letter.as_str()).collect();
    let (Some(first), Some(last)) = (steps.first(), steps.last()) else {
        return String::new();
    };
    match (first.main(), last.main()) {
        (Some(a), Some(b)) => match (a.from, b.to) {
            (Some(from), Some(to)) => format!(
                "{} {} {} -> {} {letters}",
                first.mv,
                a.name,
                cell_text(from),
                cell_text(to)
            ),
            _ => format!("{} {letters}", first.line()),
        },
        _ => format!("{} {letters}", first.line()),
    }
}

/// Loads a file's rules for `--all` and `puz test`, leaving each level to be checked
/// alone, so that one broken level does not hide the others.
fn load_rules(file: &str) -> Result<Puzzle, u8> {
    let text = read_source(file).map_err(|e| {
        output::report(&e);
        exit::INPUT
    })?;
    Puzzle::load_rules(source_name(file), text).map_err(|d| {
        output::report(&d);
        exit::RULES
    })
}

/// How one level of `--all` or `puz test` ended.
enum LevelRun {
    /// The search finished: the optimal cost, or `None` when no goal can be reached.
    Done {
        cost: Option<Vec<u64>>,
        stats: puz::search::Stats,
    },
    /// It could not finish: what went wrong, and the exit code `puz solve` gives it.
    Failed {
        why: String,
        code: u8,
        elapsed: Duration,
    },
}

/// One lint of a level, as `--all --json` lists it: its code and its message.
fn lint_json(w: &puz::diagnostics::Problem) -> serde_json::Value {
    use miette::Diagnostic;
    serde_json::json!({
        "code": w.code().map(|c| c.to_string()),
        "message": w.to_string(),
    })
}

/// Solves inline level `index` of `p` with `solver`, reporting any diagnostic on stderr.
/// The level's lints (the warnings `puz solve --level NAME` prints) go to stderr before
/// the search and are returned beside the run, for `--all --json`; they never make a
/// level fail.
fn run_level(
    p: &Puzzle,
    solver: &mut Solver,
    index: usize,
    search: &SearchArgs,
) -> (LevelRun, Vec<serde_json::Value>) {
    let lvl = match p.inline_level(index) {
        Ok(l) => l,
        Err(d) => {
            output::report(&d);
            let first = d.problems.first().map_or(String::new(), |p| p.to_string());
            let why = format!("invalid level: {first}");
            let run = LevelRun::Failed {
                why,
                code: exit::RULES,
                elapsed: Duration::ZERO,
            };
            return (run, vec![]);
        }
    };
    let lints = show_lints(p, &lvl, index);
    (solve_level(p, solver, lvl, search), lints)
}

/// Reports the lints of inline level `index` (set up as `lvl`) on stderr and returns them
/// as JSON ([`lint_json`]), the first [`puz::diagnostics::MAX_SHOWN`] of them.
fn show_lints(p: &Puzzle, lvl: &puz::engine::Level, index: usize) -> Vec<serde_json::Value> {
    match p.level_lints(lvl, Some(index)) {
        Some(w) => {
            output::report(&w);
            w.problems.iter().map(lint_json).collect()
        }
        None => vec![],
    }
}

/// Searches one level set up by [`run_level`].
fn solve_level(
    p: &Puzzle,
    solver: &mut Solver,
    lvl: puz::engine::Level,
    search: &SearchArgs,
) -> LevelRun {
    let t0 = Instant::now();
    let failed = |why: String, code: u8| LevelRun::Failed {
        why,
        code,
        elapsed: t0.elapsed(),
    };
    match solver.solve(lvl, &search.budget(), false) {
        Ok(ans) => match ans.outcome {
            Outcome::Cost(c) => LevelRun::Done {
                cost: Some(c),
                stats: ans.stats,
            },
            Outcome::Solved(path) => LevelRun::Done {
                cost: Some(match &ans.counted {
                    Some(c) => counted_cost(&p.model, &path.actions, &c.groups),
                    None => path_cost(&p.model, &path.actions),
                }),
                stats: ans.stats,
            },
            Outcome::Unsolvable => LevelRun::Done {
                cost: None,
                stats: ans.stats,
            },
            Outcome::Cutoff(c) => failed(format!("search stopped: {c}"), exit::CUTOFF),
        },
        Err(e) => {
            let why = e.to_string();
            failed(why, solve_failed(e))
        }
    }
}

/// The cost components' names: `moves` when the file declares no `cost`.
fn cost_names(model: &puz::compile::Model) -> Vec<String> {
    if model.costs.is_empty() {
        vec!["moves".to_string()]
    } else {
        model.costs.clone()
    }
}

/// `puz solve FILE --all`: every inline level, one row each. Exit 0 when every level ran
/// (solved or not), else the highest exit code among the levels that failed.
fn all_cmd(file: &str, json: bool, search: &SearchArgs, metric: Option<&str>) -> Result<(), u8> {
    let p = load_rules(file)?;
    let metric = pick_metric(&p, file, metric)?;
    let model = &p.model;
    if model.levels.is_empty() {
        output::report(&LevelChoice::NoLevels {
            file: file.to_string(),
        });
        return Err(exit::INPUT);
    }
    let mut solver = Solver::for_metric(model, search.engine.into(), search.search, metric)
        .map_err(solve_failed)?;
    let names = cost_names(model);
    let mut worst = exit::OK;
    let mut rows: Vec<[String; 4]> = vec![];
    let mut values = vec![];
    for (i, l) in model.levels.iter().enumerate() {
        let (run, lints) = run_level(&p, &mut solver, i, search);
        let (row, mut value) = match run {
            LevelRun::Done { cost, stats } => {
                let text = cost
                    .as_ref()
                    .map_or("no solution".to_string(), |c| cost_text(c, &names));
                let cost_json = cost.as_ref().map(|c| {
                    names
                        .iter()
                        .cloned()
                        .zip(c.iter().map(|&x| serde_json::Value::from(x)))
                        .collect::<serde_json::Map<_, _>>()
                });
                (
                    [
                        l.name.clone(),
                        text,
                        stats.expanded.to_string(),
                        format!("{:.3}s", stats.elapsed.as_secs_f64()),
                    ],
                    serde_json::json!({
                        "level": l.name, "solved": cost.is_some(), "cost": cost_json,
                        "expanded": stats.expanded, "stored": stats.stored,
                        "seconds": stats.elapsed.as_secs_f64(), "error": null,
                    }),
                )
            }
            LevelRun::Failed { why, code, elapsed } => {
                worst = worst.max(code);
                (
                    [
                        l.name.clone(),
                        format!("error (exit {code}): {why}"),
                        String::new(),
                        format!("{:.3}s", elapsed.as_secs_f64()),
                    ],
                    serde_json::json!({
                        "level": l.name, "solved": null, "cost": null, "expanded": null,
                        "stored": null, "seconds": elapsed.as_secs_f64(), "error": why, "exit": code,
                    }),
                )
            }
        };
        value["warnings"] = lints.into();
        rows.push(row);
        values.push(value);
    }
    let text = if json {
        let v = serde_json::json!({"puzzle": model.title, "levels": values});
        format!("{v}\n")
    } else {
        table(&["level", "cost", "states", "time"], &rows)
    };
    emit(&text)?;
    if worst == exit::OK {
        Ok(())
    } else {
        Err(worst)
    }
}

/// A plain table: a header, then rows; columns padded to their widest cell, numbers
/// (the last two columns) right-aligned. A row whose third cell is empty is an error
/// row: its second cell runs to the end of the line.
fn table(header: &[&str; 4], rows: &[[String; 4]]) -> String {
    let width = |k: usize| {
        rows.iter()
            .filter(|r| k != 1 || !r[2].is_empty())
            .map(|r| r[k].chars().count())
            .chain([header[k].len()])
            .max()
            .unwrap_or(0)
    };
    let w: Vec<usize> = (0..4).map(width).collect();
    let mut o = String::new();
    let line = |o: &mut String, r: [&str; 4]| {
        if r[2].is_empty() && r[1] != header[1] {
            outln!(o, "{:<a$}  {}  ({})", r[0], r[1], r[3], a = w[0]);
        } else {
            outln!(
                o,
                "{:<a$}  {:<b$}  {:>c$}  {:>d$}",
                r[0],
                r[1],
                r[2],
                r[3],
                a = w[0],
                b = w[1],
                c = w[2],
                d = w[3]
            );
        }
    };
    line(&mut o, *header);
    for r in rows {
        line(&mut o, [&r[0], &r[1], &r[2], &r[3]]);
    }
    o
}

/// `puz test FILE...`: solves every level with an `expect` clause and compares, showing
/// every level's lints on stderr (counted on the summary line). Exit 0
/// when every expectation holds, 1 when one does not (a different answer, or no answer
/// within the limits) or a file has errors, 2 when a file cannot be read.
fn test_cmd(files: &[String], search: &SearchArgs) -> Result<(), u8> {
    let (mut passed, mut failed, mut open, mut warned) = (0usize, 0usize, 0usize, 0usize);
    let mut worst = exit::OK;
    for file in files {
        let p = match load_rules(file) {
            Ok(p) => p,
            Err(code) => {
                emit(&format!("FAIL  {file}: the file does not load\n"))?;
                failed += 1;
                worst = worst.max(code);
                continue;
            }
        };
        let model = &p.model;
        let names = cost_names(model);
        let show = |e: &Option<Vec<u64>>| {
            e.as_ref()
                .map_or("no solution".to_string(), |c| cost_text(c, &names))
        };
        let mut solver = match Solver::new(model, search.engine.into(), search.search) {
            Ok(s) => s,
            Err(e) => {
                // The expectations cannot be checked: a failure (exit 1) like any other.
                output::report(&e);
                emit(&format!("FAIL  {file}: {e}\n"))?;
                failed += 1;
                continue;
            }
        };
        // One solver per metric, built when a level first expects an answer under it.
        let mut metric_solvers: Vec<Option<Result<Solver, String>>> =
            (0..model.metrics.len()).map(|_| None).collect();
        for (i, l) in model.levels.iter().enumerate() {
            let mut wants: Vec<(Option<usize>, &puz::compile::Expect)> = vec![];
            wants.extend(l.expect.iter().map(|e| (None, e)));
            wants.extend(l.metric_expects.iter().map(|(m, e)| (Some(*m), e)));
            if wants.is_empty() {
                // Not solved, but its warnings are shown all the same.
                if let Ok(lvl) = p.inline_level(i) {
                    warned += show_lints(&p, &lvl, i).len();
                }
                open += 1;
                emit(&format!("-     {file} {:?}: no expectation\n", l.name))?;
                continue;
            }
            for (n, (metric, expect)) in wants.into_iter().enumerate() {
                let want = match expect {
                    puz::compile::Expect::Cost(c) => Some(c.clone()),
                    puz::compile::Expect::Unsolvable => None,
                };
                // `"classic"` for the plain count, `"classic" [slides]` under a metric.
                let what = match metric {
                    None => format!("{:?}", l.name),
                    Some(m) => format!("{:?} [{}]", l.name, model.metrics[m].name),
                };
                let solver = match metric {
                    None => Ok(&mut solver),
                    Some(m) => metric_solvers[m]
                        .get_or_insert_with(|| {
                            Solver::for_metric(model, search.engine.into(), search.search, Some(m))
                                .map_err(|e| {
                                    output::report(&e);
                                    e.to_string()
                                })
                        })
                        .as_mut()
                        .map_err(|e| e.clone()),
                };
                let solver = match solver {
                    Ok(s) => s,
                    Err(why) => {
                        failed += 1;
                        emit(&format!(
                            "FAIL  {file} {what}: expected {}, got no answer: {why}\n",
                            show(&want)
                        ))?;
                        continue;
                    }
                };
                // The level's lints are shown once, with its first expectation.
                let run = if n == 0 {
                    let (run, lints) = run_level(&p, solver, i, search);
                    warned += lints.len();
                    run
                } else {
                    match p.inline_level(i) {
                        Ok(lvl) => solve_level(&p, solver, lvl, search),
                        Err(d) => LevelRun::Failed {
                            why: format!(
                                "invalid level: {}",
                                d.problems.first().map_or(String::new(), |p| p.to_string())
                            ),
                            code: exit::RULES,
                            elapsed: Duration::ZERO,
                        },
                    }
                };
                let line = match run {
                    LevelRun::Done { cost, stats } => {
                        let time = stats.elapsed.as_secs_f64();
                        if cost == want {
                            passed += 1;
                            format!("pass  {file} {what}: {} ({time:.3}s)", show(&cost))
                        } else {
                            failed += 1;
                            format!(
                                "FAIL  {file} {what}: expected {}, got {} ({time:.3}s)",
                                show(&want),
                                show(&cost)
                            )
                        }
                    }
                    LevelRun::Failed { why, elapsed, .. } => {
                        failed += 1;
                        format!(
                            "FAIL  {file} {what}: expected {}, got no answer: {why} ({:.3}s)",
                            show(&want),
                            elapsed.as_secs_f64()
                        )
                    }
                };
                emit(&(line + "\n"))?;
            }
        }
    }
    emit(&format!(
        "{passed} passed, {failed} failed, {open} without expectation{}\n",
        match warned {
            0 => String::new(),
            1 => ", 1 warning".to_string(),
            n => format!(", {n} warnings"),
        }
    ))?;
    if failed > 0 {
        worst = worst.max(exit::RULES);
    }
    if worst == exit::OK {
        Ok(())
    } else {
        Err(worst)
    }
}
