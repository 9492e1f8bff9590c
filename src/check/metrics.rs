//! Metrics: every `metric` names known moves once each, combines them in a way that is
//! well defined (a `chain` needs a move that moves a piece, a `straight` one that has a
//! direction and provably advances a piece along it, which a move that moves no piece
//! never does), and every level's `expect` clauses name known metrics, one clause per
//! metric at most.

use std::collections::HashMap;

use super::names::Lookup;
use super::symbols::Symbols;
use crate::diagnostics::Problem;
use crate::syntax::ast::{
    Combine, File, ItemKind, MetricDecl, MoveDecl, MoveParam, MoveStmt, MoveStmtKind, Step,
};
use crate::syntax::Span;

/// Every metric declaration and every level's expectations.
pub fn check(file: &File, syms: &Symbols) -> Vec<Problem> {
    let look = Lookup::new(syms);
    let mut out = vec![];
    let moves: HashMap<&str, &MoveDecl> = file
        .items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Move(m) => Some((m.name.text.as_str(), m)),
            _ => None,
        })
        .collect();
    let mut move_names: Vec<&str> = moves.keys().copied().collect();
    move_names.sort_unstable();
    let dirs: HashMap<&str, (i64, i64)> = file
        .items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Dirs(d) => Some(d),
            _ => None,
        })
        .flatten()
        .map(|d| (d.name.text.as_str(), (d.step.dr, d.step.dc)))
        .collect();
    let mut metrics: HashMap<&str, Span> = HashMap::new();
    for item in &file.items {
        let ItemKind::Metric(metric) = &item.kind else {
            continue;
        };
        if let Some(&first) = metrics.get(metric.name.text.as_str()) {
            out.push(Problem::Duplicate {
                kind: "metric",
                name: metric.name.text.clone(),
                span: metric.name.span.into(),
                first: first.into(),
            });
        } else {
            metrics.insert(&metric.name.text, metric.name.span);
        }
        one_metric(metric, &moves, &move_names, &dirs, &look, &mut out);
    }
    let mut known: Vec<&str> = metrics.keys().copied().collect();
    known.sort_unstable();
    for item in &file.items {
        let ItemKind::Level(level) = &item.kind else {
            continue;
        };
        let mut seen: HashMap<Option<&str>, Span> = HashMap::new();
        for clause in &level.expects {
            let key = clause.metric.as_ref().map(|n| n.text.as_str());
            if let Some(n) = &clause.metric {
                if !metrics.contains_key(n.text.as_str()) {
                    let help = look
                        .suggest(&n.text, known.iter().copied())
                        .unwrap_or_else(|| match known.is_empty() {
                            true => {
                                format!("declare it, e.g. `metric {} {{ straight MOVE }}`", n.text)
                            }
                            false => format!("declared metrics: {}", known.join(", ")),
                        });
                    out.push(Problem::UnknownName {
                        kind: "metric",
                        name: n.text.clone(),
                        span: n.span.into(),
                        help: Some(help),
                    });
                    continue;
                }
            }
            match seen.get(&key) {
                Some(&first) => out.push(Problem::DuplicateExpect {
                    level: level.name.value.clone(),
                    what: match key {
                        None => "for the plain count".to_string(),
                        Some(m) => format!("under metric `{m}`"),
                    },
                    span: clause.span.into(),
                    first: first.into(),
                }),
                None => {
                    seen.insert(key, clause.span);
                }
            }
        }
    }
    out
}

/// One metric's lists.
fn one_metric(
    metric: &MetricDecl,
    moves: &HashMap<&str, &MoveDecl>,
    move_names: &[&str],
    dirs: &HashMap<&str, (i64, i64)>,
    look: &Lookup,
    out: &mut Vec<Problem>,
) {
    let mut listed: HashMap<&str, Span> = HashMap::new();
    for group in &metric.groups {
        for n in &group.moves {
            let Some(m) = moves.get(n.text.as_str()) else {
                let help = look
                    .suggest(&n.text, move_names.iter().copied())
                    .unwrap_or_else(|| format!("declared moves: {}", move_names.join(", ")));
                out.push(Problem::UnknownName {
                    kind: "move",
                    name: n.text.clone(),
                    span: n.span.into(),
                    help: Some(help),
                });
                continue;
            };
            if let Some(&first) = listed.get(n.text.as_str()) {
                out.push(Problem::MetricRepeatsMove {
                    mv: n.text.clone(),
                    metric: metric.name.text.clone(),
                    span: n.span.into(),
                    first: first.into(),
                });
                continue;
            }
            listed.insert(&n.text, n.span);
            if group.combine == Combine::Chain {
                if !moves_a_piece(&m.body) {
                    out.push(Problem::ChainWithoutPiece {
                        combine: group.combine.keyword(),
                        mv: n.text.clone(),
                        span: n.span.into(),
                        declared: m.name.span.into(),
                    });
                }
                continue;
            }
            // `straight`: a direction, and a step along it (a move that only toggles
            // tiles has none, and may cycle).
            match &m.param {
                MoveParam::Cell(param) => out.push(Problem::StraightWithoutDirection {
                    mv: n.text.clone(),
                    span: n.span.into(),
                    param: param.span.into(),
                }),
                MoveParam::Dir { name, .. } => {
                    if !advances(&m.body, &name.text, dirs) {
                        out.push(Problem::CompoundMayCycle {
                            mv: n.text.clone(),
                            span: n.span.into(),
                            declared: m.name.span.into(),
                        });
                    }
                }
            }
        }
    }
}

