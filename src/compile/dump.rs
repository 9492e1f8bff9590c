//! The readable listing of a compiled model (`puz compile --dump`), stable for snapshots.

use std::fmt::Write;

use super::model::*;

/// Renders the model as a listing with ids numbered from 0 in declaration order.
pub fn dump(m: &Model) -> String {
    let mut o = String::new();
    let w = &mut o;
    let _ = writeln!(w, "model {:?}", m.title);
    let _ = writeln!(w, "tiles");
    for (i, t) in m.tiles.iter().enumerate() {
        match t.becomes {
            Some(b) => {
                let _ = writeln!(
                    w,
                    "  t{i} {} -> t{} {}",
                    t.name,
                    b.0,
                    m.tiles[b.index()].name
                );
            }
            None => {
                let _ = writeln!(w, "  t{i} {}", t.name);
            }
        }
    }
    let _ = writeln!(
        w,
        "outside {}",
        match m.outside {
            Some(t) => format!("t{} {}", t.0, m.tiles[t.index()].name),
            None => "(off board is never legal)".to_string(),
        }
    );
    if !m.marks.is_empty() {
        let _ = writeln!(w, "marks");
        for (i, k) in m.marks.iter().enumerate() {
            let _ = writeln!(
                w,
                "  k{i} {}{}",
                k.name,
                if k.single { " single" } else { "" }
            );
        }
    }
    let _ = writeln!(w, "pieces");
    for (i, p) in m.pieces.iter().enumerate() {
        let _ = writeln!(
            w,
            "  p{i} {}{}",
            p.name,
            if p.anonymous { " anonymous" } else { "" }
        );
        for (j, pose) in p.poses.iter().enumerate() {
            let cells: Vec<String> = pose
                .cells
                .iter()
                .map(|(r, c)| format!("({r},{c})"))
                .collect();
            let _ = writeln!(w, "    pose{j} {} {}", pose.name, cells.join(" "));
        }
    }
    let _ = writeln!(w, "legend");
    for s in &m.legend {
        let mut extra = String::new();
        for (p, q) in s.pieces.iter().zip(&s.poses) {
            let kind = &m.pieces[p.index()];
            let _ = write!(extra, " + p{} {}", p.0, kind.name);
            if let Some(q) = q {
                let _ = write!(extra, ".{}", kind.poses[q.index()].name);
            }
        }
        for k in &s.marks {
            let _ = write!(extra, " + k{} {}", k.0, m.marks[k.index()].name);
        }
        let _ = writeln!(
            w,
            "  {} t{} {}{}",
            s.key,
            s.tile.0,
            m.tiles[s.tile.index()].name,
            extra
        );
    }
    let _ = writeln!(w, "dirs");
    for (i, d) in m.dirs.iter().enumerate() {
        let _ = writeln!(w, "  d{i} {} ({},{})", d.name, d.dr, d.dc);
    }
    let _ = writeln!(
        w,
        "cost {}",
        if m.costs.is_empty() {
            "(moves)".to_string()
        } else {
            m.costs.join(", ")
        }
    );
    if let Some(l) = m.limit {
        let _ = writeln!(w, "limit {l}");
    }
    for (i, mv) in m.moves.iter().enumerate() {
        let _ = writeln!(
            w,
            "move m{i} {} over {} letters {} adds {:?}",
            mv.name,
            param_text(m, &mv.param),
            mv.letters.join(""),
            mv.adds
        );
        for (j, op) in mv.ops.iter().enumerate() {
            let _ = writeln!(w, "  {j}: {}", op_text(m, op));
        }
    }
    for f in &m.forbids {
        let _ = writeln!(
            w,
            "forbid {} on {}",
            piece_pose(m, f.piece, f.pose),
            place(m, f.place)
        );
    }
    let goals: Vec<String> = m
        .goal
        .iter()
        .map(|g| format!("{} on {}", piece_pose(m, g.piece, g.pose), place(m, g.on)))
        .collect();
    let mut goals = goals;
    goals.extend(m.goal_rest.iter().map(|c| cond_text(m, c)));
    let _ = writeln!(w, "goal {}", goals.join(" and "));
    for (i, l) in m.levels.iter().enumerate() {
        let cols = l.rows.first().map(|r| r.chars().count()).unwrap_or(0);
        let _ = writeln!(
            w,
            "level {i} {:?} {} rows, {} {}",
            l.name,
            l.rows.len(),
            if l.form == GridForm::Chars {
                cols.to_string()
            } else {
                "int".to_string()
            },
            if l.form == GridForm::Chars {
                "chars"
            } else {
                "columns"
            }
        );
    }
    if let Some(j) = &m.judge {
        let header: Vec<&str> = j
            .header
            .iter()
            .map(|h| match h {
                HeaderField::Rows => "rows",
                HeaderField::Cols => "cols",
                HeaderField::Queries => "queries",
            })
            .collect();
        let _ = writeln!(w, "judge");
        let _ = writeln!(
            w,
            "  cases {}",
            match &j.until {
                Some(v) => format!("until {v:?}"),
                None => "once".to_string(),
            }
        );
        let _ = writeln!(w, "  header {}", header.join(", "));
        let _ = writeln!(w, "  grid {:?}", j.grid);
        if !j.query.is_empty() {
            let q: Vec<String> = j.query.iter().map(|s| subject(m, *s)).collect();
            let _ = writeln!(w, "  query {} base {}", q.join(", "), j.base);
        }
        let _ = writeln!(w, "  solved {:?}", j.solved);
        let _ = writeln!(w, "  unsolved {:?}", j.unsolved);
        if let Some(i) = &j.invalid {
            let _ = writeln!(w, "  invalid {i:?}");
        }
    }
    for look in &m.looks {
        let of = match look.of {
            LookOf::Tile(t) => format!("t{} {}", t.0, m.tiles[t.index()].name),
            LookOf::Piece(p) => format!("p{} {}", p.0, m.pieces[p.index()].name),
            LookOf::Mark(k) => format!("k{} {}", k.0, m.marks[k.index()].name),
        };
        let colors: Vec<String> = look
            .colors
            .iter()
            .map(|[r, g, b]| format!("#{r:02x}{g:02x}{b:02x}"))
            .collect();
        let _ = writeln!(w, "look {of} {}", colors.join(" "));
        for row in &look.sprite {
            let cells: String = row
                .iter()
                .map(|c| c.map_or('.', |i| char::from(b'0' + i)))
                .collect();
            let _ = writeln!(w, "  {cells}");
        }
    }
    o
}

