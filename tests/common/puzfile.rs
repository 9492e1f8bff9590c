//! The levels of a `.puz` file read with a few lines of plain text handling, not with
//! the crate: each `level "name" """` block (its rows up to the closing `"""`, which
//! must stand alone on its line: no goal pictures) and the `expect` line after it. The
//! corpus suites check these expectations against their brute forces without trusting
//! puz's parser.

/// One level of a `.puz` file: its name, its rows (indentation removed, one per line) and
/// its `expect` answer (`Some(None)` for `expect none`, `None` without an `expect`).
pub struct ShippedLevel {
    /// The level's name.
    pub name: String,
    /// The rows, each ending with a line break.
    pub text: String,
    /// The single-cost `expect` line, if any.
    pub expect: Option<Option<u64>>,
}

/// The levels of the `.puz` file at `path` (relative to the crate root), in file order.
pub fn shipped_levels(path: &str) -> Vec<ShippedLevel> {
    let src = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("read {path}: {e}"));
    let mut out: Vec<ShippedLevel> = vec![];
    let mut lines = src.lines();
    while let Some(line) = lines.next() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("level \"") {
            let name = rest[..rest.find('"').expect("level name")].to_string();
            let mut text = String::new();
            for row in lines.by_ref() {
                let row = row.trim();
                if row == "\"\"\"" {
                    break;
                }
                text.push_str(row);
                text.push('\n');
            }
            out.push(ShippedLevel {
                name,
                text,
                expect: None,
            });
        } else if let Some(rest) = t.strip_prefix("expect ") {
            let v = rest.split("//").next().unwrap().trim();
            let last = out.last_mut().expect("expect after a level");
            last.expect = Some(if v == "none" {
                None
            } else {
                Some(v.parse().unwrap_or_else(|_| panic!("expect {v}")))
            });
        }
    }
    out
}
