//! PuzzleScript conformance: PuzzleScript's own simulation tests (`testdata.js`, 470
//! cases) played by puz's engine, each final level compared with the one PuzzleScript's
//! engine reached; and a scaffold for its compiler's error-message tests.
//!
//! A case is run as its framework's `runTest` runs it: the game is loaded at the case's
//! target level (the again turns the load schedules included), the inputs are played one
//! by one (`undo`, `restart` and `tick` too, each followed by its again turns), a won level
//! loads the next one at once ([`OnWin::NextLevel`], as with `unitTesting` on), and
//! `convertLevelToString()` of the end is compared exactly with [`Session::serialize`].
//!
//! The reference is read from `../shared/puzzlescript` beside the crate; without it the
//! tests are skipped with a note (and fail when `CI` is set). `PS_CASE=TEXT` runs only the
//! cases whose name contains TEXT.

use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use puz::puzzlescript::{Game, Input, OnWin, Session};

use crate::common::ps_data::{self, CaseInput, ErrCase, SimCase};

/// One case longer than this is reported as hanging (an again chain that never ends, a
/// rule group that loops) rather than waited for.
const CASE_TIMEOUT: Duration = Duration::from_secs(30);

/// After this many hanging cases the rest are not run: each hang leaves a thread spinning.
const MAX_HANGS: usize = 3;

/// Why a case is not run, or `None` to run it. Every reason is a kind of case whose
/// expected level puz cannot be held to.
fn skip_reason(case: &SimCase) -> Option<String> {
    // Randomness: `random` (a rule prefix, or a random choice of object on a right-hand
    // side) and `randomdir` draw from PuzzleScript's seeded generator (seedrandom's RC4
    // over the seed text). puz's generator is not PuzzleScript's, so only the seed-free
    // parts of such a game could match: the whole case is skipped, with the seed it gives.
    // Whether a game is random is what puz's compiler says of it (a `random` word in a
    // comment or an unused rule does not count).
    let game = Game::load_despite_errors(&case.name, Arc::new(case.source.clone()))
        .ok()?
        .0;
    if game.is_random() {
        return Some(match &case.seed {
            Some(seed) => {
                format!("randomness (`random` or `randomdir` in its rules, seed {seed:?})")
            }
            None => "randomness (`random` or `randomdir` in its rules, no seed given)".into(),
        });
    }
    // Real time (`realtime_interval`) is not skipped: the test framework never runs the
    // clock, so such a case is as deterministic as any, its `tick` inputs included.
    None
}

/// The first line where two serializations differ, for a report.
fn first_difference(got: &str, want: &str) -> String {
    let (g, w): (Vec<&str>, Vec<&str>) = (got.split('\n').collect(), want.split('\n').collect());
    for i in 0..g.len().max(w.len()) {
        match (g.get(i), w.get(i)) {
            (Some(a), Some(b)) if a == b => {}
            (a, b) => {
                return format!(
                    "line {}: got {}, want {}",
                    i + 1,
                    a.map_or("nothing".into(), |a| format!("{a:?}")),
                    b.map_or("nothing".into(), |b| format!("{b:?}"))
                )
            }
        }
    }
    "the same lines".into()
}

/// The input a case's data item stands for.
fn input_of(item: &CaseInput) -> Option<Input> {
    match item {
        CaseInput::Code(c) => Input::from_code(*c),
        CaseInput::Word(w) => Input::from_word(w).filter(|i| i.code().is_none()),
    }
}

