//! Lowering declarations: every top-level item, with the parts only declarations have
//! (attributes, poses, legend entries, piece references).

use pest::iterators::Pair;

use super::super::ast::*;
use super::super::span::Span;
use super::{is_punct, span_of, Lowerer, Rule};

impl Lowerer {
    pub(super) fn item(&mut self, pair: Pair<Rule>) -> Item {
        let span = span_of(&pair);
        let rule = pair.as_rule();
        let mut inner = pair.into_inner();
        let kw = inner
            .next()
            .expect("every declaration starts with a keyword");
        let keyword = span_of(&kw);
        let all: Vec<Pair<Rule>> = inner.collect();
        let braced = all.iter().any(|p| p.as_rule() == Rule::lbrace);
        let rest: Vec<Pair<Rule>> = all.into_iter().filter(|p| !is_punct(p.as_rule())).collect();
        let kind = match rule {
            Rule::puzzle_decl => ItemKind::Puzzle(self.string(rest[0].clone())),
            Rule::tiles_decl => ItemKind::Tiles(
                rest.into_iter()
                    .map(|t| {
                        let mut names = t.into_inner().filter(|p| p.as_rule() == Rule::name);
                        TileDef {
                            name: self.name(names.next().expect("tile name")),
                            becomes: names.next().map(|n| self.name(n)),
                        }
                    })
                    .collect(),
            ),
            Rule::outside_decl => ItemKind::Outside(self.name(rest[0].clone())),
            Rule::marks_decl => ItemKind::Marks(
                rest.into_iter()
                    .map(|m| {
                        let mut it = m.into_inner();
                        MarkDef {
                            name: self.name(it.next().expect("mark name")),
                            single: it.next().is_some(),
                        }
                    })
                    .collect(),
            ),
            Rule::piece_decl => {
                let mut it = rest.into_iter().peekable();
                let name = self.name(it.next().expect("piece name"));
                let anonymous = it.peek().is_some_and(|p| p.as_rule() == Rule::kw_anonymous);
                if anonymous {
                    it.next();
                }
                let max = match it.peek().map(|p| p.as_rule()) {
                    Some(Rule::piece_max) => {
                        let m = it.next().expect("peeked");
                        let int = m.into_inner().nth(1).expect("max value");
                        Some(self.int(int))
                    }
                    _ => None,
                };
                let attrs = match it.peek().map(|p| p.as_rule()) {
                    Some(Rule::attrs) => self.attrs(it.next().expect("peeked")),
                    _ => vec![],
                };
                let poses: Vec<PoseDef> = it.map(|p| self.pose(p)).collect();
                // `piece x {}` and `piece x` differ: braces mean "my poses are these".
                ItemKind::Piece(PieceDecl {
                    name,
                    anonymous,
                    max,
                    poses: if braced { Some(poses) } else { None },
                    attrs,
                })
            }
            Rule::legend_decl => {
                ItemKind::Legend(rest.into_iter().map(|e| self.legend_entry(e)).collect())
            }
            Rule::dirs_decl => ItemKind::Dirs(
                rest.into_iter()
                    .map(|d| {
                        let mut it = d.into_inner();
                        let name = self.name(it.next().expect("dir name"));
                        let step = self.offset(it.next().expect("dir step"));
                        DirDef { name, step }
                    })
                    .collect(),
            ),
            Rule::cost_decl => ItemKind::Cost(rest.into_iter().map(|n| self.name(n)).collect()),
            Rule::limit_decl => ItemKind::Limit(self.int(rest[0].clone())),
            Rule::metric_decl => {
                let mut it = rest.into_iter();
                let name = self.name(it.next().expect("metric name"));
                let groups = it
                    .map(|g| {
                        let mut q = g.into_inner().filter(|x| !is_punct(x.as_rule()));
                        let kw = q.next().expect("straight or chain");
                        let combine = if kw.as_rule() == Rule::kw_straight {
                            Combine::Straight
                        } else {
                            Combine::Chain
                        };
                        MetricGroup {
                            combine,
                            keyword: span_of(&kw),
                            moves: q.map(|n| self.name(n)).collect(),
                        }
                    })
                    .collect();
                ItemKind::Metric(MetricDecl { name, groups })
            }
            Rule::move_decl => {
                let mut it = rest.into_iter();
                let name = self.name(it.next().expect("move name"));
                let param = self.move_param(it.next().expect("move parameter"));
                let body = it.map(|s| self.move_stmt(s)).collect();
                ItemKind::Move(MoveDecl { name, param, body })
            }
            Rule::forbid_decl => {
                let piece = self.piece_ref(rest[0].clone());
                let tile = self.name(rest[2].clone());
                ItemKind::Forbid(ForbidDecl { piece, tile })
            }
            Rule::goal_decl => ItemKind::Goal(self.cond(rest[0].clone())),
            Rule::counter_decl => {
                let mut it = rest.into_iter().filter(|p| p.as_rule() != Rule::kw_max);
                let name = self.name(it.next().expect("counter name"));
                let max = self.int(it.next().expect("counter max"));
                let start = it.find(|p| p.as_rule() == Rule::int).map(|p| self.int(p));
                ItemKind::Counter(CounterDecl { name, max, start })
            }
            Rule::level_decl => ItemKind::Level(self.level(rest)),
            Rule::judge_decl => {
                ItemKind::Judge(rest.into_iter().map(|s| self.judge_stmt(s)).collect())
            }
            Rule::look_decl => ItemKind::Look(rest.into_iter().map(|e| self.look_def(e)).collect()),
            other => unreachable!("not a declaration rule: {other:?}"),
        };
        Item {
            kind,
            keyword,
            span,
        }
    }