fn piece_pose(m: &Model, p: PieceId, pose: Option<PoseId>) -> String {
    let piece = &m.pieces[p.index()];
    match pose {
        Some(q) => format!(
            "p{} {}.pose{} {}",
            p.0,
            piece.name,
            q.0,
            piece.poses[q.index()].name
        ),
        None => format!("p{} {}", p.0, piece.name),
    }
}

fn place(m: &Model, p: Place) -> String {
    match p {
        Place::Tile(t) => format!("t{} {}", t.0, m.tiles[t.index()].name),
        Place::Mark(k) => format!("k{} {}", k.0, m.marks[k.index()].name),
    }
}

fn subject(m: &Model, s: Subject) -> String {
    match s {
        Subject::Piece(p) => format!("p{} {}", p.0, m.pieces[p.index()].name),
        Subject::Tile(t) => place(m, Place::Tile(t)),
        Subject::Mark(k) => place(m, Place::Mark(k)),
    }
}

/// What a move ranges over: `dirs d0 n, d1 s` (every declared direction, or the move's
/// own list, `move m(d in ...)`), or `cells`.
fn param_text(m: &Model, p: &Param) -> String {
    match p {
        Param::Dirs(ds) => {
            let ds: Vec<String> = ds
                .iter()
                .map(|d| format!("d{} {}", d.0, m.dirs[d.index()].name))
                .collect();
            format!("dirs {}", ds.join(", "))
        }
        Param::Cell => "cells".to_string(),
    }
}

fn step(m: &Model, s: Step) -> String {
    let d = match s.fixed {
        Some(d) => format!("d{} {}", d.0, m.dirs[d.index()].name),
        None => "dir".to_string(),
    };
    let d = if s.times == 1 {
        d
    } else {
        format!("{}*{d}", s.times)
    };
    if s.negate {
        format!("-{d}")
    } else {
        d
    }
}

/// A piece acted on: `p3`, or `p3@a1` for alias 1, with ` each` for every copy.
fn who(piece: PieceId, alias: Option<u16>, each: bool) -> String {
    let mut s = format!("p{}", piece.0);
    if let Some(a) = alias {
        s += &format!("@a{a}");
    }
    if each {
        s = format!("each {s}");
    }
    s
}

fn cell_text(m: &Model, c: &Cell) -> String {
    let mut s = match c.base {
        Base::Piece(p, a) => who(p, a, false),
        Base::Param => "cell".to_string(),
        Base::Var(d) => format!("loop{d}"),
        Base::Abs(r, c) => format!("({r}, {c})"),
    };
    for st in &c.steps {
        s += &format!(" + {}", step(m, *st));
    }
    s
}

fn cond_text(m: &Model, c: &Cond) -> String {
    match c {
        Cond::At {
            subject: s,
            pose,
            of,
            cell,
            bind,
        } => {
            let b = match bind {
                Some((k, Some(a))) => format!(" as {}", who(*k, Some(*a), false)),
                _ => String::new(),
            };
            let pose = pose.map_or(String::new(), |q| format!(".pose{}", q.0));
            let what = match (of, s) {
                (Some(a), crate::compile::Subject::Piece(k)) => who(*k, Some(*a), false),
                _ => subject(m, *s),
            };
            format!("{what}{pose} at {}{b}", cell_text(m, cell))
        }
        Cond::On {
            piece,
            alias,
            pose,
            place: p,
        } => {
            let pose = pose.map_or(String::new(), |q| format!(".pose{}", q.0));
            format!("{}{pose} on {}", who(*piece, *alias, false), place(m, *p))
        }
        Cond::Count { what, op, value } => {
            format!("count({}) {} {value}", subject(m, *what), op.text())
        }
        Cond::Attr { left, op, right } => {
            let of = |a: &crate::compile::AttrOf| {
                format!(
                    "{}.{}",
                    who(a.piece, a.alias, false),
                    m.attributes[a.attr as usize]
                )
            };
            let rhs = match right {
                crate::compile::AttrRhs::Value(v) => v.to_string(),
                crate::compile::AttrRhs::Attr(a) => of(a),
            };
            format!("{} {} {rhs}", of(left), op.text())
        }
        Cond::Counter { id, op, value } => {
            format!(
                "c{id} {} {} {value}",
                m.counters[*id as usize].name,
                op.text()
            )
        }
        Cond::Not(inner) => format!("not ({})", cond_text(m, inner)),
        Cond::And(parts) => parts
            .iter()
            .map(|p| format!("({})", cond_text(m, p)))
            .collect::<Vec<_>>()
            .join(" and "),
        Cond::Or(parts) => parts
            .iter()
            .map(|p| format!("({})", cond_text(m, p)))
            .collect::<Vec<_>>()
            .join(" or "),
    }
}

