//! Where a rule matches, and what applying it writes.
//!
//! A row of cells matches at a start cell and, per ellipsis, a gap. Rows are scanned
//! in PuzzleScript's order: a horizontal rule row by row, a vertical one column by
//! column; the matches of a rule are every combination of its rows' matches, the first
//! row varying fastest. Every combination after the first is checked again before it
//! is applied (an earlier one may have changed the level).

use super::Machine;
use crate::puzzlescript::ir::*;

/// Where one row matched: its start cell and its gaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Match {
    pub start: usize,
    pub k: [usize; 2],
}

/// Every combination of the rows' matches, the first row varying fastest.
pub(crate) fn tuples(rows: &[Vec<Match>]) -> Vec<Vec<Match>> {
    let mut out: Vec<Vec<Match>> = vec![vec![]];
    for row in rows {
        let mut next = Vec::with_capacity(out.len() * row.len());
        for m in row {
            for t in &out {
                let mut t = t.clone();
                t.push(*m);
                next.push(t);
            }
        }
        out = next;
    }
    out
}

impl Machine<'_> {
    #[inline]
    fn cell_matches(&self, p: &CellPattern, i: usize) -> bool {
        let (so, sm) = (self.c.so, self.c.sm);
        let o = &self.objects[i * so..(i + 1) * so];
        let m = &self.movements[i * sm..(i + 1) * sm];
        if !all_in(&p.present, o) || any_common(&p.missing, o) {
            return false;
        }
        for a in &p.any {
            if !any_common(a, o) {
                return false;
            }
        }
        all_in(&p.moving, m) && !any_common(&p.still, m)
    }

    /// The step between consecutive cells of a row scanning in `dir`.
    #[inline]
    fn step(&self, dir: u64) -> isize {
        let (dx, dy) = delta(dir);
        (dx * self.height as i64 + dy) as isize
    }

    /// Whether the cells of `items` from index `from` to `to` (exclusive) match, the
    /// cell at index `c` being at `base + d * (c - offset)`.
    #[inline]
    fn span_matches(
        &self,
        items: &[Item],
        from: usize,
        to: usize,
        base: isize,
        d: isize,
        offset: isize,
    ) -> bool {
        let mut c = from;
        while c < to {
            if let Item::Cell(p) = &items[c] {
                if !self.cell_matches(p, (base + d * (c as isize - offset)) as usize) {
                    return false;
                }
            }
            c += 1;
        }
        true
    }

    /// Whether `row` matches at `m` exactly.
    fn row_matches_at(&self, row: &[Item], ellipses: u8, dir: u64, m: Match) -> bool {
        let d = self.step(dir);
        let i = m.start as isize;
        match ellipses {
            0 => self.span_matches(row, 0, row.len(), i, d, 0),
            1 => {
                let e = row
                    .iter()
                    .position(|x| *x == Item::Ellipsis)
                    .expect("one ellipsis");
                self.span_matches(row, 0, e, i, d, 0)
                    && self.span_matches(row, e + 1, row.len(), i + d * m.k[0] as isize, d, 1)
            }
            _ => {
                let e1 = row
                    .iter()
                    .position(|x| *x == Item::Ellipsis)
                    .expect("ellipsis");
                let e2 = e1
                    + 1
                    + row[e1 + 1..]
                        .iter()
                        .position(|x| *x == Item::Ellipsis)
                        .expect("two");
                self.span_matches(row, 0, e1, i, d, 0)
                    && self.span_matches(row, e1 + 1, e2, i + d * m.k[0] as isize, d, 1)
                    && self.span_matches(
                        row,
                        e2 + 1,
                        row.len(),
                        i + d * (m.k[0] + m.k[1]) as isize,
                        d,
                        2,
                    )
            }
        }
    }

    /// Every match of `row`, in scan order.
    #[allow(clippy::too_many_arguments)]
    fn row_matches(
        &self,
        row: &[Item],
        ellipses: u8,
        dir: u64,
        objects: &[u64],
        moving: &[u64],
        out: &mut Vec<Match>,
    ) {
        let (so, sm) = (self.c.so, self.c.sm);
        let s = &self.seen;
        let (w, h) = (self.width as i64, self.height as i64);
        let len = (row.len() - ellipses as usize) as i64;
        let (mut xmin, mut xmax, mut ymin, mut ymax) = (0, w, 0, h);
        match dir {
            UP => ymin += len - 1,
            DOWN => ymax -= len - 1,
            LEFT => xmin += len - 1,
            _ => xmax -= len - 1,
        }
        let d = self.step(dir);
        let at = |x: i64, y: i64, out: &mut Vec<Match>| {
            let i = (x * h + y) as usize;
            if ellipses == 0 {
                if self.span_matches(row, 0, row.len(), i as isize, d, 0) {
                    out.push(Match {
                        start: i,
                        k: [0, 0],
                    });
                }
                return;
            }
            let kmax = match dir {
                LEFT => x - len + 2,
                RIGHT => w - (x + len) + 1,
                UP => y - len + 2,
                _ => h - (y + len) + 1,
            };
            let e1 = row
                .iter()
                .position(|x| *x == Item::Ellipsis)
                .expect("ellipsis");
            if !self.span_matches(row, 0, e1, i as isize, d, 0) {
                return;
            }
            let i = i as isize;
            if ellipses == 1 {
                for k in 0..kmax.max(0) {
                    if self.span_matches(row, e1 + 1, row.len(), i + d * k as isize, d, 1) {
                        out.push(Match {
                            start: i as usize,
                            k: [k as usize, 0],
                        });
                    }
                }
            } else {
                let e2 = e1
                    + 1
                    + row[e1 + 1..]
                        .iter()
                        .position(|x| *x == Item::Ellipsis)
                        .expect("two");
                for k1 in 0..kmax.max(0) {
                    if !self.span_matches(row, e1 + 1, e2, i + d * k1 as isize, d, 1) {
                        continue;
                    }
                    let mut k2 = 0;
                    while k1 + k2 < kmax {
                        if self.span_matches(
                            row,
                            e2 + 1,
                            row.len(),
                            i + d * (k1 + k2) as isize,
                            d,
                            2,
                        ) {
                            out.push(Match {
                                start: i as usize,
                                k: [k1 as usize, k2 as usize],
                            });
                        }
                        k2 += 1;
                    }
                }
            }
        };
        if dir == LEFT || dir == RIGHT {
            for y in ymin..ymax {
                let yu = y as usize;
                if !all_in(objects, &s.row_obj[yu * so..(yu + 1) * so])
                    || !all_in(moving, &s.row_mov[yu * sm..(yu + 1) * sm])
                {
                    continue;
                }
                for x in xmin..xmax {
                    at(x, y, out);
                }
            }
        } else {
            for x in xmin..xmax {
                let xu = x as usize;
                if !all_in(objects, &s.col_obj[xu * so..(xu + 1) * so])
                    || !all_in(moving, &s.col_mov[xu * sm..(xu + 1) * sm])
                {
                    continue;
                }
                for y in ymin..ymax {
                    at(x, y, out);
                }
            }
        }
    }

    /// Every row's matches, or `None` when a row has none.
    pub(crate) fn find_matches(&self, r: &Rule) -> Option<Vec<Vec<Match>>> {
        let mut rows = vec![];
        self.find_matches_into(r, &mut rows).then(|| {
            rows.truncate(r.rows.len());
            rows
        })
    }

    /// Every row's matches into `rows[..r.rows.len()]` (reusing its buffers); `false`
    /// when a row has none.
    pub(crate) fn find_matches_into(&self, r: &Rule, rows: &mut Vec<Vec<Match>>) -> bool {
        if !all_in(&r.mask, &self.seen.map_obj) {
            return false;
        }
        if rows.len() < r.rows.len() {
            rows.resize_with(r.rows.len(), Vec::new);
        }
        for (ri, (row, &e)) in r.rows.iter().zip(&r.ellipses).enumerate() {
            let (om, mm) = (&r.row_masks[ri], &r.row_moving[ri]);
            if !all_in(om, &self.seen.map_obj) || !all_in(mm, &self.seen.map_mov) {
                return false;
            }
            let out = &mut rows[ri];
            out.clear();
            self.row_matches(row, e, r.dir, om, mm, out);
            if out.is_empty() {
                return false;
            }
        }
        true
    }

    /// Applies `r` at one combination of matches (checking it still matches first when
    /// `check`); whether anything changed.
    pub(crate) fn apply_at(
        &mut self,
        r: &Rule,
        t: &[Match],
        check: bool,
        rigid: Option<u32>,
    ) -> bool {
        if check
            && !r
                .rows
                .iter()
                .zip(&r.ellipses)
                .zip(t)
                .all(|((row, &e), &m)| self.row_matches_at(row, e, r.dir, m))
        {
            return false;
        }
        let d = self.step(r.dir);
        let mut changed = false;
        for (row, m) in r.rows.iter().zip(t) {
            let mut pos = m.start as isize;
            let mut e = 0;
            for item in row {
                match item {
                    Item::Ellipsis => {
                        pos += d * m.k[e] as isize;
                        e += 1;
                    }
                    Item::Cell(p) => {
                        if let Some(x) = &p.replace {
                            changed |=
                                self.replace(x, pos as usize, if r.rigid { rigid } else { None });
                        }
                        pos += d;
                    }
                }
            }
        }
        changed
    }

    /// Writes a replacement at cell `i`; whether anything changed.
    fn replace(&mut self, x: &Replacement, i: usize, rigid: Option<u32>) -> bool {
        if !is_zero(&x.random_entity) || !is_zero(&x.random_dir) {
            return self.replace_random(x, i, rigid);
        }
        let (so, sm) = (self.c.so, self.c.sm);
        let mut changed = false;
        for w in 0..so {
            let old = self.objects[i * so + w];
            let new = (old & !x.clear[w]) | x.set[w];
            changed |= new != old;
            self.objects[i * so + w] = new;
        }
        for w in 0..sm {
            let old = self.movements[i * sm + w];
            let new = (old & !(x.mov_clear[w] | x.mov_layers[w])) | x.mov_set[w];
            changed |= new != old;
            self.movements[i * sm + w] = new;
        }
        if let Some(g) = rigid {
            changed |= self.mark_rigid(x, i, g);
        }
        if changed {
            self.note(i);
        }
        changed
    }

    /// Records that rigid group `g` gave movement to the layers `x` writes at `i`;
    /// whether that is new.
    fn mark_rigid(&mut self, x: &Replacement, i: usize, g: u32) -> bool {
        let sm = self.c.sm;
        let mut rmask = vec![0u64; sm];
        for l in 0..self.c.layers {
            or_layer(&mut rmask, l, g as u64);
        }
        for (a, b) in rmask.iter_mut().zip(&x.mov_layers) {
            *a &= b;
        }
        let cur_g = &self.rigid_group[i * sm..(i + 1) * sm];
        let cur_a = &self.rigid_applied[i * sm..(i + 1) * sm];
        if !all_in(&rmask, cur_g) && !all_in(&x.mov_layers, cur_a) {
            for (w, r) in rmask.iter().enumerate() {
                self.rigid_group[i * sm + w] |= r;
                self.rigid_applied[i * sm + w] |= x.mov_layers[w];
            }
            return true;
        }
        false
    }

    /// [`Machine::replace`] with a random object or direction chosen.
    fn replace_random(&mut self, x: &Replacement, i: usize, rigid: Option<u32>) -> bool {
        let mut y = x.clone();
        for (a, b) in y.mov_clear.iter_mut().zip(&x.mov_layers) {
            *a |= b;
        }
        y.mov_layers.fill(0);
        if !is_zero(&x.random_entity) {
            let choices: Vec<usize> = (0..self.c.objects.len())
                .filter(|&o| has_bit(&x.random_entity, o))
                .collect();
            let o = choices[self.rng.below(choices.len())];
            set_bit(&mut y.set, o);
            let layer = self.c.objects[o].layer;
            for (a, b) in y.clear.iter_mut().zip(self.c.layer_mask(layer)) {
                *a |= b;
            }
            or_layer(&mut y.mov_clear, layer, LAYER_BITS);
        }
        for l in 0..self.c.layers {
            if get_layer(&x.random_dir, l) != 0 {
                let d = 1u64 << self.rng.below(4);
                or_layer(&mut y.mov_set, l, d);
            }
        }
        y.random_entity.fill(0);
        y.random_dir.fill(0);
        let mut changed = self.replace(&y, i, None);
        if let Some(g) = rigid {
            changed |= self.mark_rigid(x, i, g);
        }
        changed
    }
}
