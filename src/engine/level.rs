//! A level: the board's tiles and marks, and where each piece starts.

use miette::SourceSpan;

use crate::compile::{KeyValue, MarkId, Model, PieceId, PieceKind, PoseId, TileId};
use crate::diagnostics::Problem;

mod placement;

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
    /// Per board cell of the goal picture, the pose the copy covering it must be in,
    /// where the picture draws it with a symbol that chooses one; empty when none does.
    pub picture_poses: Vec<Option<PoseId>>,
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
        // The instance covering each cell: a board-sized table (a hash map of a 4.7 MB
        // level's copies took seconds), and a map for cells beyond the board.
        let mut owner = vec![u32::MAX; b.rows * b.cols];
        let mut owner_outside: std::collections::HashMap<(i64, i64), usize> =
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
                let before = if on_board(&(r, c)) {
                    let slot = &mut owner[r as usize * b.cols + c as usize];
                    let was = (*slot != u32::MAX).then_some(*slot as usize);
                    *slot = i as u32;
                    was
                } else {
                    owner_outside.insert((r, c), i)
                };
                if let Some(j) = before {
                    let other = &model.pieces[self.instances[j].piece.index()].name;
                    return Some((shown, format!("piece `{}` overlaps `{other}`", piece.name)));
                }
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
        // One pass: the cells placing each piece, split by the pose their symbol chooses
        // (entry 0: none, entry 1 + q: pose q), and the cells of each single mark.
        let mut piece_cells: Vec<Vec<Vec<usize>>> = model
            .pieces
            .iter()
            .map(|k| vec![vec![]; 1 + k.poses.len()])
            .collect();
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
            for (p, q) in entry.pieces.iter().zip(&entry.poses) {
                let choice = q.map_or(0, |q| 1 + q.index());
                piece_cells[p.index()][choice].push(i);
            }
            for k in &entry.marks {
                mark_cells[k.index()].push(i);
            }
        }
        let class = placement::meaning_classes(model);
        let mut index = placement::CellIndex::default();
        for (pi, kind) in model.pieces.iter().enumerate() {
            let pid = PieceId(pi as u16);
            let single = kind.poses.iter().all(|p| p.cells.len() == 1);
            // Each pose choice drawn (rule 0 keeps them apart) with the footprints that tile
            // its cells, and the groups of all of them in reading order of their first
            // cells, each with its choice's index in `choices`.
            let mut choices: Vec<(Option<PoseId>, Vec<placement::Shape>)> = vec![];
            let mut groups: Vec<(Vec<usize>, usize)> = vec![];
            for (choice, cells) in std::mem::take(&mut piece_cells[pi]).into_iter().enumerate() {
                if cells.is_empty() {
                    continue;
                }
                let chosen = choice.checked_sub(1).map(|q| PoseId(q as u16));
                let c = choices.len();
                choices.push((chosen, placement::shapes(kind, chosen)));
                groups.extend(
                    placement::group_cells(grid, &cells, single, &class, &mut index)
                        .into_iter()
                        .map(|g| (g, c)),
                );
            }
            groups.sort_by_key(|(g, _)| g[0]);
            let place = Placing {
                model,
                pid,
                grid,
                class: &class,
            };
            if kind.anonymous {
                let mut found: Vec<(usize, Instance)> = vec![];
                for (g, c) in &groups {
                    let (chosen, shapes) = &choices[*c];
                    match place.copies(g, *chosen, shapes, &mut index) {
                        Ok(copies) => found.extend(copies),
                        Err(p) => problems.push(p),
                    }
                }
                found.sort_by_key(|&(first, _)| first);
                instances.extend(found.into_iter().map(|(_, i)| i));
                continue;
            }
            for (g, c) in &groups {
                let (chosen, shapes) = &choices[*c];
                match place.one(g, *chosen, shapes) {
                    Ok(inst) => instances.push(inst),
                    Err(p) => problems.push(p),
                }
            }
            if groups.len() > 1 {
                problems.push(Problem::TooManyMarkers {
                    what: format!("piece `{}`", kind.name),
                    count: groups.len(),
                    first: cells_span(grid, &groups[0].0),
                    again: cells_span(grid, &groups[1].0),
                    help: format!(
                        "place it once, or declare `piece {} anonymous` for interchangeable copies",
                        kind.name
                    ),
                });
            } else if groups.is_empty() && !placed_later.contains(&pid) {
                problems.push(Problem::MissingMarker {
                    what: format!("piece `{}`", kind.name),
                    span: grid.whole,
                    help: legend_help(model, |s| s.pieces.contains(&pid)),
                });
            }
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
                picture_poses: vec![],
            })
        } else {
            Err(problems)
        }
    }
}

