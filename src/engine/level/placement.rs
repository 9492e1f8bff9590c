//! Placement: how the cells a level draws for a piece kind become copies of it.
//!
//! The rule, for the cells placing kind K:
//! 0. A symbol may choose the pose K starts in (`'>' floor + turtle.east`). Cells whose
//!    symbols choose different poses for K, or one a pose and the other none, never
//!    belong to one copy: the cells choosing one pose are placed apart from all others.
//! 1. Two *different* symbols that mean exactly the same (same tile, same marks, same
//!    pieces in the same chosen poses) never belong to one copy: that is how a designer
//!    separates touching copies (Rush Hour: every car letter means `floor + car`).
//!    Symbols that differ in tile or marks may share a copy (a box half on a goal:
//!    `'b' floor + box`, `'B' goal + box`).
//! 2. Each 4-connected group of K's cells, after rules 0 and 1, is tiled exactly by
//!    footprints: the chosen pose's footprint alone when the group's symbols choose one,
//!    else every pose's; exactly one tiling must exist (two generals stacked in one column
//!    are one 4x1 group with one tiling by 2x1 footprints).
//!
//! Without a chosen pose, poses of one shape (equal footprints up to where the anchor
//! sits) are one footprint: a copy of that shape is placed in the first of them declared,
//! so two tilings never differ only in the pose chosen. A symbol that chooses the pose is
//! how a level starts a copy in any other pose of that shape.
//!
//! Grouping is linear in the cells (each looks up its four neighbours). The tiling is an
//! exact cover by backtracking: always cover the first uncovered cell in reading order,
//! try each footprint whose first cell lands there, stop at the second tiling. It runs on
//! an explicit stack (groups may have millions of cells) under a step budget that grows
//! with the group, so a pathological group ends in a diagnostic, not in a hang.

use std::collections::HashMap;

use crate::compile::{Model, PieceKind, PoseId};

use super::SymbolGrid;

/// The meaning class of each legend symbol: symbols with the same tile, marks, and pieces
/// in the same chosen poses share the index of the first of them.
pub(super) fn meaning_classes(model: &Model) -> Vec<u32> {
    type Meaning = (u16, u32, Vec<(u16, Option<u16>)>);
    let mut first: HashMap<Meaning, u32> = HashMap::new();
    model
        .legend
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let marks = s.marks.iter().fold(0u32, |m, k| m | 1 << k.0);
            let mut pieces: Vec<(u16, Option<u16>)> = s
                .pieces
                .iter()
                .zip(&s.poses)
                .map(|(p, q)| (p.0, q.map(|q| q.0)))
                .collect();
            pieces.sort_unstable();
            pieces.dedup();
            *first.entry((s.tile.0, marks, pieces)).or_insert(i as u32)
        })
        .collect()
}

/// Whether two neighbouring cells with legend symbols `a` and `b` may belong to one copy
/// (rule 1).
fn may_join(class: &[u32], a: u16, b: u16) -> bool {
    a == b || class[a as usize] != class[b as usize]
}

/// A board-sized table from a cell to its position in a list of cells, reused for every
/// kind and group of a level: filling and clearing cost the list's length, a lookup one
/// array read (a hash map of a 4.7 MB level's cells spent seconds hashing).
#[derive(Default)]
pub(super) struct CellIndex {
    /// 0 when the cell is not listed, else its position plus one.
    slot: Vec<u32>,
}

impl CellIndex {
    /// Lists `cells` of a board with `n` cells (positions fit in `u32`: boards have at
    /// most 2^28 cells).
    fn fill(&mut self, n: usize, cells: &[usize]) {
        if self.slot.len() < n {
            self.slot = vec![0; n];
        }
        for (i, &c) in cells.iter().enumerate() {
            self.slot[c] = i as u32 + 1;
        }
    }

    /// Forgets `cells`, the list last filled.
    fn clear(&mut self, cells: &[usize]) {
        for &c in cells {
            self.slot[c] = 0;
        }
    }

    /// The position of `cell` in the list, if it is listed.
    fn get(&self, cell: usize) -> Option<usize> {
        match self.slot.get(cell) {
            Some(&v) if v > 0 => Some(v as usize - 1),
            _ => None,
        }
    }
}