/// Plays one case: `Ok(())` when the final level is the expected one, else what differs.
fn run_case(case: &SimCase) -> Result<(), String> {
    let inputs = case
        .inputs
        .iter()
        .map(|i| input_of(i).ok_or(format!("the data has an input puz cannot read: {i:?}")))
        .collect::<Result<Vec<_>, _>>()?;
    // PuzzleScript's test runner plays a game even when its compiler reports errors (the
    // lines in error left out), and some test games have them: so does this.
    let (game, _warnings) = Game::load_despite_errors(&case.name, Arc::new(case.source.clone()))
        .map_err(|d| {
            format!(
                "does not load: {} error(s), the first: {}",
                d.problems.len() + d.omitted,
                d.problems.first().map_or(String::new(), |p| p.to_string())
            )
        })?;
    let mut session = Session::new(&game, case.target, OnWin::NextLevel)
        .ok_or(format!("no entry {} to start at", case.target))?;
    for input in inputs {
        session.input(input);
    }
    let got = session.serialize();
    if got == case.expected {
        Ok(())
    } else {
        Err(first_difference(&got, &case.expected))
    }
}

/// The text of a panic's payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// What running `f` on its own thread gave: its answer, a panic, or a hang.
enum Ran<T> {
    Done(T),
    Panicked(String),
    Hung,
}

