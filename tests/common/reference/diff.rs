//! The differential driver: one case through the library and the reference. For each
//! level it reads the engine's start state, explores the states the engine reaches
//! (breadth first, up to a budget) and compares, state by state, the engine's successors
//! (`Expander::successor_list`, decoded through `pieces_in`, `tiles_in` and `counters_in`)
//! with the reference's, and both goal flags. This is the only file of the reference that
//! calls the crate.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::fmt::Write as _;

use puz::engine::Expander;
use puz::search::Budget;
use puz::Puzzle;

use super::gen::Case;
use super::interp::{Act, Quirks, Reference, State};
use super::rules::Rules;

/// What a difference is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// The library refused the generated rule file.
    RulesRejected,
    /// The library refused a level the generator drew (other than an ambiguous drawing).
    LevelRejected,
    /// The engine's start state is not the level's placement.
    Start,
    /// Some action leads to different states.
    Successors,
    /// The goal flags differ.
    Goal,
    /// Two engine states decode to the same state.
    NonCanonical,
}

/// The first difference of a case, readable.
#[derive(Clone, Debug)]
pub struct Difference {
    pub kind: Kind,
    /// The level it was found in.
    pub level: usize,
    /// A few words saying what differs (for grouping and the README line).
    pub summary: String,
    /// The whole description: state, action, both results.
    pub detail: String,
    /// For successors: the move of the first action that differs, and which side has
    /// results the other lacks (`engine`, `reference` or `both`).
    pub mv: Option<usize>,
    pub side: &'static str,
}

/// Counts of one run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub files: u64,
    pub levels: u64,
    /// Levels the library refused as drawn ambiguously (not a difference).
    pub ambiguous: u64,
    pub states: u64,
    pub transitions: u64,
}

impl Stats {
    pub fn add(&mut self, o: &Stats) {
        self.files += o.files;
        self.levels += o.levels;
        self.ambiguous += o.ambiguous;
        self.states += o.states;
        self.transitions += o.transitions;
    }
}

/// A filter for a known class of differences, "expected until fixed": it names the class
/// and says whether a difference belongs to it. The list is in `KNOWN` of the caller.
pub struct Known {
    pub name: &'static str,
    pub matches: fn(&Case, &Difference) -> bool,
}

/// Runs one case; the first difference, if any. At most `max_states` states per level.
pub fn run(case: &Case, max_states: usize, stats: &mut Stats) -> Option<Difference> {
    run_with(case, max_states, Quirks::default(), stats)
}

/// [`run`] with the reference emulating `quirks` of the engine.
pub fn run_with(
    case: &Case,
    max_states: usize,
    quirks: Quirks,
    stats: &mut Stats,
) -> Option<Difference> {
    let text = case.rules.to_puz();
    stats.files += 1;
    let puzzle = match Puzzle::load_rules("differential.puz", text.clone()) {
        Ok(p) => p,
        Err(d) => {
            return Some(Difference {
                kind: Kind::RulesRejected,
                level: 0,
                summary: "the library refuses the rule file".into(),
                detail: d.render_plain(100),
                mv: None,
                side: "",
            })
        }
    };
    for i in 0..case.plans.len() {
        let level = match puzzle.inline_level(i) {
            Ok(l) => l,
            Err(d) => {
                let report = d.render_plain(100);
                if report.contains("ambiguous_placement")
                    || report.contains("placement_too_complex")
                {
                    stats.ambiguous += 1;
                    continue;
                }
                let code = report
                    .split_whitespace()
                    .find(|w| w.starts_with("puz::"))
                    .unwrap_or("no code")
                    .to_string();
                return Some(Difference {
                    kind: Kind::LevelRejected,
                    level: i,
                    summary: format!(
                        "the library refuses a level drawn from a legal placement: {code}"
                    ),
                    detail: report,
                    mv: None,
                    side: "",
                });
            }
        };
        stats.levels += 1;
        if let Some(d) = level_diff(case, &puzzle, level, i, max_states, quirks, stats) {
            return Some(d);
        }
    }
    None
}