/// Whether a legend symbol that chooses no pose places a copy of `kind` in pose `q`:
/// whether `q` is the first declared pose of its shape (see [`placement`]).
pub(crate) fn placed_by_default(kind: &PieceKind, q: PoseId) -> bool {
    placement::shapes(kind, None).iter().any(|s| s.pose == q)
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

/// `(r, c)` of a row-major board cell, as answers print cells.
fn at(cols: usize, cell: usize) -> String {
    format!("({}, {})", cell / cols, cell % cols)
}

/// "`stand` covers (0, 0); `rows` covers (0, 0) (1, 0)": every pose's footprint.
fn footprints(kind: &PieceKind) -> String {
    let shapes: Vec<String> = kind
        .poses
        .iter()
        .map(|p| {
            let cs: Vec<String> = p.cells.iter().map(|(r, c)| format!("({r}, {c})")).collect();
            format!("`{}` covers {}", p.name, cs.join(" "))
        })
        .collect();
    shapes.join("; ")
}

/// What legend symbol `sym` means, as a legend entry would say it: `floor + box + goal`.
fn meaning(model: &Model, sym: u16) -> String {
    let s = &model.legend[sym as usize];
    let mut parts = vec![model.tiles[s.tile.index()].name.clone()];
    parts.extend(s.pieces.iter().zip(&s.poses).map(|(p, q)| {
        let kind = &model.pieces[p.index()];
        match q {
            Some(q) => format!("{}.{}", kind.name, kind.poses[q.index()].name),
            None => kind.name.clone(),
        }
    }));
    parts.extend(s.marks.iter().map(|k| model.marks[k.index()].name.clone()));
    parts.join(" + ")
}

/// A symbol the legend does not use yet, of the same kind as `sym`'s: its other case
/// first (`'g'` beside `'G'`), else the first free letter or digit, else the next integer.
fn free_symbol(model: &Model, sym: u16) -> Option<KeyValue> {
    let used: std::collections::HashSet<&KeyValue> = model.legend.iter().map(|s| &s.key).collect();
    match model.legend[sym as usize].key {
        KeyValue::Char(c) => {
            let other = if c.is_lowercase() {
                c.to_uppercase().next()
            } else {
                c.to_lowercase().next()
            };
            other
                .into_iter()
                .chain('a'..='z')
                .chain('A'..='Z')
                .chain('0'..='9')
                .map(KeyValue::Char)
                .find(|k| !used.contains(k))
        }
        KeyValue::Int(i) => (i.saturating_add(1)..=i.saturating_add(65_537))
            .map(KeyValue::Int)
            .find(|k| !used.contains(k)),
    }
}

/// How to separate two touching copies drawn with `sym`: a second symbol that means the
/// same.
fn second_symbol_help(model: &Model, sym: u16) -> String {
    let key = &model.legend[sym as usize].key;
    let what = meaning(model, sym);
    match free_symbol(model, sym) {
        Some(k) => format!(
            "write one copy with a second symbol that means the same as {key}: add `{k} {what}` to the legend; touching cells of two such symbols are two copies"
        ),
        None => format!(
            "write one copy with a second symbol that means the same as {key} (`{what}`), as 'G' and 'g' both `floor + general`; touching cells of two such symbols are two copies"
        ),
    }
}

/// "symbols 'G' and 'g' mean the same, so they never share a copy", when `group` mixes
/// two such symbols.
fn same_meaning_note(model: &Model, grid: &SymbolGrid, class: &[u32], group: &[usize]) -> String {
    match placement::same_meaning_pair(grid, class, group) {
        Some((a, b)) => format!(
            "; symbols {} and {} mean the same, so they never share a copy",
            model.legend[a as usize].key, model.legend[b as usize].key
        ),
        None => String::new(),
    }
}

/// The symbols a group of cells is drawn with, in order of first use: `'>' and ')'`.
fn symbols_text(model: &Model, grid: &SymbolGrid, group: &[usize]) -> String {
    let mut seen: Vec<u16> = vec![];
    for &c in group {
        let s = grid.symbols[c];
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    let keys: Vec<String> = seen
        .iter()
        .map(|&s| model.legend[s as usize].key.to_string())
        .collect();
    match keys.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Placing the copies of one piece kind from its groups of cells (rule in
/// [`placement`]).
struct Placing<'a, 'g> {
    model: &'a Model,
    pid: PieceId,
    grid: &'a SymbolGrid<'g>,
    class: &'a [u32],
}

impl Placing<'_, '_> {
    fn kind(&self) -> &PieceKind {
        &self.model.pieces[self.pid.index()]
    }

    /// Why no copy of pose `q` fits `cells` (drawn with symbols that choose it).
    fn pose_not_tiled(&self, cells: &[usize], q: PoseId) -> Problem {
        let kind = self.kind();
        let pose = &kind.poses[q.index()];
        let covers: Vec<String> = pose
            .cells
            .iter()
            .map(|(r, c)| format!("({r}, {c})"))
            .collect();
        Problem::PoseNotTiled {
            piece: kind.name.clone(),
            pose: pose.name.clone(),
            span: cells_span(self.grid, cells),
            help: format!(
                "cells drawn with {} start `{}` in pose `{}`, whose footprint is {}: draw whole copies of it{}",
                symbols_text(self.model, self.grid, cells),
                kind.name,
                pose.name,
                covers.join(" "),
                same_meaning_note(self.model, self.grid, self.class, cells)
            ),
        }
    }

    /// The one copy of a named piece that a group of cells places: in the chosen pose,
    /// else the first declared pose of the group's shape. Two symbols of one meaning in
    /// the group are two copies, so no pose fits.
    fn one(
        &self,
        cells: &[usize],
        chosen: Option<PoseId>,
        shapes: &[placement::Shape],
    ) -> Result<Instance, Problem> {
        let kind = self.kind();
        let cols = self.grid.cols;
        let (r0, c0) = ((cells[0] / cols) as i64, (cells[0] % cols) as i64);
        let offsets: Vec<(i64, i64)> = cells
            .iter()
            .map(|&c| ((c / cols) as i64 - r0, (c % cols) as i64 - c0))
            .collect();
        let one_meaning = placement::same_meaning_pair(self.grid, self.class, cells).is_none();
        let hit = shapes
            .iter()
            .position(|s| s.offsets() == offsets.as_slice());
        match (hit, chosen) {
            (Some(s), _) if one_meaning => {
                let placed = placement::Placed {
                    shape: s,
                    first: cells[0],
                };
                Ok(Instance {
                    piece: self.pid,
                    cell: placed.anchor(shapes, cols) as u32,
                    pose: shapes[s].pose,
                })
            }
            (_, Some(q)) => Err(self.pose_not_tiled(cells, q)),
            (_, None) => Err(Problem::NoMatchingPose {
                piece: kind.name.clone(),
                span: cells_span(self.grid, cells),
                help: format!(
                    "{} marker cell(s) here; {}{}",
                    cells.len(),
                    footprints(kind),
                    same_meaning_note(self.model, self.grid, self.class, cells)
                ),
            }),
        }
    }

    /// The copies of an anonymous piece that one group places, tiled by `shapes` (those
    /// of pose `chosen`, or of every pose), each with its first cell; or why there are
    /// none or several ways.
    fn copies(
        &self,
        g: &[usize],
        chosen: Option<PoseId>,
        shapes: &[placement::Shape],
        index: &mut placement::CellIndex,
    ) -> Result<Vec<(usize, Instance)>, Problem> {
        let (model, grid, class) = (self.model, self.grid, self.class);
        let kind = self.kind();
        let cols = grid.cols;
        let instance = |p: &placement::Placed| Instance {
            piece: self.pid,
            cell: p.anchor(shapes, cols) as u32,
            pose: shapes[p.shape].pose,
        };
        let copy_text = |p: &placement::Placed| {
            format!(
                "`{}` at {}",
                kind.poses[shapes[p.shape].pose.index()].name,
                at(cols, p.anchor(shapes, cols))
            )
        };
        let tiling = if g.len() == 1 && shapes.first().is_some_and(|s| s.offsets().len() == 1) {
            placement::Tiling::One(vec![placement::Placed {
                shape: 0,
                first: g[0],
            }])
        } else {
            placement::tile(grid, class, g, shapes, index)
        };
        match tiling {
            placement::Tiling::One(copies) => {
                Ok(copies.iter().map(|p| (p.first, instance(p))).collect())
            }
            placement::Tiling::Zero => Err(match chosen {
                Some(q) => self.pose_not_tiled(g, q),
                None => Problem::NoTiling {
                    piece: kind.name.clone(),
                    span: cells_span(grid, g),
                    count: g.len(),
                    help: format!(
                        "each copy covers one pose's footprint: {}{}",
                        footprints(kind),
                        same_meaning_note(model, grid, class, g)
                    ),
                },
            }),
            placement::Tiling::Several(a, b) => {
                let (only_a, only_b) = placement::differences(&a, &b);
                let mut cells: Vec<usize> =
                    only_a.iter().flat_map(|p| p.cells(shapes, cols)).collect();
                cells.sort_unstable();
                let reading = |copies: &[&placement::Placed]| {
                    let mut t: Vec<String> = copies.iter().take(6).map(|p| copy_text(p)).collect();
                    if copies.len() > 6 {
                        t.push(format!("{} more", copies.len() - 6));
                    }
                    t.join(", ")
                };
                Err(Problem::AmbiguousPlacement {
                    piece: kind.name.clone(),
                    span: cells_span(grid, &cells),
                    help: format!(
                        "one reading: {}; another: {}; {}",
                        reading(&only_a),
                        reading(&only_b),
                        second_symbol_help(model, grid.symbols[cells[0]])
                    ),
                })
            }
            placement::Tiling::TooComplex { limit } => Err(Problem::PlacementTooComplex {
                piece: kind.name.clone(),
                span: cells_span(grid, g),
                count: g.len(),
                help: format!(
                    "puz gives up after {limit} steps on a group this size; split it into smaller ones: {}",
                    second_symbol_help(model, grid.symbols[g[0]])
                ),
            }),
        }
    }
}