fn run_guarded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Ran<T> {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(CASE_TIMEOUT) {
        Ok(v) => {
            let _ = handle.join();
            Ran::Done(v)
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => match handle.join() {
            Err(payload) => Ran::Panicked(panic_text(payload.as_ref())),
            Ok(()) => Ran::Panicked("the case's thread ended without an answer".into()),
        },
        // The thread is left running: there is no way to stop it.
        Err(mpsc::RecvTimeoutError::Timeout) => Ran::Hung,
    }
}

/// The cases `PS_CASE` selects (all without it).
fn selected<T>(cases: Vec<T>, name: impl Fn(&T) -> &str) -> Vec<T> {
    match std::env::var("PS_CASE") {
        Ok(f) if !f.is_empty() => cases.into_iter().filter(|c| name(c).contains(&f)).collect(),
        _ => cases,
    }
}

#[test]
fn puzzlescript_reference_data_reads_whole() {
    if ps_data::reference_or_skip("puzzlescript_reference_data_reads_whole").is_none() {
        return;
    }
    let sim = ps_data::sim_cases();
    assert_eq!(sim.len(), 470, "testdata.js holds 470 simulation cases");
    assert_eq!(sim[0].name, "sokoban no win condition");
    assert!(sim[0].source.contains("\nOBJECTS\n"));
    assert_eq!(
        sim[0].inputs[..3],
        [CaseInput::Code(0), CaseInput::Code(0), CaseInput::Code(3)]
    );
    assert!(
        sim[0].expected.starts_with("background wall:0,0,"),
        "{}",
        sim[0].expected
    );
    // Every input is one puz reads.
    for c in &sim {
        for i in &c.inputs {
            assert!(input_of(i).is_some(), "{}: input {i:?}", c.name);
        }
    }
    let words: usize = sim
        .iter()
        .flat_map(|c| &c.inputs)
        .filter(|i| matches!(i, CaseInput::Word(_)))
        .count();
    assert!(words > 0, "some cases undo, restart or tick");
    assert!(
        sim.iter().any(|c| c.target > 0),
        "some cases start past level 0"
    );
    assert!(
        sim.iter().any(|c| c.seed.is_some()),
        "some cases give a seed"
    );
    let err = ps_data::err_cases();
    assert!(
        err.len() >= 300,
        "errormessage_testdata.js: {} cases",
        err.len()
    );
    assert!(err.iter().any(|c| c.error_count == 0));
    assert!(err
        .iter()
        .any(|c| c.error_count > 0 && !c.messages.is_empty()));
    let names: std::collections::HashSet<&str> = err.iter().map(|c| c.name.as_str()).collect();
    assert!(
        names.contains("Background missing"),
        "a backtick-named case reads too"
    );
    assert!(names.contains("Player missing"));
}

/// The skip decisions on a few made-up sources (comments, case, sections).
#[test]
fn puzzlescript_skip_decisions() {
    let case = |source: &str, seed: Option<&str>| SimCase {
        name: "t".into(),
        source: source.into(),
        inputs: vec![],
        expected: String::new(),
        target: 0,
        seed: seed.map(str::to_string),
        audio: None,
    };
    let rules = |r: &str| {
        format!(
            "title x\n\nOBJECTS\n\nBackground\nblack\n\nPlayer\nwhite\n\nCrate\nred\n\nRandomWall\nred\n\n\
             LEGEND\n\n. = Background\nP = Player\n\nCOLLISIONLAYERS\n\nBackground\nPlayer, Crate, RandomWall\n\n\
             RULES\n\n{r}\n\nWINCONDITIONS\n\nLEVELS\n\n.P.\n\nmessage random\n"
        )
    };
    assert_eq!(
        skip_reason(&case(
            &rules("[ > Player | Crate ] -> [ > Player | > Crate ]"),
            None
        )),
        None
    );
    assert!(
        skip_reason(&case(&rules("RANDOM [ Crate ] -> [ ]"), Some("5")))
            .unwrap()
            .contains("seed \"5\"")
    );
    assert!(
        skip_reason(&case(&rules("[ Crate ] -> [ randomDir Crate ]"), None))
            .unwrap()
            .contains("`randomdir`")
    );
    assert!(skip_reason(&case(&rules("[ Crate ] -> [ random Crate ]"), None)).is_some());
    // In a comment, in an object's name, in a level message: not randomness.
    assert_eq!(
        skip_reason(&case(&rules("(random [ x ] -> [ ] (nested))"), None)),
        None
    );
    assert_eq!(
        skip_reason(&case(&rules("[ RandomWall ] -> [ ]"), None)),
        None
    );
    // Real time is not a reason: the tests never run the clock.
    let realtime =
        rules("[ Crate ] -> [ ]").replace("title x\n", "title x\nrealtime_interval 0.2\n");
    assert_eq!(skip_reason(&case(&realtime, None)), None);
}

#[test]
fn puzzlescript_first_difference_names_the_line() {
    assert_eq!(
        first_difference("a\nb\n", "a\nc\n"),
        "line 2: got \"b\", want \"c\""
    );
    assert_eq!(
        first_difference("a\n", "a\nb\n"),
        "line 2: got \"\", want \"b\""
    );
    assert_eq!(
        first_difference("a", "a\n"),
        "line 2: got nothing, want \"\""
    );
}

#[test]
fn puzzlescript_conformance() {
    if ps_data::reference_or_skip("puzzlescript_conformance").is_none() {
        return;
    }
    let cases = selected(ps_data::sim_cases(), |c| &c.name);
    let total = cases.len();
    let (mut passed, mut failed, mut skipped, mut unrun) = (0, vec![], vec![], 0);
    let mut with_audio = 0;
    let mut run = vec![];
    for case in cases {
        match skip_reason(&case) {
            Some(reason) => skipped.push(format!("{}: {reason}", case.name)),
            None => {
                with_audio += usize::from(case.audio.is_some());
                run.push(case);
            }
        }
    }
    // The cases run on a few workers at once (each case on a thread of its own, with
    // a timeout); results are reported in the data's order.
    let hangs = std::sync::atomic::AtomicUsize::new(0);
    let next = std::sync::atomic::AtomicUsize::new(0);
    type Slot = std::sync::Mutex<Option<Ran<Result<(), String>>>>;
    let results: Vec<Slot> = run.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 4));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(case) = run.get(i) else { break };
                if hangs.load(std::sync::atomic::Ordering::SeqCst) >= MAX_HANGS {
                    continue;
                }
                let case = case.clone();
                let r = run_guarded(move || run_case(&case));
                if matches!(r, Ran::Hung) {
                    hangs.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
                *results[i].lock().unwrap() = Some(r);
            });
        }
    });
    for (case, r) in run.iter().zip(results) {
        let name = &case.name;
        match r.into_inner().unwrap() {
            None => unrun += 1,
            Some(Ran::Done(Ok(()))) => passed += 1,
            Some(Ran::Done(Err(why))) => failed.push(format!("{name}: {why}")),
            Some(Ran::Panicked(why)) => failed.push(format!("{name}: panicked: {why}")),
            Some(Ran::Hung) => failed.push(format!("{name}: still running after {CASE_TIMEOUT:?}")),
        }
    }
    let mut report = format!(
        "PuzzleScript conformance (testdata.js): {passed} passed, {} failed, {} skipped, of {total}\n",
        failed.len(),
        skipped.len()
    );
    if unrun > 0 {
        report += &format!("{unrun} not run after {MAX_HANGS} hanging cases\n");
    }
    if with_audio > 0 {
        report += &format!(
            "{with_audio} run cases also expect sounds, which puz does not model (not compared)\n"
        );
    }
    if !failed.is_empty() {
        report += "failed:\n";
        for f in &failed {
            report += &format!("  {f}\n");
        }
    }
    report += "skipped:\n";
    for s in &skipped {
        report += &format!("  {s}\n");
    }
    eprintln!("{report}");
    assert!(failed.is_empty() && unrun == 0, "{report}");
}