/// Decodes an engine state through the public views.
fn decode(exp: &Expander, s: &[u32], kinds: usize) -> State {
    let mut pieces = vec![vec![]; kinds];
    for p in exp.pieces_in(s) {
        pieces[p.kind].push((p.anchor.0, p.anchor.1, p.pose));
    }
    for p in &mut pieces {
        p.sort();
    }
    State {
        pieces,
        tiles: exp.tiles_in(s).into_iter().map(usize::from).collect(),
        counters: exp.counters_in(s).into_iter().map(i64::from).collect(),
    }
}

fn level_diff(
    case: &Case,
    puzzle: &Puzzle,
    level: puz::engine::Level,
    i: usize,
    max_states: usize,
    quirks: Quirks,
    stats: &mut Stats,
) -> Option<Difference> {
    let rules = &case.rules;
    let kinds = rules.kinds.len();
    let mut reference = case.reference(i);
    reference.quirks = quirks;
    let mut exp = match Expander::new(&puzzle.model, level, &Budget::default()) {
        Ok(e) => e,
        Err(e) => {
            return Some(Difference {
                kind: Kind::LevelRejected,
                level: i,
                summary: "the engine cannot set the level up".into(),
                detail: e.to_string(),
                mv: None,
                side: "",
            })
        }
    };
    let start = exp.start_state();
    let mine = case.plans[i].start(rules);
    let theirs = decode(&exp, &start, kinds);
    if mine != theirs {
        return Some(Difference {
            kind: Kind::Start,
            level: i,
            summary: "the start state differs from the placement drawn".into(),
            detail: format!(
                "drawn:\n{}engine:\n{}",
                show_state(rules, &reference, &mine),
                show_state(rules, &reference, &theirs)
            ),
            mv: None,
            side: "",
        });
    }
    let mut seen: HashMap<State, Vec<u32>> = HashMap::new();
    let mut queue = VecDeque::new();
    seen.insert(theirs, start.clone());
    queue.push_back(start);
    while let Some(s) = queue.pop_front() {
        if stats.states >= u64::MAX / 2 {
            break;
        }
        let here = decode(&exp, &s, kinds);
        stats.states += 1;
        let g_engine = exp.is_goal(&s);
        let g_ref = reference.is_goal(&here);
        if g_engine != g_ref {
            return Some(Difference {
                kind: Kind::Goal,
                level: i,
                summary: format!("goal: engine says {g_engine}, reference says {g_ref}"),
                detail: format!("state:\n{}", show_state(rules, &reference, &here)),
                mv: None,
                side: "",
            });
        }
        let succ = exp.successor_list(&s);
        let mut engine: BTreeSet<(Act, State)> = BTreeSet::new();
        let mut words: Vec<(State, Vec<u32>)> = vec![];
        for (a, t) in &succ {
            let act = Act {
                mv: a.mv().index(),
                arg: a.dir().index(),
            };
            let d = decode(&exp, t, kinds);
            engine.insert((act, d.clone()));
            words.push((d, t.clone()));
        }
        stats.transitions += engine.len() as u64;
        let refs = reference.successors(&here);
        if engine != refs {
            return Some(successor_diff(rules, &reference, &here, &engine, &refs, i));
        }
        for (d, t) in words {
            match seen.get(&d) {
                Some(w) if *w != t => {
                    return Some(Difference {
                        kind: Kind::NonCanonical,
                        level: i,
                        summary: "two engine states decode to one state".into(),
                        detail: format!(
                            "{:?} and {:?} both decode to\n{}",
                            w,
                            t,
                            show_state(rules, &reference, &d)
                        ),
                        mv: None,
                        side: "",
                    })
                }
                Some(_) => {}
                None => {
                    if seen.len() < max_states {
                        seen.insert(d, t.clone());
                        queue.push_back(t);
                    }
                }
            }
        }
    }
    None
}

/// The action as people name it: `m0 e`, `m2 (1,3)`.
pub fn act_text(rules: &Rules, cols: usize, a: Act) -> String {
    let m = &rules.moves[a.mv];
    match m.param {
        super::rules::Param::Cell => format!("{} ({},{})", m.name, a.arg / cols, a.arg % cols),
        super::rules::Param::Dirs(_) => format!("{} {}", m.name, rules.dirs[a.arg].name),
    }
}

