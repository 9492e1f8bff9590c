//! The reference's own picture of a rule file: plain data that the generator builds, that
//! prints as `.puz` text for the library, and that the reference interpreter reads. Nothing
//! here comes from the crate: the library parses the printed text, the reference reads the
//! data it was printed from, so a parser, checker or compiler mistake shows up as a
//! difference like any engine mistake.

use std::fmt::Write as _;

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    pub const ALL: [Cmp; 6] = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];

    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }
}

/// A tile kind; `becomes` is what `break` turns it into (`ice -> floor`).
#[derive(Clone, Debug)]
pub struct Tile {
    pub name: String,
    pub becomes: Option<usize>,
}

/// A pose: its name, footprint (row, column offsets, (0, 0) among them) and attributes.
#[derive(Clone, Debug)]
pub struct Pose {
    pub name: String,
    pub cells: Vec<(i64, i64)>,
    /// `has size 2`: this pose's own attribute values.
    pub attrs: Vec<(String, i64)>,
}

/// A piece kind. `poses` is `None` for `piece man` (one pose `cell` covering the anchor).
#[derive(Clone, Debug)]
pub struct Kind {
    pub name: String,
    pub anonymous: bool,
    pub max: Option<u32>,
    pub poses: Option<Vec<Pose>>,
    /// `piece boulder has weight 2`: values every pose has unless it says otherwise.
    pub attrs: Vec<(String, i64)>,
}

impl Kind {
    /// The poses as the language sees them (one `cell` pose when none is written).
    pub fn pose_list(&self) -> Vec<Pose> {
        match &self.poses {
            Some(p) => p.clone(),
            None => vec![Pose {
                name: "cell".into(),
                cells: vec![(0, 0)],
                attrs: vec![],
            }],
        }
    }

    /// The value of attribute `attr` in pose `pose`: the pose's own, else the kind's.
    pub fn attr(&self, pose: usize, attr: &str) -> Option<i64> {
        let poses = self.pose_list();
        let own = poses
            .get(pose)
            .and_then(|p| p.attrs.iter().find(|(a, _)| a == attr).map(|x| x.1));
        own.or_else(|| self.attrs.iter().find(|(a, _)| a == attr).map(|x| x.1))
    }
}

/// Something a legend symbol places besides its tile.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Extra {
    /// A piece, maybe choosing its start pose.
    Piece(usize, Option<usize>),
    Mark(usize),
}

/// A legend symbol.
#[derive(Clone, Debug)]
pub struct Sym {
    pub key: char,
    pub tile: usize,
    pub extras: Vec<Extra>,
}

#[derive(Clone, Debug)]
pub struct Dir {
    pub name: String,
    pub dr: i64,
    pub dc: i64,
}

#[derive(Clone, Debug)]
pub struct Counter {
    pub name: String,
    pub max: i64,
    pub start: i64,
}

/// `metric NAME { straight m, ..  chain m, .. }`.
#[derive(Clone, Debug)]
pub struct Metric {
    pub name: String,
    pub straight: Vec<usize>,
    pub chain: Vec<usize>,
}

/// What a move ranges over: every direction, some directions, or every cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    Dirs(Option<Vec<usize>>),
    Cell,
}

/// The name written for the move's direction parameter and cell parameter.
pub const DIR_PARAM: &str = "d";
pub const CELL_PARAM: &str = "here";

/// A piece acted on: a kind (its copy) or an `as` name.
#[derive(Clone, Debug, PartialEq)]
pub enum Who {
    Kind(usize),
    Alias(String),
}

/// A step: the move's direction or a named one, maybe reversed (`-d`) or repeated (`2d`).
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub neg: bool,
    pub times: i64,
    /// `None`: the move's direction parameter.
    pub dir: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Base {
    Who(Who),
    /// The per-cell move's cell.
    Param,
    /// A `for` loop's cell, by name.
    Loop(String),
    /// `(row, col)`, negative counting from the end.
    Abs(i64, i64),
}

/// A cell: a base, then `+ STEP` / `- STEP` terms (`true` for `-`).
#[derive(Clone, Debug, PartialEq)]
pub struct CellE {
    pub base: Base,
    pub steps: Vec<(bool, Step)>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Place {
    Tile(usize),
    Mark(usize),
}

/// Which cells a tile change touches.
#[derive(Clone, Debug, PartialEq)]
pub enum Where {
    At(CellE),
    Everywhere,
    On(usize),
}

/// The subject of `X at CELL`.
#[derive(Clone, Debug, PartialEq)]
pub enum What {
    Piece(usize),
    Alias(String),
    Tile(usize),
    Mark(usize),
}

/// What `count(X)` counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CountWhat {
    Piece(usize),
    Tile(usize),
    Mark(usize),
}