/// Cases of `errormessage_testdata.js` where puz's verdict knowingly differs from
/// PuzzleScript's, each with the reason.
const PARITY_KNOWN: &[(&str, &str)] = &[(
    "#805 parsing sections names, not allowing things directly after (no error test)",
    "a section header (`SOUNDS`) right after a multi-line comment that closes on a line of `=`: \
     PuzzleScript starts a new line after the comment; puz's grammar reads the whole physical \
     line as a line of `=` and refuses the header after it",
)];

/// PuzzleScript's message with its particulars (line, quoted text, names, numbers)
/// blanked: its kind, for the coverage table.
fn message_kind(m: &str) -> String {
    let m = m.trim();
    let m = match m.strip_prefix("line ") {
        Some(rest) => {
            rest.split_once(" : ")
                .map_or(m, |(n, r)| if n.parse::<u32>().is_ok() { r } else { m })
        }
        None => m,
    };
    // Quoted text becomes `_`.
    let mut plain = String::new();
    let mut quoted = false;
    for c in m.chars() {
        if c == '"' {
            quoted = !quoted;
            if quoted {
                plain.push('_');
            }
        } else if !quoted {
            plain.push(c);
        }
    }
    let mut out = String::new();
    for w in plain.split_whitespace() {
        let word = if w.chars().any(|c| c.is_ascii_digit()) {
            "N"
        } else if w.chars().filter(|c| c.is_alphabetic()).count() > 1
            && !w.chars().any(|c| c.is_lowercase())
        {
            "X"
        } else {
            w
        };
        out += word;
        out.push(' ');
    }
    out.trim_end().chars().take(64).collect()
}

/// The line PuzzleScript's message is about, if it says.
fn message_line(m: &str) -> Option<usize> {
    let rest = m.trim().strip_prefix("line ")?;
    let (n, _) = rest.split_once(" : ")?;
    n.parse().ok().filter(|&n| n > 0)
}

/// Each problem puz reports for a source: its code and 1-based line.
fn puz_problems(name: &str, source: &str) -> Vec<(String, usize)> {
    use miette::Diagnostic as _;
    let problems = match Game::load_despite_errors(name, Arc::new(source.to_string())) {
        Ok((_, w)) => w.problems,
        Err(d) => d.problems,
    };
    problems
        .iter()
        .map(|p| {
            let code = p.code().map_or_else(|| "?".to_string(), |c| c.to_string());
            let at = p
                .labels()
                .and_then(|mut l| l.next())
                .map_or(0, |l| l.offset());
            let line = 1 + source[..at.min(source.len())].matches('\n').count();
            (code, line)
        })
        .collect()
}

