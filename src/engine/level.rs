//! A level: the board's tiles and marks, and where each piece starts.

use miette::SourceSpan;

use crate::compile::{MarkId, Model, PieceId, PoseId, TileId};
use crate::diagnostics::Problem;

/// Boards may have at most this many cells, so cells fit comfortably in packed states.
pub(crate) const MAX_CELLS: usize = 1 << 28;

/// The static board of a level.
#[derive(Clone, Debug)]
pub struct Board {
    /// Rows of cells.
    pub rows: usize,
    /// Cells per row.
    pub cols: usize,
    /// Tile of each cell, row-major.
    pub tiles: Vec<TileId>,
    /// Bit `k` set when the cell carries mark `k`.
    pub marks: Vec<u32>,
}

impl Board {
    /// Whether board cell `cell` (row-major index) carries mark `k`.
    pub(crate) fn has_mark(&self, cell: u32, k: MarkId) -> bool {
        self.marks[cell as usize] >> k.0 & 1 == 1
    }
}

/// One piece on the board: its kind, anchor cell and pose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The piece kind.
    pub piece: PieceId,
    /// The anchor's board cell, row-major.
    pub cell: u32,
    /// The pose.
    pub pose: PoseId,
}

/// A ready level: board plus start instances sorted by piece kind.
#[derive(Clone, Debug)]
pub struct Level {
    /// The level's name (from the `.puz` file, or the level file's).
    pub name: String,
    /// Tiles and marks.
    pub board: Board,
    /// Where each piece starts, sorted by kind.
    pub instances: Vec<Instance>,
    /// The goal picture, when the level has one: per board cell, the piece kind that
    /// must cover it (or none) and its tile.
    pub picture: Option<Vec<(Option<crate::compile::PieceId>, crate::compile::TileId)>>,
}

/// A grid of legend symbol indices, with a way to point at each cell in its source.
pub struct SymbolGrid<'a> {
    /// Rows of cells.
    pub(crate) rows: usize,
    /// Cells per row.
    pub(crate) cols: usize,
    /// Legend entry index of each cell, row-major.
    pub(crate) symbols: Vec<u16>,
    /// The source span of cell (row, column).
    pub(crate) locate: &'a dyn Fn(usize, usize) -> SourceSpan,
    /// The span of the whole level.
    pub(crate) whole: SourceSpan,
}

impl Level {
    /// Why the start position breaks a rule, if it does: the cells (row, column) of the
    /// piece at fault and what is wrong. Checked from the board alone, without building an
    /// expander, so judge cases pay nothing for it.
    pub(crate) fn start_violation(&self, model: &Model) -> Option<(Vec<(usize, usize)>, String)> {
        let b = &self.board;
        let mut owner: std::collections::HashMap<(i64, i64), usize> =
            std::collections::HashMap::new();
        for (i, inst) in self.instances.iter().enumerate() {
            let piece = &model.pieces[inst.piece.index()];
            let pose = &piece.poses[inst.pose.index()];
            let (r0, c0) = (
                (inst.cell as usize / b.cols) as i64,
                (inst.cell as usize % b.cols) as i64,
            );
            let cells: Vec<(i64, i64)> = pose
                .cells
                .iter()
                .map(|&(dr, dc)| (r0 + dr as i64, c0 + dc as i64))
                .collect();
            let on_board = |&(r, c): &(i64, i64)| {
                r >= 0 && c >= 0 && (r as usize) < b.rows && (c as usize) < b.cols
            };
            let shown: Vec<(usize, usize)> = cells
                .iter()
                .filter(|x| on_board(x))
                .map(|&(r, c)| (r as usize, c as usize))
                .collect();
            for &(r, c) in &cells {
                let tile = if on_board(&(r, c)) {
                    Some(b.tiles[r as usize * b.cols + c as usize])
                } else if model.outside.is_none() {
                    return Some((
                        shown,
                        format!("piece `{}` is partly off the board", piece.name),
                    ));
                } else {
                    model.outside
                };
                for fb in model.forbids.iter().filter(|f| f.piece == inst.piece) {
                    if fb.pose.is_some_and(|q| q != inst.pose) {
                        continue;
                    }
                    let hit = match fb.place {
                        crate::compile::Place::Tile(t) => tile == Some(t),
                        crate::compile::Place::Mark(k) => {
                            on_board(&(r, c))
                                && b.has_mark((r as usize * b.cols + c as usize) as u32, k)
                        }
                    };
                    if hit {
                        let place = match fb.place {
                            crate::compile::Place::Tile(t) => &model.tiles[t.index()].name,
                            crate::compile::Place::Mark(k) => &model.marks[k.index()].name,
                        };
                        let pose_txt = if fb.pose.is_some() {
                            format!(".{}", pose.name)
                        } else {
                            String::new()
                        };
                        return Some((
                            shown,
                            format!(
                                "piece `{}` in pose `{}` is on `{place}` (`forbid {}{pose_txt} on {place}`)",
                                piece.name, pose.name, piece.name
                            ),
                        ));
                    }
                }
                if let Some(&j) = owner.get(&(r, c)) {
                    let other = &model.pieces[self.instances[j].piece.index()].name;
                    return Some((shown, format!("piece `{}` overlaps `{other}`", piece.name)));
                }
                owner.insert((r, c), i);
            }
        }
        None
    }