/// Whether some statement of the move (nested ones included) moves a piece: a `shift`,
/// `swap`, `turn` or `slide`.
fn moves_a_piece(body: &[MoveStmt]) -> bool {
    body.iter().any(|st| match &st.kind {
        MoveStmtKind::Shift { .. }
        | MoveStmtKind::Swap { .. }
        | MoveStmtKind::Turn { .. }
        | MoveStmtKind::Slide { .. } => true,
        MoveStmtKind::If { then, els, .. } => moves_a_piece(then) || moves_a_piece(els),
        MoveStmtKind::For { body, .. } => moves_a_piece(body),
        _ => false,
    })
}

/// Whether the move provably advances a piece along its direction `param` every time it
/// applies: an unconditional (top-level) `shift`, `swap` or `slide` by a positive multiple
/// of the parameter, or a `turn` whose every rule moves the anchor forward along the
/// rule's direction. Then the piece's position along the direction grows with each
/// application, and repeating one action can never return to a state.
fn advances(body: &[MoveStmt], param: &str, dirs: &HashMap<&str, (i64, i64)>) -> bool {
    let forward = |s: &Step| s.dir.text == param && !s.negate && s.times > 0;
    body.iter().any(|st| match &st.kind {
        MoveStmtKind::Shift { step, .. }
        | MoveStmtKind::Swap { step, .. }
        | MoveStmtKind::Slide { step, .. } => forward(step),
        MoveStmtKind::Turn { rules, .. } => {
            !rules.is_empty()
                && rules.iter().all(|r| {
                    dirs.get(r.dir.text.as_str())
                        .is_some_and(|&(dr, dc)| r.offset.dr * dr + r.offset.dc * dc > 0)
                })
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse;

    const BASE: &str = "tiles { floor on off } piece man \
        legend { '.' floor 'M' floor + man 'o' on 'x' off } \
        dirs { n (-1, 0) s (1, 0) } \
        move walk(d) { shift man d } \
        move back(d) { shift man -d } \
        move press(cell c) { toggle on off at c } \
        move hop(cell c) { require man at c shift man n } \
        move spin(d) { turn man { cell n -> cell (0, 0) } } \
        goal man on floor ";

    fn codes(extra: &str) -> Vec<String> {
        let file = parse(&format!("{BASE}{extra}")).expect("parses");
        let (syms, p) = crate::check::symbols::declare(&file);
        assert!(p.is_empty(), "{p:?}");
        check(&file, &syms).iter().map(|p| p.code_str()).collect()
    }

    #[test]
    fn well_formed_metrics_pass() {
        assert!(codes("metric a { straight walk chain back, hop }").is_empty());
        assert!(codes("metric a { } metric b { chain walk }").is_empty());
    }

    #[test]
    fn each_bad_metric_has_its_code() {
        assert_eq!(
            codes("metric a { chain wlak }"),
            ["puz::check::unknown_name"]
        );
        assert_eq!(
            codes("metric a { chain walk straight walk }"),
            ["puz::check::metric_repeated_move"]
        );
        assert_eq!(
            codes("metric a { } metric a { }"),
            ["puz::check::duplicate_definition"]
        );
        assert_eq!(
            codes("metric a { chain press }"),
            ["puz::check::chain_without_piece"]
        );
        assert_eq!(
            codes("metric a { straight hop }"),
            ["puz::check::straight_without_direction"]
        );
        assert_eq!(
            codes("metric a { straight back }"),
            ["puz::check::compound_may_cycle"]
        );
        assert_eq!(
            codes("metric a { straight spin }"),
            ["puz::check::compound_may_cycle"]
        );
        assert_eq!(
            codes("metric a { straight press }"),
            ["puz::check::straight_without_direction"]
        );
    }

    #[test]
    fn expectations_name_known_metrics_once() {
        let level =
            |e: &str| format!("metric a {{ chain walk }} level \"L\" \"\"\"\n  M\n  \"\"\" {e}");
        assert!(codes(&level("expect 1 expect a 1")).is_empty());
        assert_eq!(codes(&level("expect b 1")), ["puz::check::unknown_name"]);
        assert_eq!(
            codes(&level("expect a 1 expect a 2")),
            ["puz::check::duplicate_expect"]
        );
        assert_eq!(
            codes(&level("expect 1 expect none")),
            ["puz::check::duplicate_expect"]
        );
    }
}