    /// `box #a52 #fc8 sprite """ ... """`: a name, its colours, maybe a sprite.
    fn look_def(&mut self, p: Pair<Rule>) -> LookDef {
        let mut name = None;
        let mut colors = vec![];
        let mut sprite = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::name => name = Some(self.name(q)),
                Rule::color => colors.push(ColorText {
                    text: q.as_str().to_string(),
                    span: span_of(&q),
                }),
                Rule::text_block => {
                    let span = span_of(&q);
                    let (rows, starts) = self.text_rows(q);
                    sprite = Some((rows, starts, span));
                }
                _ => {}
            }
        }
        LookDef {
            name: name.expect("a look names what it draws"),
            colors,
            sprite,
        }
    }

    /// `has a 1, b 2`.
    pub(super) fn attrs(&mut self, p: Pair<Rule>) -> Vec<AttrDef> {
        p.into_inner()
            .filter(|q| q.as_rule() == Rule::attr_def)
            .map(|q| {
                let mut it = q.into_inner();
                let name = self.name(it.next().expect("attribute name"));
                let value = self.int(it.next().expect("attribute value"));
                AttrDef { name, value }
            })
            .collect()
    }

    /// `disk.size`.
    pub(super) fn attr_ref(&mut self, p: Pair<Rule>) -> AttrRef {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let piece = self.name(it.next().expect("piece"));
        let attr = self.name(it.next().expect("attribute"));
        AttrRef { piece, attr, span }
    }

    pub(super) fn pose(&mut self, p: Pair<Rule>) -> PoseDef {
        let mut name = None;
        let mut cells = vec![];
        let mut open = None;
        let mut close = None;
        let mut attrs = vec![];
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::attrs => attrs = self.attrs(q),
                Rule::name => name = Some(self.name(q)),
                Rule::offset => cells.push(self.offset(q)),
                Rule::lbrace => open = Some(span_of(&q)),
                Rule::rbrace => close = Some(span_of(&q)),
                _ => {}
            }
        }
        let body = match (open, close) {
            (Some(a), Some(b)) => a.merge(b),
            _ => Span::default(),
        };
        PoseDef {
            name: name.expect("pose name"),
            cells,
            body,
            attrs,
        }
    }

    pub(super) fn legend_entry(&mut self, p: Pair<Rule>) -> LegendEntry {
        let mut it = p.into_inner().filter(|q| q.as_rule() != Rule::plus);
        let key_pair = it.next().expect("legend key");
        let key_span = span_of(&key_pair);
        let k = key_pair.into_inner().next().expect("key content");
        let key = match k.as_rule() {
            Rule::int => KeyValue::Int(self.int(k).value),
            _ => match k.into_inner().next() {
                Some(c) => KeyValue::Char(self.key_char(c)),
                None => KeyValue::Char(' '),
            },
        };
        let PieceRef {
            piece: tile,
            pose: tile_pose,
            ..
        } = self.piece_ref(it.next().expect("legend tile"));
        let extras = it.map(|n| self.piece_ref(n)).collect();
        LegendEntry {
            key,
            key_span,
            tile,
            tile_pose,
            extras,
        }
    }

    pub(super) fn piece_ref(&self, p: Pair<Rule>) -> PieceRef {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let piece = self.name(it.next().expect("piece name"));
        let pose = it.next().map(|n| self.name(n));
        PieceRef { piece, pose, span }
    }
}