    /// Builds a level from a symbol grid, placing pieces and marks. Pieces listed in
    /// `placed_later` may be missing (a judge query places them).
    pub(crate) fn from_grid(
        model: &Model,
        name: &str,
        grid: &SymbolGrid,
        placed_later: &[PieceId],
    ) -> Result<Level, Vec<Problem>> {
        let n = grid.rows * grid.cols;
        let mut board = Board {
            rows: grid.rows,
            cols: grid.cols,
            tiles: Vec::with_capacity(n),
            marks: Vec::with_capacity(n),
        };
        let tile_of: Vec<TileId> = model.legend.iter().map(|s| s.tile).collect();
        let marks_of: Vec<u32> = model
            .legend
            .iter()
            .map(|s| s.marks.iter().fold(0u32, |m, k| m | 1 << k.0))
            .collect();
        board
            .tiles
            .extend(grid.symbols.iter().map(|&s| tile_of[s as usize]));
        board
            .marks
            .extend(grid.symbols.iter().map(|&s| marks_of[s as usize]));
        let mut problems = vec![];
        let mut instances = vec![];
        // One pass: the cells placing each piece, and the cells of each single mark.
        let mut piece_cells: Vec<Vec<usize>> = vec![vec![]; model.pieces.len()];
        let mut mark_cells: Vec<Vec<usize>> = vec![vec![]; model.marks.len()];
        let placing: Vec<bool> = model
            .legend
            .iter()
            .map(|s| !s.pieces.is_empty() || !s.marks.is_empty())
            .collect();
        for (i, &sym) in grid.symbols.iter().enumerate() {
            if !placing[sym as usize] {
                continue;
            }
            let entry = &model.legend[sym as usize];
            for p in &entry.pieces {
                piece_cells[p.index()].push(i);
            }
            for k in &entry.marks {
                mark_cells[k.index()].push(i);
            }
        }
        for (pi, kind) in model.pieces.iter().enumerate() {
            let pid = PieceId(pi as u16);
            let cells = std::mem::take(&mut piece_cells[pi]);
            let groups = group_cells(grid, &cells, kind.poses.iter().all(|p| p.cells.len() == 1));
            let mut found = vec![];
            for g in &groups {
                match match_pose(model, pid, grid.cols, g) {
                    Ok(inst) => found.push(inst),
                    Err(p) => problems.push(p(grid)),
                }
            }
            if !kind.anonymous {
                if groups.len() > 1 {
                    problems.push(Problem::TooManyMarkers {
                        what: format!("piece `{}`", kind.name),
                        count: groups.len(),
                        first: cells_span(grid, &groups[0]),
                        again: cells_span(grid, &groups[1]),
                        help: format!("place it once, or declare `piece {} anonymous` for interchangeable copies", kind.name),
                    });
                } else if groups.is_empty() && !placed_later.contains(&pid) {
                    problems.push(Problem::MissingMarker {
                        what: format!("piece `{}`", kind.name),
                        span: grid.whole,
                        help: legend_help(model, |s| s.pieces.contains(&pid)),
                    });
                }
            }
            instances.extend(found);
        }
        for (ki, mk) in model.marks.iter().enumerate() {
            if !mk.single {
                continue;
            }
            let cells = &mark_cells[ki];
            if cells.len() > 1 {
                problems.push(Problem::TooManyMarkers {
                    what: format!("mark `{}`", mk.name),
                    count: cells.len(),
                    first: (grid.locate)(cells[0] / grid.cols, cells[0] % grid.cols),
                    again: (grid.locate)(cells[1] / grid.cols, cells[1] % grid.cols),
                    help: "the mark is declared `single`: place it on exactly one cell".to_string(),
                });
            } else if cells.is_empty() {
                problems.push(Problem::MissingMarker {
                    what: format!("mark `{}`", mk.name),
                    span: grid.whole,
                    help: legend_help(model, |s| s.marks.contains(&MarkId(ki as u16))),
                });
            }
        }
        if problems.is_empty() {
            Ok(Level {
                name: name.to_string(),
                board,
                instances,
                picture: None,
            })
        } else {
            Err(problems)
        }
    }
}

