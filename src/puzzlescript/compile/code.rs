//! A rule's rows as the engine runs them ([`RowCode`]): each cell's pattern as tests of
//! the words that matter, its replacement as writes of the words it changes.

use crate::puzzlescript::ir::*;

/// The code of each row of a rule.
pub(crate) fn rows(rows: &[Vec<Item>], so: usize, sm: usize) -> Vec<RowCode> {
    rows.iter().map(|row| one_row(row, so, sm)).collect()
}

fn one_row(row: &[Item], so: usize, sm: usize) -> RowCode {
    let mut code = RowCode::default();
    let mut seg = 0;
    for (item, it) in row.iter().enumerate() {
        let p = match it {
            Item::Ellipsis => {
                if seg < 2 {
                    code.segments[seg] = code.cells.len();
                }
                seg += 1;
                continue;
            }
            Item::Cell(p) => p,
        };
        let at = |v: &Vec<WordTest>| v.len() as u32;
        let mut c = CellCode {
            test: at(&code.tests),
            ..CellCode::default()
        };
        for w in 0..so {
            test(&mut code.tests, w, p.present[w], p.missing[w]);
        }
        c.obj_test = at(&code.tests);
        for w in 0..sm {
            test(&mut code.tests, w, p.moving[w], p.still[w]);
        }
        c.test_end = at(&code.tests);
        c.any = (code.anys.len() / so.max(1)) as u32;
        for a in &p.any {
            code.anys.extend_from_slice(a);
        }
        c.any_end = (code.anys.len() / so.max(1)) as u32;
        let (t0, t1, t2) = (c.test as usize, c.obj_test as usize, c.test_end as usize);
        if t0 < t1 {
            c.obj = code.tests[t0];
        }
        if t1 < t2 {
            c.mov = code.tests[t1];
        }
        c.more = t1 - t0 > 1 || t2 - t1 > 1 || c.any != c.any_end;
        c.write = code.writes.len() as u32;
        c.obj_write = c.write;
        c.write_end = c.write;
        if let Some(x) = &p.replace {
            c.item = Some(item as u32);
            c.random = !is_zero(&x.random_entity) || !is_zero(&x.random_dir);
            for w in 0..so {
                write(&mut code.writes, w, x.clear[w], x.set[w]);
            }
            c.obj_write = code.writes.len() as u32;
            for w in 0..sm {
                write(
                    &mut code.writes,
                    w,
                    x.mov_clear[w] | x.mov_layers[w],
                    x.mov_set[w],
                );
            }
            c.write_end = code.writes.len() as u32;
        }
        code.cells.push(c);
    }
    for s in code.segments.iter_mut().skip(seg.min(2)) {
        *s = code.cells.len();
    }
    code
}

fn test(tests: &mut Vec<WordTest>, word: usize, req: u64, forb: u64) {
    if req | forb != 0 {
        tests.push(WordTest {
            word: word as u32,
            req,
            forb,
        });
    }
}

fn write(writes: &mut Vec<WordWrite>, word: usize, clear: u64, set: u64) {
    if clear | set != 0 {
        writes.push(WordWrite {
            word: word as u32,
            clear,
            set,
        });
    }
}
