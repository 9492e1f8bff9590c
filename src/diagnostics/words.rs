//! The wording shared by messages: counts with their unit in the singular or plural,
//! numbers with thousands separators, and "did you mean" suggestions.

/// `n` and `unit`, a plural noun, made singular when `n` is 1: `2 throws` but `1 throw`,
/// `1 push` (`pushes`), `1 press` (`presses`), `1 box` (`boxes`), `1 copy` (`copies`),
/// `1 goal state`. Cost components and metrics are named by the files, so this is a rule
/// on the spelling: a unit that does not end in `s` (or ends in `ss`) is left as it is.
pub fn quantity(n: u64, unit: &str) -> String {
    if n == 1 {
        format!("1 {}", singular(unit))
    } else {
        format!("{n} {unit}")
    }
}

/// The singular of a plural noun, by its ending (see [`quantity`]).
pub fn singular(unit: &str) -> String {
    for (plural, one) in [
        ("ches", "ch"),
        ("shes", "sh"),
        ("sses", "ss"),
        ("xes", "x"),
        ("zzes", "zz"),
        ("ies", "y"),
    ] {
        if let Some(stem) = unit.strip_suffix(plural) {
            if !stem.is_empty() {
                return format!("{stem}{one}");
            }
        }
    }
    match unit.strip_suffix('s') {
        Some(stem) if !stem.is_empty() && !stem.ends_with('s') => stem.to_string(),
        _ => unit.to_string(),
    }
}

/// `12345` as `12,345`: limits and counts in messages read at a glance.
pub(crate) fn thousands(n: &usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Suggestions compare a name with at most this many known names, so that a file with
/// thousands of unknown names among thousands of declared ones stays linear.
const SUGGESTION_CANDIDATES: usize = 1_000;

/// `Some("did you mean `x`?")` when a known name is close to `name` (swaps count as one
/// edit). Looks at the first [`SUGGESTION_CANDIDATES`] known names only.
pub(crate) fn did_you_mean<'a>(
    name: &str,
    known: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let mut best: Option<(usize, &str)> = None;
    for k in known.into_iter().take(SUGGESTION_CANDIDATES) {
        let limit = (name.len().max(k.len()) / 3).max(1);
        if name.len().abs_diff(k.len()) > limit {
            continue;
        }
        let d = strsim::damerau_levenshtein(name, k);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, k));
        }
    }
    best.map(|(_, k)| format!("did you mean `{k}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities_are_singular_for_one() {
        for (unit, one) in [
            ("throws", "throw"),
            ("moves", "move"),
            ("pushes", "push"),
            ("presses", "press"),
            ("boxes", "box"),
            ("copies", "copy"),
            ("goal states", "goal state"),
            ("moves", "move"),
            ("class", "class"),
            ("s", "s"),
            ("steps", "step"),
            ("fuel", "fuel"),
        ] {
            assert_eq!(quantity(1, unit), format!("1 {one}"), "{unit}");
            assert_eq!(quantity(2, unit), format!("2 {unit}"), "{unit}");
            assert_eq!(quantity(0, unit), format!("0 {unit}"), "{unit}");
        }
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(&7), "7");
        assert_eq!(thousands(&1_000), "1,000");
        assert_eq!(thousands(&12_345_678), "12,345,678");
    }
}