fn legend_help(model: &Model, f: impl Fn(&crate::compile::Symbol) -> bool) -> String {
    let syms: Vec<String> = model
        .legend
        .iter()
        .filter(|s| f(s))
        .map(|s| s.key.to_string())
        .collect();
    if syms.is_empty() {
        "no legend symbol places it; add one to the legend".to_string()
    } else {
        format!("place it with {}", syms.join(" or "))
    }
}

fn cells_span(grid: &SymbolGrid, cells: &[usize]) -> SourceSpan {
    let first = (grid.locate)(cells[0] / grid.cols, cells[0] % grid.cols);
    let last = cells
        .iter()
        .map(|&c| (grid.locate)(c / grid.cols, c % grid.cols))
        .max_by_key(|s| s.offset())
        .unwrap_or(first);
    if last.offset() >= first.offset() && last.offset() - first.offset() < 200 {
        (first.offset(), last.offset() + last.len() - first.offset()).into()
    } else {
        first
    }
}

/// Splits marker cells into instances: every cell alone for one-cell pieces, else
/// 4-connected groups of the same symbol. Linear in the number of cells: each cell looks
/// up its four neighbours (a scan of every cell per cell took minutes on a level file of
/// a few megabytes).
fn group_cells(grid: &SymbolGrid, cells: &[usize], single: bool) -> Vec<Vec<usize>> {
    if single {
        return cells.iter().map(|&c| vec![c]).collect();
    }
    let index: std::collections::HashMap<usize, usize> =
        cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let mut seen = vec![false; cells.len()];
    let mut groups = vec![];
    for i in 0..cells.len() {
        if seen[i] {
            continue;
        }
        seen[i] = true;
        let mut group = vec![cells[i]];
        let mut k = 0;
        while k < group.len() {
            let c = group[k];
            let col = c % grid.cols;
            let near = [
                c.checked_sub(grid.cols),
                Some(c + grid.cols),
                (col > 0).then(|| c - 1),
                (col + 1 < grid.cols).then_some(c + 1),
            ];
            for d in near.into_iter().flatten() {
                if let Some(&j) = index.get(&d) {
                    if !seen[j] && grid.symbols[d] == grid.symbols[c] {
                        seen[j] = true;
                        group.push(d);
                    }
                }
            }
            k += 1;
        }
        group.sort_unstable();
        groups.push(group);
    }
    groups
}

type LazyProblem = Box<dyn Fn(&SymbolGrid) -> Problem>;

/// Finds the pose whose footprint, placed at some anchor, covers exactly `cells`.
fn match_pose(
    model: &Model,
    pid: PieceId,
    cols: usize,
    cells: &[usize],
) -> Result<Instance, LazyProblem> {
    let kind = &model.pieces[pid.index()];
    let mut hits = vec![];
    for (pi, pose) in kind.poses.iter().enumerate() {
        if pose.cells.len() != cells.len() {
            continue;
        }
        let mut fp = pose.cells.clone();
        fp.sort_unstable();
        let (r0, c0) = ((cells[0] / cols) as i64, (cells[0] % cols) as i64);
        let (ar, ac) = (r0 - fp[0].0 as i64, c0 - fp[0].1 as i64);
        let fits = fp.iter().zip(cells).all(|(&(dr, dc), &cell)| {
            let (r, c) = (ar + dr as i64, ac + dc as i64);
            r >= 0 && c >= 0 && (c as usize) < cols && (r as usize * cols + c as usize) == cell
        });
        if fits {
            hits.push(Instance {
                piece: pid,
                cell: (ar as usize * cols + ac as usize) as u32,
                pose: PoseId(pi as u16),
            });
        }
    }
    let name = kind.name.clone();
    let cells = cells.to_vec();
    match hits.len() {
        0 => {
            let shapes: Vec<String> = kind
                .poses
                .iter()
                .map(|p| {
                    let cs: Vec<String> =
                        p.cells.iter().map(|(r, c)| format!("({r}, {c})")).collect();
                    format!("`{}` covers {}", p.name, cs.join(" "))
                })
                .collect();
            let n = cells.len();
            Err(Box::new(move |g: &SymbolGrid| Problem::NoMatchingPose {
                piece: name.clone(),
                span: cells_span(g, &cells),
                help: format!("{n} marker cell(s) here; {}", shapes.join("; ")),
            }))
        }
        // Two poses of one shape are rejected when checking, so this is the only fit.
        _ => Ok(hits[0]),
    }
}
