//! A loaded puzzle: source, compiled model, and access to its levels.

use std::sync::Arc;

use crate::compile::GridForm;
use crate::compile::{compile, Model, PieceId, TileId};
use crate::diagnostics::{Diagnostics, Problem, Warnings};
use crate::engine::lints::{lint_level, out_of_reach, OutOfReach};
use crate::engine::Level;
use crate::io::formats::LevelFile;
use crate::io::grid::{parse_level, LevelRows};
use crate::solution::{Boards, Solution};
use crate::solver::{SolveOptions, Solver};
use crate::Error;

/// A `.puz` file that parsed, checked and compiled, with its inline levels validated.
#[derive(Debug, Clone)]
pub struct Puzzle {
    /// The name reports give the file (usually its path).
    name: String,
    /// The file's text, which diagnostics point into.
    source: Arc<String>,
    /// The compiled rules.
    pub model: Model,
}

impl Puzzle {
    /// Runs every stage on `text`; all problems of the file come back in one report. A
    /// UTF-8 byte-order mark at the start is skipped.
    pub fn load(name: &str, text: String) -> Result<Puzzle, Diagnostics> {
        let puzzle = Puzzle::load_rules(name, text)?;
        let fail = |problems: Vec<Problem>| Diagnostics::new(name, puzzle.source.clone(), problems);
        let mut problems = vec![];
        for i in 0..puzzle.model.levels.len() {
            if let Err(mut p) = puzzle.inline_level_problems(i) {
                problems.append(&mut p);
            }
        }
        if problems.is_empty() {
            Ok(puzzle)
        } else {
            Err(fail(problems))
        }
    }

    /// Runs every stage on `text` but leaves the inline levels unchecked: each is checked
    /// when [`Puzzle::inline_level`] builds it, so one broken level does not hide the
    /// others (`puz solve --all`, `puz test`).
    pub fn load_rules(name: &str, text: String) -> Result<Puzzle, Diagnostics> {
        let source = Arc::new(crate::io::source::without_bom(text));
        let fail = |problems: Vec<Problem>| Diagnostics::new(name, source.clone(), problems);
        let file = crate::syntax::parse(&source).map_err(fail)?;
        let syms = crate::check::check(&file).map_err(fail)?;
        let model = compile(&file, &syms);
        Ok(Puzzle {
            name: name.to_string(),
            source: source.clone(),
            model,
        })
    }

    fn inline_level_problems(&self, i: usize) -> Result<Level, Vec<Problem>> {
        let l = &self.model.levels[i];
        let rows = LevelRows {
            rows: l.rows.iter().map(String::as_str).collect(),
            starts: l.row_starts.iter().map(|&s| s as usize).collect(),
            whole: l.span,
        };
        let mut level = parse_level(&self.model, &l.name, &rows, l.form)?;
        if let Some((prows, pstarts, pspan)) = &l.picture {
            let rows = LevelRows {
                rows: prows.iter().map(String::as_str).collect(),
                starts: pstarts.iter().map(|&s| s as usize).collect(),
                whole: *pspan,
            };
            self.add_picture(&mut level, &l.name, &rows, l.form)?;
        }
        Ok(level)
    }

    /// Reads the goal picture `rows` of `level` (named `name`), in the same grid reader
    /// and with the same diagnostics as the level itself, and makes it the level's
    /// picture goal: it must be the level's size (`puz::level::picture_size`, pointing at
    /// `rows.whole`).
    fn add_picture(
        &self,
        level: &mut Level,
        name: &str,
        rows: &LevelRows,
        form: GridForm,
    ) -> Result<(), Vec<Problem>> {
        let pic = parse_level(&self.model, name, rows, form)?;
        let (b, p) = (&level.board, &pic.board);
        if (b.rows, b.cols) != (p.rows, p.cols) {
            return Err(vec![Problem::PictureSize {
                level: name.to_string(),
                rows: p.rows,
                cols: p.cols,
                lrows: b.rows,
                lcols: b.cols,
                span: rows.whole,
            }]);
        }
        let mut cells: Vec<(Option<PieceId>, TileId)> =
            p.tiles.iter().map(|&t| (None, t)).collect();
        for inst in &pic.instances {
            let (r, c) = (
                (inst.cell as usize / p.cols) as i64,
                (inst.cell as usize % p.cols) as i64,
            );
            let pose = &self.model.pieces[inst.piece.index()].poses[inst.pose.index()];
            for &(dr, dc) in &pose.cells {
                let (rr, cc) = (r + dr as i64, c + dc as i64);
                if rr >= 0 && cc >= 0 && (rr as usize) < p.rows && (cc as usize) < p.cols {
                    cells[rr as usize * p.cols + cc as usize].0 = Some(inst.piece);
                }
            }
        }
        level.picture = Some(cells);
        // A cell drawn with a symbol that chooses a pose asks for the copy there to be in
        // that pose.
        let drawn = crate::io::render::written(&self.model, &rows.rows, form);
        let poses: Vec<Option<crate::compile::PoseId>> = drawn
            .iter()
            .map(|k| {
                let sym = self.model.legend.get((*k)? as usize)?;
                sym.poses.iter().flatten().next().copied()
            })
            .collect();
        if poses.iter().any(Option::is_some) {
            level.picture_poses = poses;
        }
        Ok(())
    }

