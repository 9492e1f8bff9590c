//! Support shared by several test files: random level generators. Only generators live
//! here; every reference solver stays in its own test file, independent of the crate and
//! of the other tests.

#![allow(dead_code)]

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    /// No `#` border: leaving the board must be illegal anyway.
    None,
    /// A full `#` border; start and target inside.
    Full,
    /// Some border cells `#`, the rest random.
    Partial,
}

/// One random valid Bloxorz level in the shipped symbols `. E # X O` (rows joined by
/// '\n'): unframed, fully framed or partly framed, up to `max` x `max`, a standing start
/// (one X) or a lying one (two X), sometimes on the border.
pub fn bloxorz_board(rng: &mut fastrand::Rng, max: usize) -> (String, Frame) {
    let frame = match rng.u8(0..10) {
        0..=4 => Frame::None,
        5..=7 => Frame::Full,
        _ => Frame::Partial,
    };
    let min = if frame == Frame::Full { 4 } else { 3 };
    let rows = rng.usize(min..=max);
    let cols = rng.usize(min..=max);
    let wall = rng.u8(0..45);
    let fragile = rng.u8(0..35);
    let mut g = vec![vec![b'.'; cols]; rows];
    for row in g.iter_mut() {
        for cell in row.iter_mut() {
            let x = rng.u8(0..100);
            *cell = if x < wall {
                b'#'
            } else if x < wall + fragile {
                b'E'
            } else {
                b'.'
            };
        }
    }
    let border = |r: usize, c: usize| r == 0 || c == 0 || r + 1 == rows || c + 1 == cols;
    for (r, row) in g.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            if border(r, c) && (frame == Frame::Full || (frame == Frame::Partial && rng.bool())) {
                *cell = b'#';
            }
        }
    }
    let (lo_r, hi_r, lo_c, hi_c) = if frame == Frame::Full {
        (1, rows - 2, 1, cols - 2)
    } else {
        (0, rows - 1, 0, cols - 1)
    };
    let on_border = frame != Frame::Full && rng.u8(0..4) == 0;
    let pick = |rng: &mut fastrand::Rng, max_dr: usize, max_dc: usize| -> (usize, usize) {
        loop {
            let r = rng.usize(lo_r..=hi_r - max_dr);
            let c = rng.usize(lo_c..=hi_c - max_dc);
            if !on_border || border(r, c) || border(r + max_dr, c + max_dc) {
                return (r, c);
            }
        }
    };
    let start: Vec<(usize, usize)> = match rng.u8(0..3) {
        0 => vec![pick(rng, 0, 0)],
        1 => {
            let (r, c) = pick(rng, 1, 0);
            vec![(r, c), (r + 1, c)]
        }
        _ => {
            let (r, c) = pick(rng, 0, 1);
            vec![(r, c), (r, c + 1)]
        }
    };
    for &(r, c) in &start {
        g[r][c] = b'X';
    }
    let target_border = frame != Frame::Full && rng.u8(0..4) == 0;
    loop {
        let r = rng.usize(lo_r..=hi_r);
        let c = rng.usize(lo_c..=hi_c);
        if start.contains(&(r, c)) || (target_border && !border(r, c)) {
            continue;
        }
        g[r][c] = b'O';
        break;
    }
    let text: Vec<String> = g
        .into_iter()
        .map(|r| String::from_utf8(r).unwrap())
        .collect();
    (text.join("\n"), frame)
}
