//! Where a rule matches, and what applying it writes.
//!
//! A row of cells matches at a start cell and, per ellipsis, a gap. Rows are scanned
//! in PuzzleScript's order: a horizontal rule row by row, a vertical one column by
//! column; the matches of a rule are every combination of its rows' matches, the first
//! row varying fastest. Every combination after the first is checked again before it
//! is applied (an earlier one may have changed the level).
//!
//! A row is not tried at every cell: the cells where it can start are found first from
//! the objects its cells before the first ellipsis need (the intersection of those
//! objects' cells, each shifted back by its cell's place in the row), and only those
//! are tested, in scan order.

use super::occupancy::{and_shifted, and_shifted_n, Occupancy};
use super::Machine;
use crate::puzzlescript::ir::*;

/// Scratch for finding where a row can start.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scan {
    /// The cells where the row can start.
    cand: Vec<u64>,
    /// The starting cells in scan order.
    starts: Vec<u32>,
    /// Per segment after an ellipsis that has anchors: the cells where it can begin.
    later: [Vec<u64>; 2],
    /// The cells of each property anchors name ([`Compiled::props`], `nw` words each),
    /// valid where `stamps` holds the occupancy's version plus one.
    props: Vec<u64>,
    stamps: Vec<u64>,
    /// Starting cells tested so far (part of what a group's run costs: `late.rs`).
    pub(crate) tested: u64,
}

impl Scan {
    /// Makes room for the cells of `props` properties on a board of `nw` words per
    /// bitset (a new level), none of them gathered yet.
    pub(crate) fn fit(&mut self, props: usize, nw: usize) {
        self.props.clear();
        self.props.resize(props * nw, 0);
        self.stamps.clear();
        self.stamps.resize(props, 0);
    }

    /// The cells of property `p` (objects `ids`) on `o`, gathered again only when the
    /// board changed since they last were.
    #[inline(always)]
    fn prop(&mut self, o: &Occupancy, p: u32, ids: &[usize]) -> &[u64] {
        let (p, now, nw) = (p as usize, o.version + 1, o.nw);
        let cells = &mut self.props[p * nw..(p + 1) * nw];
        if self.stamps[p] != now {
            cells.fill(0);
            for &id in ids {
                for (t, &c) in cells.iter_mut().zip(o.of(id)) {
                    *t |= c;
                }
            }
            self.stamps[p] = now;
        }
        cells
    }
}

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

/// The cell of cell `c` of `row` matched at `m`, `d` the step between its cells.
#[inline]
fn cell_at(row: &RowCode, m: Match, d: isize, c: usize) -> usize {
    let [s1, s2] = row.segments;
    let k = if c >= s2 {
        m.k[0] + m.k[1]
    } else if c >= s1 {
        m.k[0]
    } else {
        0
    };
    (m.start as isize + d * (k + c) as isize) as usize
}

/// Bit `i` of `v` (clear past its end).
#[inline]
fn bit_of(v: &[u64], i: usize) -> bool {
    v.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
}