    /// The inline level at `index`.
    pub fn inline_level(&self, index: usize) -> Result<Level, Diagnostics> {
        self.inline_level_problems(index)
            .map_err(|p| Diagnostics::new(&self.name, self.source.clone(), p))
    }

    /// The index of the inline level called `name`.
    pub fn level_index(&self, name: &str) -> Option<usize> {
        self.model.levels.iter().position(|l| l.name == name)
    }

    /// A level read from a separate file, in the legend's default form, with the goal
    /// picture it may draw after a blank line and a line `goal`
    /// (`LevelRows::file_parts`). A UTF-8 byte-order mark at the start is skipped.
    pub fn level_from_file(&self, path: &str, text: String) -> Result<Level, Diagnostics> {
        let text = Arc::new(crate::io::source::without_bom(text));
        let blank_is_cell = self
            .model
            .legend
            .iter()
            .any(|s| matches!(s.key, crate::compile::KeyValue::Char(' ' | '\t')));
        let (rows, goal) = LevelRows::file_parts(&text, blank_is_cell);
        let form = self.model.default_form();
        let fail = |p| Diagnostics::new(path, text.clone(), p);
        let mut level = parse_level(&self.model, path, &rows, form).map_err(fail)?;
        if let Some(goal) = &goal {
            self.add_picture(&mut level, path, goal, form)
                .map_err(fail)?;
        } else if self.model.goal.is_empty() && self.model.goal_rest.is_empty() {
            // The rules leave every goal to the levels' pictures, and this file draws none.
            return Err(Diagnostics::new(
                path,
                text.clone(),
                vec![Problem::LevelWithoutGoal {
                    span: (0, text.len()).into(),
                }],
            ));
        }
        Ok(level)
    }

    /// Level `index` (from 0) of `file`, read in the rules' legend: a grid file's one
    /// level as [`Puzzle::level_from_file`] reads it, or a level of a collection, whose
    /// cells beyond its outline take the rules' `outside` tile (floor stays floor when
    /// the rules declare none: no piece inside the wall reaches it).
    pub fn file_level(&self, file: &LevelFile, index: usize) -> Result<Level, Diagnostics> {
        if !file.is_collection() {
            return self.level_from_file(&file.name, file.text().to_string());
        }
        let Some(l) = file.levels.get(index) else {
            return Err(file.report(vec![]));
        };
        let rows = LevelRows {
            rows: l.rows.iter().map(String::as_str).collect(),
            starts: l.starts.clone(),
            whole: l.whole,
        };
        let name = l.name();
        let mut level = parse_level(&self.model, &name, &rows, self.model.default_form())
            .map_err(|p| file.report(p))?;
        if let Some(outside) = self.model.outside {
            for (t, &b) in level.board.tiles.iter_mut().zip(&l.beyond) {
                if b {
                    *t = outside;
                }
            }
        }
        if self.model.goal.is_empty() && self.model.goal_rest.is_empty() {
            return Err(file.report(vec![Problem::LevelWithoutGoal { span: l.whole }]));
        }
        Ok(level)
    }

    /// The grid form levels use.
    pub fn form(&self) -> GridForm {
        self.model.default_form()
    }