/// A state as two boards side by side, the tiles (`.` floor, `#` wall, else the tile's
/// initial) and the pieces (each copy's cells in its kind's capital), then a list of the
/// copies and counters.
pub fn show_state(rules: &Rules, r: &Reference, s: &State) -> String {
    let (rows, cols) = (r.board.rows, r.board.cols);
    let tile_char = |t: usize| match rules.tiles[t].name.as_str() {
        "floor" => '.',
        "wall" => '#',
        other => other.chars().next().unwrap_or('?'),
    };
    let mut grid: Vec<Vec<char>> = vec![vec!['.'; cols]; rows];
    let mut list = vec![];
    for (k, copies) in s.pieces.iter().enumerate() {
        let kind = &rules.kinds[k];
        let letter = kind.name.chars().next().unwrap_or('?').to_ascii_uppercase();
        for &(ar, ac, pose) in copies {
            let p = &kind.pose_list()[pose];
            for (dr, dc) in &p.cells {
                let (rr, cc) = (ar + dr, ac + dc);
                if rr >= 0 && cc >= 0 && (rr as usize) < rows && (cc as usize) < cols {
                    grid[rr as usize][cc as usize] = letter;
                }
            }
            let pose = if kind.poses.is_some() {
                format!(" {}", p.name)
            } else {
                String::new()
            };
            list.push(format!("{} ({ar},{ac}){pose}", kind.name));
        }
    }
    let mut out = String::new();
    for (row, pieces) in grid.into_iter().enumerate() {
        let tiles: String = (0..cols)
            .map(|c| tile_char(s.tiles[row * cols + c]))
            .collect();
        let pieces: String = pieces.into_iter().collect();
        writeln!(out, "  {tiles}   {pieces}").unwrap();
    }
    let list = if list.is_empty() {
        "none".to_string()
    } else {
        list.join(", ")
    };
    writeln!(out, "  pieces: {list}").unwrap();
    if !rules.counters.is_empty() {
        let cs: Vec<String> = rules
            .counters
            .iter()
            .zip(&s.counters)
            .map(|(c, v)| format!("{} {v}", c.name))
            .collect();
        writeln!(out, "  counters: {}", cs.join(", ")).unwrap();
    }
    out
}

fn successor_diff(
    rules: &Rules,
    r: &Reference,
    here: &State,
    engine: &BTreeSet<(Act, State)>,
    refs: &BTreeSet<(Act, State)>,
    level: usize,
) -> Difference {
    let acts: BTreeSet<Act> = engine.symmetric_difference(refs).map(|(a, _)| *a).collect();
    let mut detail = format!("state:\n{}", show_state(rules, r, here));
    let mut summary = String::new();
    let first = *acts.iter().next().expect("the sets differ");
    let e_extra = engine.iter().any(|x| x.0 == first && !refs.contains(x));
    let r_extra = refs.iter().any(|x| x.0 == first && !engine.contains(x));
    let side = match (e_extra, r_extra) {
        (true, false) => "engine",
        (false, true) => "reference",
        _ => "both",
    };
    for (n, a) in acts.iter().enumerate() {
        let e: Vec<&State> = engine.iter().filter(|x| x.0 == *a).map(|x| &x.1).collect();
        let f: Vec<&State> = refs.iter().filter(|x| x.0 == *a).map(|x| &x.1).collect();
        let name = act_text(rules, r.board.cols, *a);
        if n == 0 {
            summary = format!(
                "{name}: engine {} result(s), reference {}",
                e.len(),
                f.len()
            );
        }
        writeln!(detail, "action {name}:").unwrap();
        for (who, list) in [("engine", &e), ("reference", &f)] {
            if list.is_empty() {
                writeln!(detail, " {who}: not a move").unwrap();
            }
            for s in list.iter() {
                writeln!(detail, " {who} gives:\n{}", show_state(rules, r, s)).unwrap();
            }
        }
        if n >= 3 {
            writeln!(detail, "({} more actions differ)", acts.len() - n - 1).unwrap();
            break;
        }
    }
    Difference {
        kind: Kind::Successors,
        level,
        summary,
        detail,
        mv: Some(first.mv),
        side,
    }
}