impl Machine<'_> {
    /// Whether cell `i` passes `row`'s tests of cell `c`.
    #[inline(always)]
    fn cell_matches(&self, row: &RowCode, c: &CellCode, i: usize) -> bool {
        let (so, sm) = (self.c.so, self.c.sm);
        let v = self.objects[i * so + c.obj.word as usize];
        if v & c.obj.req != c.obj.req || v & c.obj.forb != 0 {
            return false;
        }
        let v = self.movements[i * sm + c.mov.word as usize];
        if v & c.mov.req != c.mov.req || v & c.mov.forb != 0 {
            return false;
        }
        !c.more || self.cell_matches_more(row, c, i)
    }

    /// [`Machine::cell_matches`] for a cell with more tests (all of them, again).
    #[inline(never)]
    fn cell_matches_more(&self, row: &RowCode, c: &CellCode, i: usize) -> bool {
        let (so, sm) = (self.c.so, self.c.sm);
        let (t0, t1, t2) = (c.test as usize, c.obj_test as usize, c.test_end as usize);
        for t in &row.tests[t0..t1] {
            let v = self.objects[i * so + t.word as usize];
            if v & t.req != t.req || v & t.forb != 0 {
                return false;
            }
        }
        for t in &row.tests[t1..t2] {
            let v = self.movements[i * sm + t.word as usize];
            if v & t.req != t.req || v & t.forb != 0 {
                return false;
            }
        }
        if c.any != c.any_end {
            let o = &self.objects[i * so..(i + 1) * so];
            let masks = &row.anys[c.any as usize * so..c.any_end as usize * so];
            if !masks.chunks(so).all(|a| any_common(a, o)) {
                return false;
            }
        }
        true
    }

    /// The step between consecutive cells of a row scanning in `dir`.
    #[inline]
    fn step(&self, dir: u64) -> isize {
        let (dx, dy) = delta(dir);
        (dx * self.height as i64 + dy) as isize
    }

    /// Whether `row`'s cells `from..to` match, cell `c` being at `base + d * c`.
    #[inline(always)]
    fn span_matches(&self, row: &RowCode, from: usize, to: usize, base: isize, d: isize) -> bool {
        let mut c = from;
        while c < to {
            if !self.cell_matches(row, &row.cells[c], (base + d * c as isize) as usize) {
                return false;
            }
            c += 1;
        }
        true
    }

    /// Whether no cell of `row` at `m` changed after application number `at`.
    fn row_unchanged(&self, row: &RowCode, dir: u64, m: Match, at: u64) -> bool {
        let seq = &self.since.cell_seq;
        if row.cells.len() == 1 && row.segments[0] == 1 {
            return seq.get(m.start).is_some_and(|&s| s <= at);
        }
        let d = self.step(dir);
        (0..row.cells.len()).all(|c| seq.get(cell_at(row, m, d, c)).is_some_and(|&s| s <= at))
    }

    /// Whether `row` matches at `m` exactly.
    fn row_matches_at(&self, row: &RowCode, dir: u64, m: Match) -> bool {
        let d = self.step(dir);
        let i = m.start as isize;
        let [s1, s2] = row.segments;
        let (k1, k2) = (m.k[0] as isize, (m.k[0] + m.k[1]) as isize);
        self.span_matches(row, 0, s1, i, d)
            && self.span_matches(row, s1, s2, i + d * k1, d)
            && self.span_matches(row, s2, row.cells.len(), i + d * k2, d)
    }

    /// Every match of row `ri` of `r`, in scan order.
    fn row_matches(&self, r: &Rule, ri: usize, scan: &mut Scan, out: &mut Vec<Match>) {
        let (row, ellipses, dir) = (&r.code[ri], r.ellipses[ri], r.dir);
        let (anchors, later) = (&r.anchors[ri], &r.later[ri]);
        let (w, h) = (self.width as i64, self.height as i64);
        let len = row.cells.len() as i64;
        let (mut xmin, mut xmax, mut ymin, mut ymax) = (0, w, 0, h);
        match dir {
            UP => ymin += len - 1,
            DOWN => ymax -= len - 1,
            LEFT => xmin += len - 1,
            _ => xmax -= len - 1,
        }
        let d = self.step(dir);
        // The cells where each segment after an ellipsis can begin: none, and the row
        // matches nowhere (a segment whose cells need nothing can begin anywhere).
        let mut use_later = [false; 2];
        for (s, a) in later.iter().enumerate().take(ellipses as usize) {
            if a.is_empty() {
                continue;
            }
            if !self.starts(a, d, scan) {
                return;
            }
            std::mem::swap(&mut scan.later[s], &mut scan.cand);
            use_later[s] = true;
        }
        let horizontal = dir == LEFT || dir == RIGHT;
        // The cells where the row may start, in scan order: by rows for a horizontal
        // rule (cells are numbered by columns), else by columns.
        scan.starts.clear();
        if anchors.is_empty() {
            let starts = &mut scan.starts;
            if horizontal {
                for y in ymin..ymax {
                    starts.extend((xmin..xmax).map(|x| (x * h + y) as u32));
                }
            } else {
                for x in xmin..xmax {
                    starts.extend((ymin..ymax).map(|y| (x * h + y) as u32));
                }
            }
        } else {
            if !self.starts(anchors, d, scan) {
                return;
            }
            let Scan { cand, starts, .. } = scan;
            for (k, &word) in cand.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let i = (k * 64) as i64 + bits.trailing_zeros() as i64;
                    bits &= bits - 1;
                    let (x, y) = (i / h, i % h);
                    if x < xmin || x >= xmax || y < ymin || y >= ymax {
                        continue;
                    }
                    starts.push(if horizontal { y * w + x } else { i } as u32);
                }
            }
            if horizontal {
                starts.sort_unstable();
                for k in starts.iter_mut() {
                    let (x, y) = (*k as i64 % w, *k as i64 / w);
                    *k = (x * h + y) as u32;
                }
            }
        }
        let starts = &scan.starts;
        scan.tested += starts.len() as u64;
        let n = row.cells.len();
        if ellipses == 0 {
            for &i in starts.iter() {
                if self.span_matches(row, 0, n, i as isize, d) {
                    out.push(Match {
                        start: i as usize,
                        k: [0, 0],
                    });
                }
            }
            return;
        }
        let [s1, s2] = row.segments;
        let later = &scan.later;
        let can_begin = |s: usize, at: isize| !use_later[s] || bit_of(&later[s], at as usize);
        for &start in starts.iter() {
            let (x, y) = (start as i64 / h, start as i64 % h);
            let i = start as isize;
            let kmax = match dir {
                LEFT => x - len + 2,
                RIGHT => w - (x + len) + 1,
                UP => y - len + 2,
                _ => h - (y + len) + 1,
            };
            if !self.span_matches(row, 0, s1, i, d) {
                continue;
            }
            if ellipses == 1 {
                for k in 0..kmax.max(0) {
                    let base = i + d * k as isize;
                    if can_begin(0, base + d * s1 as isize)
                        && self.span_matches(row, s1, n, base, d)
                    {
                        out.push(Match {
                            start: i as usize,
                            k: [k as usize, 0],
                        });
                    }
                }
            } else {
                for k1 in 0..kmax.max(0) {
                    let base1 = i + d * k1 as isize;
                    if !can_begin(0, base1 + d * s1 as isize)
                        || !self.span_matches(row, s1, s2, base1, d)
                    {
                        continue;
                    }
                    let mut k2 = 0;
                    while k1 + k2 < kmax {
                        let base2 = i + d * (k1 + k2) as isize;
                        if can_begin(1, base2 + d * s2 as isize)
                            && self.span_matches(row, s2, n, base2, d)
                        {
                            out.push(Match {
                                start: i as usize,
                                k: [k1 as usize, k2 as usize],
                            });
                        }
                        k2 += 1;
                    }
                }
            }
        }
    }

    /// The cells where a row with `anchors` can start (`d` the step between its
    /// cells) into `scan.cand`; `false` when there are none. Every anchor narrows the
    /// candidates (bits past the last cell that come in are out of the row's range,
    /// which the caller checks).
    fn starts(&self, anchors: &[Anchor], d: isize, scan: &mut Scan) -> bool {
        match self.occ.nw {
            1 => self.starts_n::<1>(anchors, d, scan),
            2 => self.starts_n::<2>(anchors, d, scan),
            3 => self.starts_n::<3>(anchors, d, scan),
            4 => self.starts_n::<4>(anchors, d, scan),
            _ => self.starts_any(anchors, d, scan),
        }
    }

    /// [`Machine::starts`] on a board of `64 * N` cells at most.
    #[inline(always)]
    fn starts_n<const N: usize>(&self, anchors: &[Anchor], d: isize, scan: &mut Scan) -> bool {
        let o = &self.occ;
        let of = |id: usize| -> [u64; N] {
            let mut a = [0; N];
            if let Some(s) = o.cells.get(id * N..(id + 1) * N) {
                a.copy_from_slice(s);
            }
            a
        };
        let mut cand = [u64::MAX; N];
        for a in anchors {
            let by = d * a.offset as isize;
            for &id in &a.all {
                and_shifted_n(&mut cand, &of(id), by);
            }
            for (ids, &p) in a.any.iter().zip(&a.props) {
                let mut cells = [0; N];
                cells.copy_from_slice(scan.prop(o, p, ids));
                and_shifted_n(&mut cand, &cells, by);
            }
            if a.moving {
                let mut m = [0; N];
                if let Some(s) = o.moving.get(..N) {
                    m.copy_from_slice(s);
                }
                and_shifted_n(&mut cand, &m, by);
            }
            if cand == [0; N] {
                return false;
            }
        }
        scan.cand.clear();
        scan.cand.extend_from_slice(&cand);
        true
    }

    /// [`Machine::starts`] on a board of any size.
    fn starts_any(&self, anchors: &[Anchor], d: isize, scan: &mut Scan) -> bool {
        let o = &self.occ;
        let mut cand = std::mem::take(&mut scan.cand);
        cand.clear();
        cand.resize(o.nw, u64::MAX);
        let mut found = true;
        'anchors: for a in anchors {
            let by = d * a.offset as isize;
            for &id in &a.all {
                and_shifted(&mut cand, o.of(id), by);
            }
            for (ids, &p) in a.any.iter().zip(&a.props) {
                and_shifted(&mut cand, scan.prop(o, p, ids), by);
            }
            if a.moving {
                and_shifted(&mut cand, &o.moving, by);
            }
            if is_zero(&cand) {
                found = false;
                break 'anchors;
            }
        }
        scan.cand = cand;
        found
    }

    /// Brings the table of groups that may match up to date with the objects on the
    /// board: the groups with a rule that needs an object that came or went are to be
    /// looked at again (`stale`), and may match until then.
    #[inline]
    pub(crate) fn refresh_live(&mut self) {
        if self.occ.dirty {
            self.occ.dirty = false;
            self.refresh_live_now();
        }
    }

    fn refresh_live_now(&mut self) {
        let c = self.c;
        let so = c.so;
        if self.live_board.len() != so {
            let (n, late) = (c.groups.len(), c.late_groups.len());
            for (li, points) in [&c.loop_point, &c.late_loop_point].into_iter().enumerate() {
                let len = [n, late][li];
                let mut all = vec![u64::MAX; len.div_ceil(64)];
                if len % 64 != 0 {
                    if let Some(w) = all.last_mut() {
                        *w = (1 << (len % 64)) - 1;
                    }
                }
                self.live_groups[li].clone_from(&all);
                self.stale[li] = all;
                self.loop_ends[li] = vec![0; len.div_ceil(64)];
                for (gi, p) in points.iter().enumerate() {
                    if p.is_some() {
                        set_bit(&mut self.loop_ends[li], gi);
                    }
                }
            }
            self.live_board = self.occ.board.clone();
            return;
        }
        let n = c.groups.len();
        for w in 0..so {
            let diff = self.live_board[w] ^ self.occ.board[w];
            if diff == 0 {
                continue;
            }
            self.live_board[w] = self.occ.board[w];
            let mut bits = diff;
            while bits != 0 {
                let o = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                for &k in c.groups_needing.get(o).map_or(&[][..], |v| v) {
                    let (li, gi) = if k < n { (0, k) } else { (1, k - n) };
                    set_bit(&mut self.live_groups[li], gi);
                    set_bit(&mut self.stale[li], gi);
                }
            }
        }
    }

    /// The first group from `from` on (late or not) that may match or ends a loop, or
    /// `usize::MAX`.
    #[inline]
    pub(crate) fn next_group(&self, late: bool, from: usize) -> usize {
        let li = late as usize;
        let (a, b) = (&self.live_groups[li], &self.loop_ends[li]);
        let mut k = from / 64;
        if k >= a.len() {
            return usize::MAX;
        }
        let mut word = (a[k] | b[k]) & (u64::MAX << (from % 64));
        loop {
            if word != 0 {
                return k * 64 + word.trailing_zeros() as usize;
            }
            k += 1;
            if k >= a.len() {
                return usize::MAX;
            }
            word = a[k] | b[k];
        }
    }

    /// Whether some rule of group `gi` (`late` or not), which [`Machine::next_group`]
    /// gave, may match now: the board holds everything it needs somewhere.
    #[inline]
    pub(crate) fn group_may_match(&mut self, late: bool, gi: usize, g: &Group) -> bool {
        let li = late as usize;
        if bit_of(&self.stale[li], gi) {
            let board = &self.occ.board;
            let live = (g.needs.iter()).any(|(mask, any)| {
                all_in_words(mask, board) && any.iter().all(|a| meets_words(a, board))
            });
            self.stale[li][gi / 64] &= !(1 << (gi % 64));
            if !live {
                self.live_groups[li][gi / 64] &= !(1 << (gi % 64));
                return false;
            }
        }
        bit_of(&self.live_groups[li], gi)
    }

    /// The first rule of `g` from `from` on that may match ([`Machine::may_match`]).
    #[inline]
    pub(crate) fn first_live(&self, g: &Group, from: usize) -> Option<usize> {
        let b0 = self.occ.board.first().copied().unwrap_or(0);
        let m0 = self.occ.mov_board.first().copied().unwrap_or(0);
        (from..g.quick.len()).find(|&ri| {
            let (obj, mov, more) = g.quick[ri];
            b0 & obj == obj && m0 & mov == mov && (!more || self.may_match_more(&g.rules[ri]))
        })
    }

    /// [`Machine::may_match`] for rule `ri` of `g`, its quick test read from the group.
    #[inline]
    pub(crate) fn may_match_quick(&self, g: &Group, ri: usize) -> bool {
        let (obj, mov, more) = g.quick[ri];
        let b0 = self.occ.board.first().copied().unwrap_or(0);
        let m0 = self.occ.mov_board.first().copied().unwrap_or(0);
        b0 & obj == obj && m0 & mov == mov && (!more || self.may_match_more(&g.rules[ri]))
    }

    /// Whether the board holds everything `r` needs somewhere: its objects, one object
    /// of each of its properties, its movements.
    #[inline]
    pub(crate) fn may_match(&self, r: &Rule) -> bool {
        let (obj, mov, more) = r.need;
        let b0 = self.occ.board.first().copied().unwrap_or(0);
        let m0 = self.occ.mov_board.first().copied().unwrap_or(0);
        b0 & obj == obj && m0 & mov == mov && (!more || self.may_match_more(r))
    }

    /// The rest of [`Machine::may_match`], past the first words.
    #[inline(never)]
    fn may_match_more(&self, r: &Rule) -> bool {
        let board = &self.occ.board;
        let (mask, moving, any) = &r.more;
        all_in_words(mask, board)
            && all_in_words(moving, &self.occ.mov_board)
            && any.iter().all(|a| meets_words(a, board))
    }

    /// Every row's matches, or `None` when a row has none.
    pub(crate) fn find_matches(&mut self, r: &Rule) -> Option<Vec<Vec<Match>>> {
        let mut rows = vec![];
        self.find_matches_into(r, &mut rows).then(|| {
            rows.truncate(r.rows.len());
            rows
        })
    }

    /// Every row's matches into `rows[..r.rows.len()]` (reusing its buffers); `false`
    /// when a row has none.
    pub(crate) fn find_matches_into(&mut self, r: &Rule, rows: &mut Vec<Vec<Match>>) -> bool {
        if rows.len() < r.rows.len() {
            rows.resize_with(r.rows.len(), Vec::new);
        }
        let mut scan = self.scan.take().unwrap_or_default();
        let mut found = true;
        for (ri, out) in rows.iter_mut().enumerate().take(r.ellipses.len()) {
            out.clear();
            self.row_matches(r, ri, &mut scan, out);
            if out.is_empty() {
                found = false;
                break;
            }
        }
        self.scan = Some(scan);
        found
    }

    /// The matches of one-row rule `r` (no ellipsis) whose cells include one changed by
    /// an application numbered `from` or later ([`Since::log`](super::Since)), into
    /// `rows[0]` in scan order, as [`Machine::find_matches_into`] would list them; the
    /// whole scan when that is cheaper. `false` when there is none.
    pub(crate) fn find_matches_near(
        &mut self,
        r: &Rule,
        from: u64,
        rows: &mut Vec<Vec<Match>>,
    ) -> bool {
        let row = &r.code[0];
        let n = row.cells.len();
        let log = &self.since.log;
        let changed = &log[log.partition_point(|e| e.0 < from)..];
        if changed.len() * n * 4 > self.width * self.height {
            return self.find_matches_into(r, rows);
        }
        if rows.is_empty() {
            rows.push(Vec::new());
        }
        let out = &mut rows[0];
        out.clear();
        let (w, h) = (self.width as i64, self.height as i64);
        let len = n as i64;
        let dir = r.dir;
        let (mut xmin, mut xmax, mut ymin, mut ymax) = (0, w, 0, h);
        let (dx, dy) = match dir {
            UP => {
                ymin += len - 1;
                (0, -1)
            }
            DOWN => {
                ymax -= len - 1;
                (0, 1)
            }
            LEFT => {
                xmin += len - 1;
                (-1, 0)
            }
            _ => {
                xmax -= len - 1;
                (1, 0)
            }
        };
        let horizontal = dir == LEFT || dir == RIGHT;
        // Every start whose row covers a changed cell, keyed in scan order (by rows for
        // a horizontal rule, else by columns, as `row_matches` scans).
        let mut scan = self.scan.take().unwrap_or_default();
        let starts = &mut scan.starts;
        starts.clear();
        for &(_, i) in changed {
            let (xi, yi) = (i as i64 / h, i as i64 % h);
            for c in 0..len {
                let (x, y) = (xi - dx * c, yi - dy * c);
                if x < xmin || x >= xmax || y < ymin || y >= ymax {
                    continue;
                }
                starts.push(if horizontal { y * w + x } else { x * h + y } as u32);
            }
        }
        starts.sort_unstable();
        starts.dedup();
        scan.tested += starts.len() as u64;
        let d = self.step(dir);
        for &k in starts.iter() {
            let i = if horizontal {
                let (x, y) = (k as i64 % w, k as i64 / w);
                x * h + y
            } else {
                k as i64
            };
            if self.span_matches(row, 0, n, i as isize, d) {
                out.push(Match {
                    start: i as usize,
                    k: [0, 0],
                });
            }
        }
        self.scan = Some(scan);
        !out.is_empty()
    }

    /// Whether applying `r` at the combination of matches `t` now would change nothing,
    /// known without trying: `r` (a repeatable rule) applied `t` in its group's previous
    /// pass, numbered within `window`, and no cell of `t` changed since. Each cell of `t`
    /// last changed before that pass of `r` began, or by that very application (a
    /// one-row rule's match is known by its place). Then `t` matched when `r`'s pass
    /// began (its cells decide it) and still when its turn came, so it was applied, and
    /// its cells hold what it writes: writing it again changes nothing.
    pub(crate) fn unchanged_since(&self, r: &Rule, t: &[Match], window: (u64, u64)) -> bool {
        let d = self.step(r.dir);
        let s = &self.since;
        let key = match t {
            [m] => [m.start as u32, m.k[0] as u32, m.k[1] as u32],
            _ => [u32::MAX; 3],
        };
        r.code.iter().zip(t).all(|(row, &m)| {
            (0..row.cells.len()).all(|c| {
                let i = cell_at(row, m, d, c);
                let at = s.cell_seq[i];
                at < window.0 || (at <= window.1 && s.cell_key[i] == key && key[0] != u32::MAX)
            })
        })
    }

    /// Applies `r` at one combination of matches; whether anything changed. With
    /// `found` (the latest application's number when the matches were found), it first
    /// checks that the combination still matches: a row none of whose cells an
    /// application changed since still does (its cells decide it), so only the other
    /// rows are tested again.
    pub(crate) fn apply_at(
        &mut self,
        r: &Rule,
        t: &[Match],
        found: Option<u64>,
        rigid: Option<u32>,
    ) -> bool {
        if let Some(at) = found.filter(|&at| self.since.last_change > at) {
            let still = r.code.iter().zip(t).all(|(row, &m)| {
                self.row_unchanged(row, r.dir, m, at) || self.row_matches_at(row, r.dir, m)
            });
            if !still {
                return false;
            }
        }
        let d = self.step(r.dir);
        let rigid = if r.rigid { rigid } else { None };
        let s = &mut self.since;
        s.seq += 1;
        s.key = match t {
            [m] => [m.start as u32, m.k[0] as u32, m.k[1] as u32],
            _ => [u32::MAX; 3],
        };
        let mut changed = false;
        for (ri, (row, &m)) in r.code.iter().zip(t).enumerate() {
            for (c, cell) in row.cells.iter().enumerate() {
                let Some(item) = cell.item else { continue };
                let i = cell_at(row, m, d, c);
                if cell.random || rigid.is_some() {
                    if let Item::Cell(p) = &r.rows[ri][item as usize] {
                        if let Some(x) = &p.replace {
                            changed |= self.replace(x, i, rigid);
                        }
                    }
                } else {
                    changed |= self.write_cell(row, cell, i);
                }
            }
        }
        changed
    }

    /// Writes cell `c`'s replacement at cell `i` (neither random nor rigid); whether
    /// anything changed.
    #[inline]
    fn write_cell(&mut self, row: &RowCode, c: &CellCode, i: usize) -> bool {
        let (so, sm) = (self.c.so, self.c.sm);
        let (w0, w1, w2) = (c.write as usize, c.obj_write as usize, c.write_end as usize);
        let mut changed = false;
        for x in &row.writes[w0..w1] {
            let w = x.word as usize;
            let old = self.objects[i * so + w];
            changed |= self.write_objects(i, w, (old & !x.clear) | x.set);
        }
        let mut moved = false;
        for x in &row.writes[w1..w2] {
            let at = i * sm + x.word as usize;
            let old = self.movements[at];
            let new = (old & !x.clear) | x.set;
            moved |= new != old;
            self.movements[at] = new;
        }
        if moved {
            self.mark_changed(i);
            self.occ
                .note_moving(i, &self.movements[i * sm..(i + 1) * sm]);
        }
        changed | moved
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
            changed |= self.write_objects(i, w, (old & !x.clear[w]) | x.set[w]);
        }
        let mut moved = false;
        for w in 0..sm {
            let old = self.movements[i * sm + w];
            let new = (old & !(x.mov_clear[w] | x.mov_layers[w])) | x.mov_set[w];
            moved |= new != old;
            self.movements[i * sm + w] = new;
        }
        if moved {
            self.mark_changed(i);
            self.occ
                .note_moving(i, &self.movements[i * sm..(i + 1) * sm]);
        }
        changed |= moved;
        if let Some(g) = rigid {
            changed |= self.mark_rigid(x, i, g);
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