    /// The name reports give the file.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The index of the inline level named `name`, or of the first level when `name` is
    /// `None`; an error names the file's levels.
    pub fn pick_level(&self, name: Option<&str>) -> Result<usize, Error> {
        match name {
            Some(n) => self.level_index(n).ok_or_else(|| Error::NoSuchLevel {
                file: self.name.clone(),
                name: n.to_string(),
                names: self
                    .model
                    .levels
                    .iter()
                    .map(|l| l.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
            None if self.model.levels.is_empty() => Err(Error::NoLevels {
                file: self.name.clone(),
            }),
            None => Ok(0),
        }
    }

    /// The index of the metric named `name` in [`Model::metrics`] (`None` without a
    /// name); an error names the file's metrics.
    pub fn pick_metric(&self, name: Option<&str>) -> Result<Option<usize>, Error> {
        let Some(name) = name else {
            return Ok(None);
        };
        self.model.metric_index(name).map(Some).ok_or_else(|| {
            let names: Vec<&str> = self.model.metrics.iter().map(|m| m.name.as_str()).collect();
            Error::NoSuchMetric {
                file: self.name.clone(),
                name: name.to_string(),
                names: if names.is_empty() {
                    "the file declares no metric (`metric NAME { straight MOVE }`)".to_string()
                } else {
                    format!("its metrics: {}", names.join(", "))
                },
            }
        })
    }

    /// Solves inline level `level` (by name; the first when `None`) as `opts` says, and
    /// tells the answer in full (see [`Solution`]). Text boards asked for with no symbols
    /// of their own are drawn in the symbols the level was written with.
    pub fn solve(&self, level: Option<&str>, opts: &SolveOptions) -> Result<Solution, Error> {
        let index = self.pick_level(level)?;
        let lvl = self.inline_level(index)?;
        let mut opts = opts.clone();
        if let Boards::Text { written } = &mut opts.drawing.boards {
            if written.is_empty() {
                *written = crate::io::render::inline_symbols(&self.model, index);
            }
        }
        self.solve_level(lvl, &opts)
    }

    /// Solves `level` (an inline level or one read from a level file) as `opts` says.
    pub fn solve_level(&self, level: Level, opts: &SolveOptions) -> Result<Solution, Error> {
        let metric = self.pick_metric(opts.metric.as_deref())?;
        let mut solver = Solver::for_metric(&self.model, opts.engine, opts.search, metric)?;
        Ok(solver.solution(level, &opts.budget, opts.need_path, &opts.drawing)?)
    }
}

/// Loads the rules in `text` (reports call the file `name`) and solves inline level
/// `level` (by name; the first when `None`) as `opts` says: [`Puzzle::load`] then
/// [`Puzzle::solve`] in one call.
pub fn solve(
    name: &str,
    text: String,
    level: Option<&str>,
    opts: &SolveOptions,
) -> Result<Solution, Error> {
    Puzzle::load(name, text)?.solve(level, opts)
}

impl AsRef<Model> for Puzzle {
    fn as_ref(&self) -> &Model {
        &self.model
    }
}

/// Lints: warnings about what the rules can never do in a level (see
/// `crate::engine::lints`), reported against this file's source.
impl Puzzle {
    /// The warnings of every inline level, as one report; `None` when there are none.
    ///
    /// A move that cannot apply in some levels is usually a level without the pieces or
    /// tiles it is about, so the file's report warns only about a move that applies in
    /// none of its levels (once, at the first); [`Puzzle::level_lints`] warns per level.
    pub fn lints(&self) -> Option<Warnings> {
        let mut problems = vec![];
        let mut levels = 0;
        for i in 0..self.model.levels.len() {
            if let Ok(level) = self.inline_level_problems(i) {
                levels += 1;
                problems.extend(lint_level(&self.model, &level, Some(i)));
            }
        }
        let mut dead: std::collections::HashMap<String, usize> = Default::default();
        for p in &problems {
            if let Problem::MoveNeverApplies { name, .. } = p {
                *dead.entry(name.clone()).or_default() += 1;
            }
        }
        let mut shown: std::collections::HashSet<String> = Default::default();
        problems.retain_mut(|p| match p {
            Problem::MoveNeverApplies { name, level, .. } => {
                if dead[name.as_str()] < levels || !shown.insert(name.clone()) {
                    return false;
                }
                if levels > 1 {
                    *level = "any level of the file".to_string();
                }
                true
            }
            _ => true,
        });
        problems.extend(crate::engine::lints::model_lints(&self.model));
        self.warnings(problems)
    }

    /// The warnings of one level; `inline` is its index when it is one of the file's own
    /// levels (the warnings then point into its text too).
    pub fn level_lints(&self, level: &Level, inline: Option<usize>) -> Option<Warnings> {
        let mut problems = lint_level(&self.model, level, inline);
        problems.extend(crate::engine::lints::model_lints(&self.model));
        self.warnings(problems)
    }

    /// The goal conditions of `level` that are out of reach even for a piece moving alone:
    /// the explanation of "no solution".
    pub fn out_of_reach(&self, level: &Level) -> Vec<OutOfReach> {
        out_of_reach(&self.model, level)
    }

    fn warnings(&self, problems: Vec<Problem>) -> Option<Warnings> {
        (!problems.is_empty()).then(|| Warnings::new(&self.name, self.source.clone(), problems))
    }
}
