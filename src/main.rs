//! The `puz` command line: parses the arguments and hands each command to its module
//! in `cli/`, which calls the library and prints.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};

use puz::search::Budget;
use puz::solver::{EngineChoice, SearchChoice};

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

/// `--format`: how a level file is written, one of [`puz::io::formats::LevelFormat`].
fn format_parser() -> impl clap::builder::TypedValueParser<Value = puz::io::formats::LevelFormat> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["grid", "sokoban", "rushhour"]).map(|name: String| {
        puz::io::formats::LevelFormat::from_name(&name)
            .unwrap_or(puz::io::formats::LevelFormat::Grid)
    })
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
            progress: cli::progress_bar(),
            cancel: None,
        }
    }
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
    /// Check a .puz file and its levels, or a PuzzleScript game; exit 0 when clean, 1
    /// with diagnostics otherwise.
    Check {
        file: String,
        /// The file's language; `auto` reads PuzzleScript when the text has its section
        /// headers on lines of their own.
        #[arg(long, value_enum, default_value = "auto")]
        lang: cli::Lang,
    },
    /// Compile a .puz file and print the model.
    Compile {
        file: String,
        /// Print the readable listing of the compiled model.
        #[arg(long)]
        dump: bool,
        /// Print the compiled model as JSON.
        #[arg(long, conflicts_with = "dump")]
        json: bool,
        /// The file's language; `auto` reads PuzzleScript when the text has its section
        /// headers on lines of their own. For a game, `--level` is `N` or `#K`.
        #[arg(long, value_enum, default_value_t = cli::Lang::Auto)]
        lang: cli::Lang,
    },
    /// Solve a level: the file's first level, `--level NAME`, or a level file (a Sokoban
    /// collection `.xsb`/`.sok` alone implies the built-in Sokoban rules).
    Solve {
        file: String,
        /// A level file: one level in the puzzle's legend, or a collection (Sokoban
        /// `.xsb`/`.sok`, Fogleman's Rush Hour lines).
        level_file: Option<String>,
        /// An inline level by name; in a collection, a title or a number from 1.
        #[arg(long)]
        level: Option<String>,
        /// How the level file is written: grid, sokoban or rushhour (default: from its
        /// extension and text).
        #[arg(long, value_parser = format_parser())]
        level_format: Option<puz::io::formats::LevelFormat>,
        /// Play these moves in LURD (l u r d walk, L U R D push) on the level and check
        /// they are legal and solve it, instead of searching.
        #[arg(long, conflicts_with_all = ["all", "steps"], allow_hyphen_values = true)]
        verify: Option<String>,
        /// Print the board after every move.
        #[arg(long)]
        steps: bool,
        /// Refuse `--steps` boards longer than this many MiB in all (exit code 6).
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
        max_output: u64,
        /// Print the answer as JSON.
        #[arg(long)]
        json: bool,
        /// Solve every inline level of the file, or every level of a collection, and print
        /// a table: cost, states expanded, time, or the level's error.
        #[arg(long, conflicts_with_all = ["level", "steps"])]
        all: bool,
        /// Write the answer as an animated GIF: the start and the board after each step,
        /// in the playground's colours.
        #[arg(long, value_name = "OUT", conflicts_with = "all")]
        gif: Option<String>,
        /// Write every board of the answer (the start, then after each step) side by side
        /// as one PNG.
        #[arg(long, value_name = "OUT", conflicts_with = "all")]
        png_strip: Option<String>,
        /// Count moves under this metric of the file (`metric NAME { ... }`).
        #[arg(long)]
        metric: Option<String>,
        /// The file's language; `auto` reads PuzzleScript when the text has its section
        /// headers on lines of their own. For a game, `--level` is `N` (the entry, messages
        /// counted, from 0) or `#K` (the K-th playable level).
        #[arg(long, value_enum, default_value_t = cli::Lang::Auto)]
        lang: cli::Lang,
        #[command(flatten)]
        search: SearchArgs,
        #[command(flatten)]
        dist: DistArgs,
    },
    /// Write the playground for a file as one standalone HTML page that plays and solves
    /// its levels in the browser, opened from disk with no server.
    Export {
        /// The .puz file or PuzzleScript game.
        file: String,
        /// The page to write.
        #[arg(long, value_name = "OUT")]
        html: String,
        /// The file's language; `auto` reads PuzzleScript when the text has its section
        /// headers on lines of their own.
        #[arg(long, value_enum, default_value_t = cli::Lang::Auto)]
        lang: cli::Lang,
    },
    /// Check the `expect` answers of every level of the files; exit 1 on any mismatch.
    Test {
        /// The `.puz` files, or PuzzleScript games (checked against their `.expect` file).
        #[arg(required = true)]
        files: Vec<String>,
        /// The files' language; `auto` reads a file as PuzzleScript when its text has the
        /// section headers on lines of their own.
        #[arg(long, value_enum, default_value_t = cli::Lang::Auto)]
        lang: cli::Lang,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Export the reachable state graph of a level as DOT or JSON.
    Graph {
        file: String,
        /// A level file: one level in the puzzle's legend, or a collection.
        level_file: Option<String>,
        /// An inline level by name; in a collection, a title or a number from 1.
        #[arg(long)]
        level: Option<String>,
        /// How the level file is written: grid, sokoban or rushhour (default: from its
        /// extension and text).
        #[arg(long, value_parser = format_parser())]
        level_format: Option<puz::io::formats::LevelFormat>,
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
        /// The file's language; `auto` reads PuzzleScript when the text has its section
        /// headers on lines of their own. For a game, `--level` is `N` or `#K`.
        #[arg(long, value_enum, default_value_t = cli::Lang::Auto)]
        lang: cli::Lang,
    },
    /// Report what a designer wants to know of a level's state graph.
    Analyze {
        file: String,
        /// A level file: one level in the puzzle's legend, or a collection.
        level_file: Option<String>,
        /// An inline level by name; in a collection, a title or a number from 1.
        #[arg(long)]
        level: Option<String>,
        /// How the level file is written: grid, sokoban or rushhour (default: from its
        /// extension and text).
        #[arg(long, value_parser = format_parser())]
        level_format: Option<puz::io::formats::LevelFormat>,
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
        /// The file's language; `auto` reads PuzzleScript when the text has its section
        /// headers on lines of their own. For a game, `--level` is `N` or `#K`.
        #[arg(long, value_enum, default_value_t = cli::Lang::Auto)]
        lang: cli::Lang,
    },
    /// Play inputs on a level of a PuzzleScript game: prints `win after N` (N counts the
    /// inputs from 1) or `no win`, as PuzzleScript's oracle `replay` does; inputs after the
    /// win are not played. Says why the last input changed nothing, when it did (every
    /// such input with --why), and which rules keep firing when again turns never settle.
    Play {
        /// The game (a PuzzleScript source; `-` reads standard input).
        file: String,
        /// `N`: the entry of the LEVELS section, messages counted, from 0; `#K`: the K-th
        /// playable level, from 1. Default: the first playable level.
        #[arg(long, value_parser = cli::play::parse_level_pick)]
        level: Option<cli::play::LevelPick>,
        /// The inputs: words (`up left down right action undo restart tick`) or letters
        /// (`u l d r x`, `.` tick, `z` undo, `R` restart), separated by blanks or commas;
        /// letters may be run together (`uldrx`). It is words when an item is a whole word.
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        inputs: String,
        /// Read the inputs from this file instead (`-`: standard input), written as for
        /// --inputs: for lists longer than a command line holds.
        #[arg(long, conflicts_with = "inputs")]
        inputs_file: Option<String>,
        /// Print the final level in PuzzleScript's serialization (`convertLevelToString`).
        #[arg(long)]
        print_level: bool,
        /// Print the outcome as JSON: won, won_after, level, inputs, applied, messages,
        /// stuck, refused, serialization.
        #[arg(long)]
        json: bool,
        /// Say why every input that changed nothing changed nothing (by default only the
        /// last input is explained, when it changed nothing).
        #[arg(long)]
        why: bool,
        /// Stop after this many seconds (exit code 3).
        #[arg(long, value_parser = parse_seconds, default_value = "60")]
        timeout: Duration,
        /// Stop when memory use passes this many MiB (exit code 3).
        #[arg(long, default_value_t = 2048, value_parser = clap::value_parser!(u64).range(1..))]
        max_memory: u64,
        /// The file's language; `auto` reads PuzzleScript when the text has its section
        /// headers.
        #[arg(long, value_enum, default_value_t = cli::Lang::Auto)]
        lang: cli::Lang,
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

#[macro_use]
mod cli;

use cli::dist::DistArgs;
use cli::{emit, exit, output};

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

fn run(mut cli: Cli) -> Result<(), u8> {
    if let Command::Solve {
        file, level_file, ..
    }
    | Command::Graph {
        file, level_file, ..
    }
    | Command::Analyze {
        file, level_file, ..
    } = &mut cli.command
    {
        cli::imply_rules(file, level_file);
    }
    match cli.command {
        Command::Check { file, lang } => cli::check::check(&file, lang),
        Command::Compile {
            file,
            dump,
            json,
            lang,
        } => cli::check::compile(&file, dump, json, lang),
        Command::Solve {
            file,
            level_file,
            level,
            steps,
            json,
            all,
            lang,
            search,
            dist,
            gif,
            png_strip,
            ..
        } if cli::is_puzzlescript(&file, lang) => {
            cli::export::Pictures {
                gif,
                png: png_strip,
            }
            .refuse_game(&file)?;
            let (text, _) = cli::read_as(&file, lang)?;
            if level_file.is_some() {
                say!("error: a PuzzleScript game's levels are its own: give --level N or #K, without a level file");
                return Err(exit::INPUT);
            }
            if all && dist.active() {
                say!("error: --all solves every level in one process; drop --all or the distributed options");
                return Err(exit::INPUT);
            }
            if all {
                cli::ps::all(&file, text, json, &search)
            } else {
                cli::ps::solve(&file, text, level.as_deref(), steps, json, &search, &dist)
            }
        }
        Command::Solve {
            file,
            level_file,
            level_format,
            all: true,
            json,
            search,
            metric,
            dist,
            ..
        } if !dist.active() => match level_file {
            Some(path) => {
                cli::all::run_file(&file, &path, level_format, json, &search, metric.as_deref())
            }
            None => cli::all::run(&file, json, &search, metric.as_deref()),
        },
        Command::Test {
            files,
            lang,
            search,
        } => cli::test::run(&files, lang, &search),
        Command::Export { file, html, lang } => cli::export::html(&file, &html, lang),
        Command::Serve {
            path,
            port,
            listen,
            max_jobs,
            max_timeout,
            max_states,
            max_memory,
        } => cli::serve::run(
            path,
            port,
            listen,
            max_jobs,
            max_timeout,
            max_states,
            max_memory,
        ),
        Command::Solve {
            file,
            level_file,
            level,
            level_format,
            verify,
            steps,
            max_output,
            json,
            search,
            all,
            metric,
            dist,
            gif,
            png_strip,
            ..
        } => {
            if all {
                say!("error: --all solves every level in one process; drop --all or the distributed options");
                return Err(exit::INPUT);
            }
            let choice = cli::LevelChoice {
                file: level_file,
                level,
                format: level_format,
            };
            cli::solve::run(
                &file,
                &choice,
                steps.then(|| max_output.saturating_mul(1 << 20)),
                json,
                &search,
                metric.as_deref(),
                &dist,
                verify.as_deref(),
                &cli::export::Pictures {
                    gif,
                    png: png_strip,
                },
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
            lang,
            ..
        } if cli::is_puzzlescript(&file, lang) => {
            let (text, _) = cli::read_as(&file, lang)?;
            ps_only(level_file.is_some(), metric.is_some())?;
            cli::ps::graph(
                &file,
                text,
                level.as_deref(),
                max_states,
                &limits,
                format.export(max_output),
            )
        }
        Command::Analyze {
            file,
            level_file,
            level,
            max_states,
            json,
            limits,
            metric,
            dist,
            lang,
            ..
        } if cli::is_puzzlescript(&file, lang) => {
            let (text, _) = cli::read_as(&file, lang)?;
            ps_only(level_file.is_some(), metric.is_some())?;
            if dist.active() {
                return cli::ps::dist_analyze(
                    &file,
                    text,
                    level.as_deref(),
                    max_states,
                    &limits,
                    json,
                    &dist,
                );
            }
            cli::ps::graph(
                &file,
                text,
                level.as_deref(),
                max_states,
                &limits,
                cli::graph::GraphOutput::Analysis { json },
            )
        }
        Command::Graph {
            file,
            level_file,
            level,
            level_format,
            format,
            max_states,
            max_output,
            limits,
            metric,
            ..
        } => cli::graph::graph_cmd(
            &file,
            &cli::LevelChoice {
                file: level_file,
                level,
                format: level_format,
            },
            max_states,
            &limits,
            metric.as_deref(),
            format.export(max_output),
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
            level_format,
            ..
        } if dist.active() => {
            if metric.is_some() {
                say!("error: --metric is not searched across processes; drop it or the distributed options");
                return Err(exit::INPUT);
            }
            let choice = cli::LevelChoice {
                file: level_file,
                level,
                format: level_format,
            };
            cli::graph::dist_analyze(&file, &choice, max_states, &limits, json, &dist)
        }
        Command::Analyze {
            file,
            level_file,
            level,
            max_states,
            json,
            limits,
            metric,
            level_format,
            ..
        } => cli::graph::graph_cmd(
            &file,
            &cli::LevelChoice {
                file: level_file,
                level,
                format: level_format,
            },
            max_states,
            &limits,
            metric.as_deref(),
            cli::graph::GraphOutput::Analysis { json },
        ),
        Command::Judge {
            file,
            input,
            search,
        } => cli::judge::run(file, input, &search),
        Command::Play {
            file,
            level,
            inputs,
            inputs_file,
            print_level,
            json,
            why,
            timeout,
            max_memory,
            lang,
        } => cli::play::run(
            &file,
            lang,
            level,
            cli::play::Inputs {
                text: inputs,
                file: inputs_file,
            },
            cli::play::Show {
                print_level,
                json,
                why,
            },
            cli::play::Limits {
                timeout,
                max_memory,
            },
        ),
    }
}

/// Refuses what a PuzzleScript game has no use for: a level file (its levels are its
/// own) and `--metric` (its cost is the number of inputs).
fn ps_only(level_file: bool, metric: bool) -> Result<(), u8> {
    let what = if level_file {
        "a level file: a game's levels are its own (give --level N or #K)"
    } else if metric {
        "--metric: a game's cost is the number of inputs"
    } else {
        return Ok(());
    };
    say!("error: a PuzzleScript game takes no {what}");
    Err(exit::INPUT)
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

#[derive(Clone, Copy, clap::ValueEnum)]
enum GraphFormat {
    Dot,
    Json,
}

impl GraphFormat {
    /// `puz graph`'s output in this format, at most `max_output` MiB.
    fn export(self, max_output: u64) -> cli::graph::GraphOutput {
        cli::graph::GraphOutput::Export {
            format: match self {
                GraphFormat::Dot => puz::io::graph::Format::Dot,
                GraphFormat::Json => puz::io::graph::Format::Json,
            },
            max_bytes: max_output.saturating_mul(1 << 20),
        }
    }
}
