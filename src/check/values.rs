//! Numbers that parse but mean nothing: a direction that does not move, a move limit
//! that allows no move, an expected answer no cost can have, a `max` below zero, a
//! counter that starts outside its range.

use crate::diagnostics::Problem;
use crate::syntax::ast::{File, ItemKind};

/// Zero direction steps, limits below 1, and `expect` clauses that cannot match a cost:
/// a number below 0, or a vector whose length is not the number of cost components.
pub fn check(file: &File) -> Vec<Problem> {
    let mut out = vec![];
    let components: Vec<&str> = file
        .items
        .iter()
        .find_map(|i| match &i.kind {
            ItemKind::Cost(names) => Some(names.iter().map(|n| n.text.as_str()).collect()),
            _ => None,
        })
        .unwrap_or_default();
    let has_cost = !components.is_empty();
    let components = if has_cost { components } else { vec!["moves"] };
    for item in &file.items {
        let ItemKind::Level(level) = &item.kind else {
            continue;
        };
        for clause in &level.expects {
            let Some(cost) = clause.cost.as_ref() else {
                continue;
            };
            for v in cost.iter().filter(|v| v.value < 0) {
                out.push(Problem::NegativeExpect {
                    value: v.value,
                    span: v.span.into(),
                });
            }
            if cost.len() != components.len() {
                let help = if has_cost {
                    format!(
                        "give {} numbers, one per component of `cost`, in its order: {}",
                        components.len(),
                        components.join(", ")
                    )
                } else {
                    "without `cost` an answer costs its number of moves: give one number"
                        .to_string()
                };
                out.push(Problem::ExpectArity {
                    given: cost.len(),
                    want: components.len(),
                    components: components.join(", "),
                    span: clause.span.into(),
                    help,
                });
            }
        }
    }
    for item in &file.items {
        match &item.kind {
            ItemKind::Dirs(dirs) => {
                for d in dirs.iter().filter(|d| d.step.dr == 0 && d.step.dc == 0) {
                    out.push(Problem::ZeroDirection {
                        name: d.name.text.clone(),
                        span: d.step.span.into(),
                    });
                }
            }
            ItemKind::Limit(v) if v.value <= 0 => out.push(Problem::BadLimit {
                value: v.value,
                span: v.span.into(),
            }),
            ItemKind::Counter(c) if c.max.value < 0 => out.push(Problem::NegativeMax {
                what: "counter",
                name: c.name.text.clone(),
                value: c.max.value,
                span: c.max.span.into(),
            }),
            ItemKind::Counter(c) => {
                if let Some(start) = c.start.filter(|s| !(0..=c.max.value).contains(&s.value)) {
                    out.push(Problem::CounterRange {
                        what: "start value",
                        name: c.name.text.clone(),
                        value: start.value,
                        max: c.max.value,
                        span: start.span.into(),
                    });
                }
            }
            ItemKind::Piece(p) => {
                if let Some(max) = p.max.filter(|m| m.value < 0) {
                    out.push(Problem::NegativeMax {
                        what: "piece",
                        name: p.name.text.clone(),
                        value: max.value,
                        span: max.span.into(),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse;

    #[test]
    fn zero_steps_and_limits_are_reported() {
        let file = parse("dirs { n (0, 0) s (1, 0) } limit 0").expect("parses");
        let codes: Vec<String> = check(&file).iter().map(|p| p.code_str()).collect();
        assert_eq!(
            codes,
            ["puz::check::zero_direction", "puz::check::bad_limit"]
        );
    }

    #[test]
    fn bounds_below_zero_and_start_values_out_of_range_are_reported() {
        let codes = |src: &str| -> Vec<String> {
            check(&parse(src).expect("parses"))
                .iter()
                .map(|p| p.code_str())
                .collect()
        };
        assert!(codes("counter k max 3 start 3 counter f max 0").is_empty());
        assert!(codes("piece coin anonymous max 0").is_empty());
        assert_eq!(codes("counter k max -3"), ["puz::check::negative_max"]);
        assert_eq!(
            codes("piece coin anonymous max -1"),
            ["puz::check::negative_max"]
        );
        assert_eq!(
            codes("counter k max 3 start 7"),
            ["puz::check::counter_range"]
        );
        assert_eq!(
            codes("counter k max 3 start -1"),
            ["puz::check::counter_range"]
        );
    }

    #[test]
    fn expectations_match_the_cost_components() {
        let level = |e: &str| format!("level \"a\" \"\"\"\n  .\n  \"\"\"\nexpect {e}\n");
        let codes = |src: &str| -> Vec<String> {
            check(&parse(src).expect("parses"))
                .iter()
                .map(|p| p.code_str())
                .collect()
        };
        assert!(codes(&level("3")).is_empty());
        assert!(codes(&level("none")).is_empty());
        assert_eq!(codes(&level("3, 4")), ["puz::check::expect_arity"]);
        assert!(codes(&format!("cost a, b {}", level("3, 4"))).is_empty());
        assert_eq!(
            codes(&format!("cost a, b {}", level("-3"))),
            ["puz::check::negative_expect", "puz::check::expect_arity"]
        );
    }
}
