//! Numbers that parse but mean nothing: a direction that does not move, a move limit
//! that allows no move.

use crate::diagnostics::Problem;
use crate::syntax::ast::{File, ItemKind};

/// Zero direction steps and limits below 1.
pub fn check(file: &File) -> Vec<Problem> {
    let mut out = vec![];
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
}
