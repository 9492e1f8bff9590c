//! Output templates: a format's `print solved`, `print unsolved` and `print invalid`
//! texts, with their placeholders filled in.

/// The values an answer's template may name.
pub struct Fill<'a> {
    /// `{case}`: the case number, from 1.
    pub(crate) case: usize,
    /// `{query}`: the query number within its case, from 1 (empty without queries).
    pub(crate) query: Option<usize>,
    /// `{cost}`: the cost, its components separated by spaces.
    pub(crate) cost: &'a str,
    /// `{path}`: the move letters.
    pub(crate) path: &'a str,
    /// `{moves}`: the number of moves.
    pub(crate) moves: usize,
}

/// `template` with `{case}`, `{query}`, `{cost}`, `{path}` and `{moves}` replaced, in one
/// pass (a value is never read as a placeholder), and a line break added.
pub fn fill(template: &str, v: &Fill) -> String {
    let mut out = String::with_capacity(template.len() + v.path.len() + 8);
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let name = rest[1..].find('}').map(|j| &rest[1..1 + j]);
        let value = match name {
            Some("case") => Some(v.case.to_string()),
            Some("query") => Some(v.query.map_or(String::new(), |q| q.to_string())),
            Some("cost") => Some(v.cost.to_string()),
            Some("path") => Some(v.path.to_string()),
            Some("moves") => Some(v.moves.to_string()),
            _ => None,
        };
        match (value, name) {
            (Some(text), Some(name)) => {
                out.push_str(&text);
                rest = &rest[name.len() + 2..];
            }
            _ => {
                out.push('{');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_every_placeholder_once() {
        let v = Fill {
            case: 2,
            query: None,
            cost: "7",
            path: "{cost}",
            moves: 3,
        };
        assert_eq!(
            fill("Maze #{case}: {cost} in {moves} {path} {query}{x}", &v),
            "Maze #2: 7 in 3 {cost} {x}\n"
        );
    }
}