/// Error-message parity: for each case of `errormessage_testdata.js` whose PuzzleScript
/// error count is above 0, puz must refuse the game (`Game::load` returns `Err`); a count
/// of 0 must load (but for [`PARITY_KNOWN`]). It prints a summary, and a table of how
/// PuzzleScript's message kinds map to puz's codes (by the line they are about; `-` when
/// puz says nothing on that line). Run it with
/// `cargo test --test suite puzzlescript_errormessage -- --nocapture`.
#[test]
fn puzzlescript_errormessage_parity() {
    if ps_data::reference_or_skip("puzzlescript_errormessage_parity").is_none() {
        return;
    }
    let cases = selected(ps_data::err_cases(), |c| &c.name);
    let total = cases.len();
    let (mut caught, mut missed, mut clean, mut extra, mut broke) = (0, vec![], 0, vec![], vec![]);
    let mut known = vec![];
    let mut table: std::collections::BTreeMap<String, std::collections::BTreeMap<String, usize>> =
        Default::default();
    for case in cases {
        let ErrCase {
            name,
            source,
            messages,
            error_count,
        } = case;
        let first = messages.first().cloned().unwrap_or_default();
        let who = name.clone();
        let text = source.clone();
        let ran = run_guarded(move || {
            Game::load(&who, Arc::new(text))
                .map(|_| ())
                .map_err(|d| d.problems.first().map_or(String::new(), |p| p.to_string()))
        });
        if matches!(ran, Ran::Done(_)) {
            let ours = puz_problems(&name, &source);
            let lines: Vec<Option<usize>> = messages.iter().map(|m| message_line(m)).collect();
            for (m, line) in messages.iter().zip(&lines) {
                let codes: Vec<&str> = match line {
                    Some(l) => ours
                        .iter()
                        .filter(|(_, at)| at == l)
                        .map(|(c, _)| c.as_str())
                        .collect(),
                    // No line: what puz reports on no line PuzzleScript names.
                    None => ours
                        .iter()
                        .filter(|(_, at)| !lines.contains(&Some(*at)))
                        .map(|(c, _)| c.as_str())
                        .take(1)
                        .collect(),
                };
                let code = codes
                    .first()
                    .map_or("-", |c| c.trim_start_matches("puz::ps::"));
                *table
                    .entry(message_kind(m))
                    .or_default()
                    .entry(code.to_string())
                    .or_default() += 1;
            }
        }
        let reason = PARITY_KNOWN.iter().find(|k| k.0 == name).map(|k| k.1);
        match (ran, error_count > 0) {
            (Ran::Done(Err(_)), true) => caught += 1,
            (Ran::Done(Ok(())), true) => missed.push(format!(
                "{name}: PuzzleScript counts {error_count} error(s), the first: {first:?}"
            )),
            (Ran::Done(Ok(())), false) => clean += 1,
            (Ran::Done(Err(ours)), false) => match reason {
                Some(why) => known.push(format!("{name}: puz: {ours}\n    why: {why}")),
                None => extra.push(format!("{name}: PuzzleScript counts none; puz: {ours}")),
            },
            (Ran::Panicked(why), _) => broke.push(format!("{name}: panicked: {why}")),
            (Ran::Hung, _) => broke.push(format!("{name}: still loading after {CASE_TIMEOUT:?}")),
        }
    }
    let mut report = format!(
        "PuzzleScript error-message parity (errormessage_testdata.js, {total} cases): {} matched\n\
         errors expected: {caught} refused by puz, {} loaded anyway\n\
         no errors expected: {clean} loaded, {} refused by puz ({} of them known, below)\n\
         {} panicked or hung\n",
        caught + clean,
        missed.len(),
        extra.len() + known.len(),
        known.len(),
        broke.len()
    );
    report += "PuzzleScript's messages by kind -> puz's codes on the same line (count):\n";
    for (kind, codes) in &table {
        let codes: Vec<String> = codes.iter().map(|(c, n)| format!("{c} {n}")).collect();
        report += &format!("  {kind:<64}  {}\n", codes.join(", "));
    }
    for (title, list) in [
        ("loaded although PuzzleScript finds errors", &missed),
        ("refused although PuzzleScript finds none", &extra),
        ("refused although PuzzleScript finds none, known", &known),
        ("panicked or hung", &broke),
    ] {
        if !list.is_empty() {
            report += &format!("{title}:\n");
            for l in list {
                report += &format!("  {l}\n");
            }
        }
    }
    eprintln!("{report}");
    assert!(
        missed.is_empty() && extra.is_empty() && broke.is_empty(),
        "{report}"
    );
}
