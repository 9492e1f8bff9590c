//! Proving moves invertible, which bidirectional search needs.

use crate::compile::Model;

/// Proves every move invertible: a move undone by the same move in the opposite
/// direction, at the same cost. Accepted programs are one `shift` or `swap` along the
/// move's direction, or one `turn` whose table undoes itself, with no tests, on a board
/// whose tiles never change, with every direction's opposite declared.
pub(super) fn invertible(model: &Model) -> Result<(), String> {
    if !model.basic() {
        return Err(
            "the rules use mechanics beyond plain moves (counters, removals, conditions, per-cell or per-copy moves)"
                .into(),
        );
    }
    if !model.static_tiles() {
        return Err("tiles change during play, so moves cannot be undone".into());
    }
    if !model.unit_costs() {
        return Err("moves do not all cost one unit".into());
    }
    let nd = model.dirs.len();
    let opposite: Vec<Option<usize>> = model
        .dirs
        .iter()
        .map(|d| {
            model
                .dirs
                .iter()
                .position(|e| e.dr == -d.dr && e.dc == -d.dc)
        })
        .collect();
    if let Some(i) = opposite.iter().position(Option::is_none) {
        return Err(format!(
            "direction `{}` has no opposite direction",
            model.dirs[i].name
        ));
    }
    for m in &model.moves {
        let fail = |why: &str| {
            Err(format!(
                "move `{}` cannot be proven invertible: {why}",
                m.name
            ))
        };
        match m.ops.as_slice() {
            [crate::compile::Op::Shift { step, .. }] | [crate::compile::Op::Swap { step, .. }]
                if step.fixed.is_none() => {}
            [crate::compile::Op::Turn { table, .. }] => {
                for (i, e) in table.iter().enumerate() {
                    let (p, d) = (i / nd, i % nd);
                    if let Some((to, dr, dc)) = e {
                        let back = table[to.index() * nd + opposite[d].unwrap_or(d)];
                        if back != Some((crate::compile::PoseId(p as u16), -dr, -dc)) {
                            return fail("its turn table does not undo itself");
                        }
                    }
                }
            }
            [] => return fail("it has no effect"),
            [_] => return fail("it slides, tests, or moves along a fixed direction"),
            _ => return fail("it has several statements"),
        }
    }
    Ok(())
}