/// Splits the cells placing one kind into groups: every cell alone when every pose is one
/// cell, else 4-connected groups whose neighbouring cells may join (rule 1). Each group
/// is sorted in reading order; groups come in the reading order of their first cells.
/// Linear in the number of cells: each cell looks up its four neighbours (a scan of every
/// cell per cell took minutes on a level file of a few megabytes).
pub(super) fn group_cells(
    grid: &SymbolGrid,
    cells: &[usize],
    single: bool,
    class: &[u32],
    index: &mut CellIndex,
) -> Vec<Vec<usize>> {
    if single {
        return cells.iter().map(|&c| vec![c]).collect();
    }
    index.fill(grid.rows * grid.cols, cells);
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
                if let Some(j) = index.get(d) {
                    if !seen[j] && may_join(class, grid.symbols[c], grid.symbols[d]) {
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
    index.clear(cells);
    groups
}

/// One footprint a copy may take, and the pose a copy of it starts in: the chosen pose,
/// or the first declared pose of its shape.
#[derive(Clone, Debug)]
pub(super) struct Shape {
    /// The pose placed for this shape.
    pub(super) pose: PoseId,
    /// The pose's first cell in reading order, as an offset from the anchor.
    lead: (i64, i64),
    /// The footprint's cells in reading order, as offsets from its first cell.
    cells: Vec<(i64, i64)>,
}

impl Shape {
    /// The footprint's cells in reading order, as offsets from its first cell.
    pub(super) fn offsets(&self) -> &[(i64, i64)] {
        &self.cells
    }
}

/// The footprints cells placing `kind` are tiled by: the one of pose `chosen` when their
/// symbols choose it, else one per shape, in declaration order of its first pose.
pub(super) fn shapes(kind: &PieceKind, chosen: Option<PoseId>) -> Vec<Shape> {
    if let Some(q) = chosen {
        return pose_shape(kind, q).into_iter().collect();
    }
    let mut out: Vec<Shape> = vec![];
    for i in 0..kind.poses.len() {
        if let Some(shape) = pose_shape(kind, PoseId(i as u16)) {
            if out.iter().all(|s| s.cells != shape.cells) {
                out.push(shape);
            }
        }
    }
    out
}

/// The footprint of pose `q` of `kind` (`None` for an empty one, which the checker
/// rejects).
fn pose_shape(kind: &PieceKind, q: PoseId) -> Option<Shape> {
    let mut fp: Vec<(i64, i64)> = kind
        .poses
        .get(q.index())?
        .cells
        .iter()
        .map(|&(r, c)| (r as i64, c as i64))
        .collect();
    fp.sort_unstable();
    fp.dedup();
    let &lead = fp.first()?;
    let cells: Vec<(i64, i64)> = fp.iter().map(|&(r, c)| (r - lead.0, c - lead.1)).collect();
    Some(Shape {
        pose: q,
        lead,
        cells,
    })
}

/// One copy found by the tiling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Placed {
    /// Index into the kind's [`shapes`].
    pub(super) shape: usize,
    /// The copy's first cell in reading order (row-major board index).
    pub(super) first: usize,
}

impl Placed {
    /// The copy's anchor cell (row-major board index).
    pub(super) fn anchor(&self, shapes: &[Shape], cols: usize) -> usize {
        let lead = shapes[self.shape].lead;
        let r = (self.first / cols) as i64 - lead.0;
        let c = (self.first % cols) as i64 - lead.1;
        // The anchor is one of the footprint's cells, all of which are on the board.
        (r as usize) * cols + c as usize
    }

    /// The copy's cells in reading order (row-major board indices).
    pub(super) fn cells(&self, shapes: &[Shape], cols: usize) -> Vec<usize> {
        let (r0, c0) = ((self.first / cols) as i64, (self.first % cols) as i64);
        shapes[self.shape]
            .cells
            .iter()
            .map(|&(dr, dc)| ((r0 + dr) as usize) * cols + (c0 + dc) as usize)
            .collect()
    }
}

/// What tiling one group gave.
#[derive(Debug)]
pub(super) enum Tiling {
    /// Exactly one tiling: the copies in reading order of their first cells.
    One(Vec<Placed>),
    /// No tiling.
    Zero,
    /// Two different tilings (there may be more).
    Several(Vec<Placed>, Vec<Placed>),
    /// The step budget ran out before the answer was known.
    TooComplex {
        /// The budget, in steps.
        limit: u64,
    },
}

/// Steps (cells looked at or skipped) a group of `n` cells may spend, with `k` footprints
/// to try: room for a few passes over the group per footprint, and a floor for small
/// groups with many ways to fail.
fn budget(n: usize, k: usize) -> u64 {
    200_000 + 16 * (n as u64) * (k as u64).max(1)
}

/// Tiles one group (sorted in reading order) by `shapes` under rule 1.
pub(super) fn tile(
    grid: &SymbolGrid,
    class: &[u32],
    group: &[usize],
    shapes: &[Shape],
    index: &mut CellIndex,
) -> Tiling {
    index.fill(grid.rows * grid.cols, group);
    let tiling = cover(grid, class, group, shapes, index);
    index.clear(group);
    tiling
}

/// [`tile`] with `index` listing `group`.
fn cover(
    grid: &SymbolGrid,
    class: &[u32],
    group: &[usize],
    shapes: &[Shape],
    index: &CellIndex,
) -> Tiling {
    let n = group.len();
    let cols = grid.cols as i64;
    let rows = grid.rows as i64;
    // Rule 1 only needs checking inside a copy when the group mixes two symbols of one
    // meaning (the grouping already keeps them apart where they touch).
    let mixed = same_meaning_pair(grid, class, group).is_some();
    let limit = budget(n, shapes.len());
    let mut steps: u64 = 0;
    let mut covered = vec![false; n];
    let mut stack: Vec<(usize, usize)> = vec![]; // (group index of the first cell, shape)
    let mut found: Vec<Vec<Placed>> = vec![];
    let mut pos = 0usize;
    let mut next_shape = 0usize;
    let mut scratch: Vec<usize> = vec![];
    // The group indices the copies on the stack cover, in stack order.
    let mut trail: Vec<usize> = vec![];
    // The group indices a shape would cover with its first cell at group index `p`, if
    // they are all in the group, uncovered, and obey rule 1.
    let fit = |p: usize, s: usize, covered: &[bool], out: &mut Vec<usize>, steps: &mut u64| {
        out.clear();
        let (r0, c0) = ((group[p] / grid.cols) as i64, (group[p] % grid.cols) as i64);
        for &(dr, dc) in &shapes[s].cells {
            *steps += 1;
            let (r, c) = (r0 + dr, c0 + dc);
            if c < 0 || c >= cols || r >= rows {
                return false;
            }
            match index.get((r * cols + c) as usize) {
                Some(i) if !covered[i] => out.push(i),
                _ => return false,
            }
        }
        if mixed {
            let mut syms: Vec<(u32, u16)> = out
                .iter()
                .map(|&i| {
                    let s = grid.symbols[group[i]];
                    (class[s as usize], s)
                })
                .collect();
            syms.sort_unstable();
            syms.dedup();
            if syms.windows(2).any(|w| w[0].0 == w[1].0) {
                return false;
            }
        }
        true
    };
    loop {
        if steps > limit {
            return Tiling::TooComplex { limit };
        }
        while pos < n && covered[pos] {
            pos += 1;
            steps += 1;
        }
        let mut placed = false;
        if pos == n {
            found.push(
                stack
                    .iter()
                    .map(|&(p, s)| Placed {
                        shape: s,
                        first: group[p],
                    })
                    .collect(),
            );
            if found.len() == 2 {
                break;
            }
        } else {
            while next_shape < shapes.len() {
                let s = next_shape;
                next_shape += 1;
                if fit(pos, s, &covered, &mut scratch, &mut steps) {
                    for &i in &scratch {
                        covered[i] = true;
                    }
                    trail.extend_from_slice(&scratch);
                    stack.push((pos, s));
                    next_shape = 0;
                    placed = true;
                    break;
                }
            }
        }
        if placed {
            continue;
        }
        // Backtrack: lift the last copy and try its next shape at the same cell.
        let Some((p, s)) = stack.pop() else { break };
        let size = shapes[s].cells.len();
        for i in trail.drain(trail.len() - size..) {
            covered[i] = false;
        }
        steps += size as u64;
        pos = p;
        next_shape = s + 1;
    }
    let mut found = found.into_iter();
    match (found.next(), found.next()) {
        (None, _) => Tiling::Zero,
        (Some(one), None) => Tiling::One(one),
        (Some(a), Some(b)) => Tiling::Several(a, b),
    }
}

/// Whether `group` holds two different symbols of one meaning, and which: the first such
/// pair in reading order.
pub(super) fn same_meaning_pair(
    grid: &SymbolGrid,
    class: &[u32],
    group: &[usize],
) -> Option<(u16, u16)> {
    let mut seen: HashMap<u32, u16> = HashMap::new();
    let mut last = None;
    group.iter().find_map(|&c| {
        let s = grid.symbols[c];
        if last == Some(s) {
            return None;
        }
        last = Some(s);
        let first = *seen.entry(class[s as usize]).or_insert(s);
        (first != s).then_some((first, s))
    })
}

/// The copies of `a` not in `b` and of `b` not in `a`, both tilings sorted by first cell
/// (the order [`tile`] finds them in).
pub(super) fn differences<'a>(
    a: &'a [Placed],
    b: &'a [Placed],
) -> (Vec<&'a Placed>, Vec<&'a Placed>) {
    let (mut i, mut j) = (0, 0);
    let (mut only_a, mut only_b) = (vec![], vec![]);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x == y => {
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x.first == y.first => {
                only_a.push(x);
                only_b.push(y);
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x.first < y.first => {
                only_a.push(x);
                i += 1;
            }
            (Some(x), None) => {
                only_a.push(x);
                i += 1;
            }
            (_, Some(y)) => {
                only_b.push(y);
                j += 1;
            }
            (None, None) => break,
        }
    }
    (only_a, only_b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use miette::SourceSpan;

    /// A grid of `rows` (one legend index per character: the digit), with no source.
    fn grid<'a>(rows: &[&str], locate: &'a dyn Fn(usize, usize) -> SourceSpan) -> SymbolGrid<'a> {
        SymbolGrid {
            rows: rows.len(),
            cols: rows[0].len(),
            symbols: rows
                .iter()
                .flat_map(|r| r.bytes().map(|b| (b - b'0') as u16))
                .collect(),
            locate,
            whole: (0, 0).into(),
        }
    }

    fn shape(cells: &[(i64, i64)], pose: u16) -> Shape {
        Shape {
            pose: PoseId(pose),
            lead: (0, 0),
            cells: cells.to_vec(),
        }
    }

    fn tile_all(rows: &[&str], class: &[u32], shapes: &[Shape]) -> Tiling {
        let locate = |_: usize, _: usize| SourceSpan::from((0, 0));
        let g = grid(rows, &locate);
        let cells: Vec<usize> = (0..g.symbols.len()).filter(|&c| g.symbols[c] > 0).collect();
        let mut index = CellIndex::default();
        let groups = group_cells(&g, &cells, false, class, &mut index);
        assert_eq!(groups.len(), 1, "one group");
        tile(&g, class, &groups[0], shapes, &mut index)
    }

    const H: &[(i64, i64)] = &[(0, 0), (0, 1)];
    const V: &[(i64, i64)] = &[(0, 0), (1, 0)];

    #[test]
    fn a_column_of_four_is_two_dominoes() {
        match tile_all(&["1", "1", "1", "1"], &[0, 1], &[shape(V, 0)]) {
            Tiling::One(c) => assert_eq!(
                c,
                [Placed { shape: 0, first: 0 }, Placed { shape: 0, first: 2 }]
            ),
            t => panic!("{t:?}"),
        }
    }

    #[test]
    fn a_square_reads_two_ways_and_the_difference_is_all_of_it() {
        match tile_all(&["11", "11"], &[0, 1], &[shape(H, 0), shape(V, 1)]) {
            Tiling::Several(a, b) => {
                let (only_a, only_b) = differences(&a, &b);
                assert_eq!(only_a.len(), 2);
                assert_eq!(only_b.len(), 2);
            }
            t => panic!("{t:?}"),
        }
    }

    #[test]
    fn symbols_of_one_meaning_never_share_a_copy() {
        // Symbols 1 and 2 mean the same (class 1), 3 differs: `1 3 2` in a row is one
        // group, but no three-cell copy may hold both 1 and 2.
        let bar = [shape(&[(0, 0), (0, 1), (0, 2)], 0)];
        assert!(matches!(
            tile_all(&["132"], &[0, 1, 1, 3], &bar),
            Tiling::Zero
        ));
        // With 2 its own meaning, the bar fits.
        assert!(matches!(
            tile_all(&["132"], &[0, 1, 2, 3], &bar),
            Tiling::One(_)
        ));
    }

    #[test]
    fn the_budget_ends_a_hopeless_search() {
        let top = "1".repeat(41);
        let bottom = format!("{}0", "1".repeat(40));
        match tile_all(&[&top, &bottom], &[0, 1], &[shape(H, 0), shape(V, 1)]) {
            Tiling::TooComplex { limit } => assert_eq!(limit, budget(81, 2)),
            t => panic!("{t:?}"),
        }
    }

    #[test]
    fn poses_of_one_shape_are_one_footprint() {
        let kind = PieceKind {
            name: "b".to_string(),
            anonymous: false,
            max: None,
            poses: vec![
                crate::compile::Pose {
                    name: "right".to_string(),
                    cells: vec![(0, -1), (0, 0)],
                    values: vec![],
                },
                crate::compile::Pose {
                    name: "left".to_string(),
                    cells: vec![(0, 0), (0, 1)],
                    values: vec![],
                },
            ],
        };
        let s = shapes(&kind, None);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].pose, PoseId(0));
        assert_eq!(s[0].lead, (0, -1));
        // A chosen pose is the one footprint, with its own anchor.
        let s = shapes(&kind, Some(PoseId(1)));
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].pose, PoseId(1));
        assert_eq!(s[0].lead, (0, 0));
        assert_eq!(s[0].offsets(), [(0, 0), (0, 1)]);
    }
}