fn block_text(m: &Model, ops: &[Op]) -> String {
    let parts: Vec<String> = ops.iter().map(|o| op_text(m, o)).collect();
    format!("{{ {} }}", parts.join("; "))
}

fn op_text(m: &Model, op: &Op) -> String {
    match op {
        Op::Test {
            subject: s,
            cell,
            want,
        } => {
            let at = match cell.step {
                Some(st) => format!("p{} + {}", cell.piece.0, step(m, st)),
                None => format!("p{}", cell.piece.0),
            };
            format!(
                "{} {} at {at}",
                if *want { "require" } else { "forbid" },
                subject(m, *s)
            )
        }
        Op::Shift {
            piece,
            step: s,
            alias,
            each,
        } => format!("shift {} {}", who(*piece, *alias, *each), step(m, *s)),
        Op::Swap {
            piece,
            step: s,
            alias,
        } => format!("swap {} {}", who(*piece, *alias, false), step(m, *s)),
        Op::Turn {
            piece,
            table,
            alias,
        } => {
            let nd = m.dirs.len();
            let rows: Vec<String> = table
                .iter()
                .enumerate()
                .map(|(i, e)| match e {
                    Some((to, dr, dc)) => {
                        format!("pose{}.d{}->pose{}({dr},{dc})", i / nd, i % nd, to.0)
                    }
                    None => format!("pose{}.d{}->none", i / nd, i % nd),
                })
                .collect();
            format!("turn {} [{}]", who(*piece, *alias, false), rows.join(" "))
        }
        Op::Slide {
            piece,
            step: s,
            rules,
            alias,
            each,
        } => {
            let rs: Vec<String> = rules
                .iter()
                .map(|r| {
                    let ev = match r.event {
                        SlideEvent::Into(p) => format!("into {}", place(m, p)),
                        SlideEvent::BeforeTile(t) => format!("before {}", place(m, Place::Tile(t))),
                        SlideEvent::BeforePiece(p) => format!("before p{}", p.0),
                        SlideEvent::OffBoard => "off board".to_string(),
                    };
                    let mut acts = vec![];
                    if r.stop {
                        acts.push("stop");
                    }
                    if r.brk {
                        acts.push("break");
                    }
                    if r.lose {
                        acts.push("lose");
                    }
                    format!("{ev}: {}", acts.join(","))
                })
                .collect();
            format!(
                "slide {} {} {{ {} }}",
                who(*piece, *alias, *each),
                step(m, *s),
                rs.join("; ")
            )
        }
        Op::Check { cond, want } => format!(
            "{} {}",
            if *want { "require" } else { "forbid" },
            cond_text(m, cond)
        ),
        Op::Remove { piece, alias } => format!("remove {}", who(*piece, *alias, false)),
        Op::Create { piece, pose, cell } => format!(
            "create p{}.pose{} at {}",
            piece.0,
            pose.0,
            cell_text(m, cell)
        ),
        Op::Change {
            from,
            to,
            toggle,
            place: at,
        } => {
            let at = match at {
                TilePlace::At(c) => format!("at {}", cell_text(m, c)),
                TilePlace::All => "everywhere".to_string(),
                TilePlace::Mark(k) => format!("on {}", place(m, Place::Mark(*k))),
            };
            let (a, b) = (place(m, Place::Tile(*from)), place(m, Place::Tile(*to)));
            if *toggle {
                format!("toggle {a} {b} {at}")
            } else {
                format!("change {a} -> {b} {at}")
            }
        }
        Op::Count { id, op, value } => {
            let op = match op {
                AssignOp::Add => "+=",
                AssignOp::Sub => "-=",
                AssignOp::Set => "=",
            };
            format!("c{id} {} {op} {value}", m.counters[*id as usize].name)
        }
        Op::If { cond, then, els } => format!(
            "if {} {} else {}",
            cond_text(m, cond),
            block_text(m, then),
            block_text(m, els)
        ),
        Op::ForCells { piece, alias, body } => format!(
            "for each cell of {} {}",
            who(*piece, *alias, false),
            block_text(m, body)
        ),
    }
}