/// One side of an attribute comparison: `PIECE.ATTR` or a number.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrVal {
    Of(Who, String),
    Num(i64),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    /// `X at CELL`, `K.pose at CELL`, `K at CELL as NAME`.
    At {
        what: What,
        pose: Option<usize>,
        cell: CellE,
        alias: Option<String>,
    },
    /// `P on T`, `P.pose on T`.
    On {
        who: Who,
        pose: Option<usize>,
        place: Place,
    },
    Count {
        what: CountWhat,
        op: Cmp,
        value: i64,
    },
    Counter {
        id: usize,
        op: Cmp,
        value: i64,
    },
    /// `PIECE.ATTR OP VALUE`.
    Attr {
        who: Who,
        attr: String,
        op: Cmp,
        value: AttrVal,
    },
    Not(Box<Cond>),
    And(Vec<Cond>),
    Or(Vec<Cond>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Assign {
    Add,
    Sub,
    Set,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    Into(Place),
    BeforeTile(usize),
    BeforePiece(usize),
    OffBoard,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SlideRule {
    pub event: Event,
    pub stop: bool,
    pub brk: bool,
    pub lose: bool,
}

/// One turn table row: from pose, direction, to pose, anchor offset.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnRule {
    pub from: usize,
    pub dir: usize,
    pub to: usize,
    pub dr: i64,
    pub dc: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Require(Cond),
    Forbid(Cond),
    Shift {
        who: Who,
        each: bool,
        step: Step,
    },
    Swap {
        who: Who,
        step: Step,
    },
    Turn {
        who: Who,
        rules: Vec<TurnRule>,
    },
    Slide {
        who: Who,
        each: bool,
        step: Step,
        rules: Vec<SlideRule>,
    },
    Remove(Who),
    Create {
        kind: usize,
        pose: Option<usize>,
        at: CellE,
    },
    Change {
        from: usize,
        to: usize,
        place: Where,
    },
    Toggle {
        a: usize,
        b: usize,
        place: Where,
    },
    Count {
        id: usize,
        op: Assign,
        value: i64,
    },
    If {
        cond: Cond,
        then: Vec<Stmt>,
        els: Vec<Stmt>,
    },
    For {
        var: String,
        who: Who,
        body: Vec<Stmt>,
    },
}

#[derive(Clone, Debug)]
pub struct Move {
    pub name: String,
    pub param: Param,
    /// Indices into `Rules::costs`.
    pub adds: Vec<usize>,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug)]
pub struct Forbid {
    pub kind: usize,
    pub pose: Option<usize>,
    pub place: Place,
}

/// A level as text in the legend's symbols, and its goal picture.
#[derive(Clone, Debug)]
pub struct LevelText {
    pub name: String,
    pub rows: Vec<String>,
    pub picture: Option<Vec<String>>,
}

/// A whole rule file.
#[derive(Clone, Debug, Default)]
pub struct Rules {
    pub tiles: Vec<Tile>,
    pub outside: Option<usize>,
    pub marks: Vec<String>,
    pub kinds: Vec<Kind>,
    pub legend: Vec<Sym>,
    pub dirs: Vec<Dir>,
    pub costs: Vec<String>,
    pub metrics: Vec<Metric>,
    pub counters: Vec<Counter>,
    pub moves: Vec<Move>,
    pub forbids: Vec<Forbid>,
    pub goal: Option<Cond>,
    pub levels: Vec<LevelText>,
}

// ------------------------------------------------------------------ printing

impl Rules {
    fn place_name(&self, p: Place) -> &str {
        match p {
            Place::Tile(t) => &self.tiles[t].name,
            Place::Mark(m) => &self.marks[m],
        }
    }

    fn who(&self, w: &Who) -> String {
        match w {
            Who::Kind(k) => self.kinds[*k].name.clone(),
            Who::Alias(a) => a.clone(),
        }
    }

    fn pose_name(&self, k: usize, p: usize) -> String {
        self.kinds[k].pose_list()[p].name.clone()
    }

    fn step(&self, s: &Step) -> String {
        let mut out = String::new();
        if s.neg {
            out.push('-');
        }
        if s.times != 1 {
            write!(out, "{}", s.times).unwrap();
        }
        match s.dir {
            None => out.push_str(DIR_PARAM),
            Some(d) => out.push_str(&self.dirs[d].name),
        }
        out
    }

    pub fn cell(&self, c: &CellE) -> String {
        let mut out = match &c.base {
            Base::Who(w) => self.who(w),
            Base::Param => CELL_PARAM.to_string(),
            Base::Loop(v) => v.clone(),
            Base::Abs(r, col) => format!("({r}, {col})"),
        };
        for (minus, s) in &c.steps {
            write!(out, " {} {}", if *minus { '-' } else { '+' }, self.step(s)).unwrap();
        }
        out
    }

    fn where_(&self, w: &Where) -> String {
        match w {
            Where::At(c) => format!("at {}", self.cell(c)),
            Where::Everywhere => "everywhere".into(),
            Where::On(m) => format!("on {}", self.marks[*m]),
        }
    }

    /// A condition; `top` leaves out the parentheses around an `or`/`and`.
    pub fn cond(&self, c: &Cond) -> String {
        match c {
            Cond::At {
                what,
                pose,
                cell,
                alias,
            } => {
                let mut w = match what {
                    What::Piece(k) => self.kinds[*k].name.clone(),
                    What::Alias(a) => a.clone(),
                    What::Tile(t) => self.tiles[*t].name.clone(),
                    What::Mark(m) => self.marks[*m].clone(),
                };
                if let (Some(p), What::Piece(k)) = (pose, what) {
                    write!(w, ".{}", self.pose_name(*k, *p)).unwrap();
                }
                let mut out = format!("{w} at {}", self.cell(cell));
                if let Some(a) = alias {
                    write!(out, " as {a}").unwrap();
                }
                out
            }
            Cond::On { who, pose, place } => {
                let mut w = self.who(who);
                if let (Some(p), Who::Kind(k)) = (pose, who) {
                    write!(w, ".{}", self.pose_name(*k, *p)).unwrap();
                }
                format!("{w} on {}", self.place_name(*place))
            }
            Cond::Count { what, op, value } => {
                let n = match what {
                    CountWhat::Piece(k) => &self.kinds[*k].name,
                    CountWhat::Tile(t) => &self.tiles[*t].name,
                    CountWhat::Mark(m) => &self.marks[*m],
                };
                format!("count({n}) {} {value}", op.text())
            }
            Cond::Counter { id, op, value } => {
                format!("{} {} {value}", self.counters[*id].name, op.text())
            }
            Cond::Attr {
                who,
                attr,
                op,
                value,
            } => {
                let v = match value {
                    AttrVal::Num(n) => n.to_string(),
                    AttrVal::Of(w, a) => format!("{}.{a}", self.who(w)),
                };
                format!("{}.{attr} {} {v}", self.who(who), op.text())
            }
            Cond::Not(inner) => format!("not {}", self.atom(inner)),
            Cond::And(parts) => parts
                .iter()
                .map(|p| match p {
                    Cond::Or(_) | Cond::And(_) => format!("({})", self.cond(p)),
                    _ => self.cond(p),
                })
                .collect::<Vec<_>>()
                .join(" and "),
            Cond::Or(parts) => parts
                .iter()
                .map(|p| match p {
                    Cond::Or(_) => format!("({})", self.cond(p)),
                    _ => self.cond(p),
                })
                .collect::<Vec<_>>()
                .join(" or "),
        }
    }

    /// A condition as an operand of `not`.
    fn atom(&self, c: &Cond) -> String {
        match c {
            Cond::And(_) | Cond::Or(_) => format!("({})", self.cond(c)),
            _ => self.cond(c),
        }
    }

    fn slide_rules(&self, rules: &[SlideRule]) -> String {
        let mut out = String::new();
        for r in rules {
            let ev = match r.event {
                Event::Into(p) => format!("into {}", self.place_name(p)),
                Event::BeforeTile(t) => format!("before {}", self.tiles[t].name),
                Event::BeforePiece(k) => format!("before {}", self.kinds[k].name),
                Event::OffBoard => "off board".into(),
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
            write!(out, " {ev}: {}", acts.join(", ")).unwrap();
        }
        out
    }

    fn stmts(&self, body: &[Stmt], pad: &str, out: &mut String) {
        for s in body {
            self.stmt(s, pad, out);
        }
    }

    fn stmt(&self, s: &Stmt, pad: &str, out: &mut String) {
        let inner = format!("{pad}  ");
        match s {
            Stmt::Require(c) => writeln!(out, "{pad}require {}", self.cond(c)).unwrap(),
            Stmt::Forbid(c) => writeln!(out, "{pad}forbid {}", self.cond(c)).unwrap(),
            Stmt::Shift { who, each, step } => writeln!(
                out,
                "{pad}shift {}{} {}",
                if *each { "each " } else { "" },
                self.who(who),
                self.step(step)
            )
            .unwrap(),
            Stmt::Swap { who, step } => {
                writeln!(out, "{pad}swap {} {}", self.who(who), self.step(step)).unwrap()
            }
            Stmt::Turn { who, rules } => {
                let k = match who {
                    Who::Kind(k) => *k,
                    Who::Alias(_) => unreachable!("turns name a kind"),
                };
                writeln!(out, "{pad}turn {} {{", self.who(who)).unwrap();
                for r in rules {
                    writeln!(
                        out,
                        "{inner}{} {} -> {} ({}, {})",
                        self.pose_name(k, r.from),
                        self.dirs[r.dir].name,
                        self.pose_name(k, r.to),
                        r.dr,
                        r.dc
                    )
                    .unwrap();
                }
                writeln!(out, "{pad}}}").unwrap();
            }
            Stmt::Slide {
                who,
                each,
                step,
                rules,
            } => writeln!(
                out,
                "{pad}slide {}{} {} {{{} }}",
                if *each { "each " } else { "" },
                self.who(who),
                self.step(step),
                self.slide_rules(rules)
            )
            .unwrap(),
            Stmt::Remove(w) => writeln!(out, "{pad}remove {}", self.who(w)).unwrap(),
            Stmt::Create { kind, pose, at } => {
                let mut k = self.kinds[*kind].name.clone();
                if let Some(p) = pose {
                    write!(k, ".{}", self.pose_name(*kind, *p)).unwrap();
                }
                writeln!(out, "{pad}create {k} at {}", self.cell(at)).unwrap()
            }
            Stmt::Change { from, to, place } => writeln!(
                out,
                "{pad}change {} -> {} {}",
                self.tiles[*from].name,
                self.tiles[*to].name,
                self.where_(place)
            )
            .unwrap(),
            Stmt::Toggle { a, b, place } => writeln!(
                out,
                "{pad}toggle {} {} {}",
                self.tiles[*a].name,
                self.tiles[*b].name,
                self.where_(place)
            )
            .unwrap(),
            Stmt::Count { id, op, value } => writeln!(
                out,
                "{pad}{} {} {value}",
                self.counters[*id].name,
                match op {
                    Assign::Add => "+=",
                    Assign::Sub => "-=",
                    Assign::Set => "=",
                }
            )
            .unwrap(),
            Stmt::If { cond, then, els } => {
                writeln!(out, "{pad}if {} {{", self.cond(cond)).unwrap();
                self.stmts(then, &inner, out);
                if els.is_empty() {
                    writeln!(out, "{pad}}}").unwrap();
                } else {
                    writeln!(out, "{pad}}} else {{").unwrap();
                    self.stmts(els, &inner, out);
                    writeln!(out, "{pad}}}").unwrap();
                }
            }
            Stmt::For { var, who, body } => {
                writeln!(out, "{pad}for {var} in {} {{", self.who(who)).unwrap();
                self.stmts(body, &inner, out);
                writeln!(out, "{pad}}}").unwrap();
            }
        }
    }

    fn attrs(list: &[(String, i64)]) -> String {
        if list.is_empty() {
            return String::new();
        }
        let parts: Vec<String> = list.iter().map(|(a, v)| format!("{a} {v}")).collect();
        format!(" has {}", parts.join(", "))
    }

    /// The rule file as `.puz` text.
    pub fn to_puz(&self) -> String {
        let mut out = String::from("puzzle \"differential\"\n");
        let tiles: Vec<String> = self
            .tiles
            .iter()
            .map(|t| match t.becomes {
                Some(b) => format!("{} -> {}", t.name, self.tiles[b].name),
                None => t.name.clone(),
            })
            .collect();
        writeln!(out, "tiles {{ {} }}", tiles.join("  ")).unwrap();
        if let Some(o) = self.outside {
            writeln!(out, "outside {}", self.tiles[o].name).unwrap();
        }
        if !self.marks.is_empty() {
            writeln!(out, "marks {{ {} }}", self.marks.join(" ")).unwrap();
        }
        for k in &self.kinds {
            write!(out, "piece {}", k.name).unwrap();
            if k.anonymous {
                out.push_str(" anonymous");
            }
            if let Some(m) = k.max {
                write!(out, " max {m}").unwrap();
            }
            out.push_str(&Self::attrs(&k.attrs));
            if let Some(poses) = &k.poses {
                out.push_str(" {");
                for p in poses {
                    let cells: Vec<String> =
                        p.cells.iter().map(|(r, c)| format!("({r}, {c})")).collect();
                    write!(
                        out,
                        " pose {} {{ {} }}{}",
                        p.name,
                        cells.join(" "),
                        Self::attrs(&p.attrs)
                    )
                    .unwrap();
                }
                out.push_str(" }");
            }
            out.push('\n');
        }
        out.push_str("legend {\n");
        for s in &self.legend {
            let mut line = format!("  '{}' {}", s.key, self.tiles[s.tile].name);
            for e in &s.extras {
                match e {
                    Extra::Piece(k, None) => write!(line, " + {}", self.kinds[*k].name).unwrap(),
                    Extra::Piece(k, Some(p)) => write!(
                        line,
                        " + {}.{}",
                        self.kinds[*k].name,
                        self.pose_name(*k, *p)
                    )
                    .unwrap(),
                    Extra::Mark(m) => write!(line, " + {}", self.marks[*m]).unwrap(),
                }
            }
            writeln!(out, "{line}").unwrap();
        }
        out.push_str("}\n");
        let dirs: Vec<String> = self
            .dirs
            .iter()
            .map(|d| format!("{} ({}, {})", d.name, d.dr, d.dc))
            .collect();
        writeln!(out, "dirs {{ {} }}", dirs.join("  ")).unwrap();
        if !self.costs.is_empty() {
            writeln!(out, "cost {}", self.costs.join(", ")).unwrap();
        }
        for c in &self.counters {
            write!(out, "counter {} max {}", c.name, c.max).unwrap();
            if c.start != 0 {
                write!(out, " start {}", c.start).unwrap();
            }
            out.push('\n');
        }
        for m in &self.metrics {
            write!(out, "metric {} {{", m.name).unwrap();
            let names = |v: &[usize]| {
                v.iter()
                    .map(|&i| self.moves[i].name.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            if !m.straight.is_empty() {
                write!(out, " straight {}", names(&m.straight)).unwrap();
            }
            if !m.chain.is_empty() {
                write!(out, " chain {}", names(&m.chain)).unwrap();
            }
            out.push_str(" }\n");
        }
        for m in &self.moves {
            let param = match &m.param {
                Param::Dirs(None) => DIR_PARAM.to_string(),
                Param::Dirs(Some(ds)) => format!(
                    "{DIR_PARAM} in {}",
                    ds.iter()
                        .map(|&d| self.dirs[d].name.clone())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Param::Cell => format!("cell {CELL_PARAM}"),
            };
            writeln!(out, "move {}({param}) {{", m.name).unwrap();
            if !m.adds.is_empty() {
                let adds: Vec<&str> = m.adds.iter().map(|&i| self.costs[i].as_str()).collect();
                writeln!(out, "  adds {}", adds.join(", ")).unwrap();
            }
            self.stmts(&m.body, "  ", &mut out);
            out.push_str("}\n");
        }
        for f in &self.forbids {
            let mut k = self.kinds[f.kind].name.clone();
            if let Some(p) = f.pose {
                write!(k, ".{}", self.pose_name(f.kind, p)).unwrap();
            }
            writeln!(out, "forbid {k} on {}", self.place_name(f.place)).unwrap();
        }
        if let Some(g) = &self.goal {
            writeln!(out, "goal {}", self.cond(g)).unwrap();
        }
        for l in &self.levels {
            writeln!(out, "level \"{}\" \"\"\"", l.name).unwrap();
            for r in &l.rows {
                writeln!(out, "  {r}").unwrap();
            }
            out.push_str("  \"\"\"");
            if let Some(p) = &l.picture {
                out.push_str(" goal \"\"\"\n");
                for r in p {
                    writeln!(out, "  {r}").unwrap();
                }
                out.push_str("  \"\"\"");
            }
            out.push('\n');
        }
        out
    }
}
