//! PuzzleScript's reference (`../shared/puzzlescript` beside the crate): where it is, and
//! its test data read into cases with [`super::js_data`].

#![allow(dead_code)]

use std::path::PathBuf;

use super::js_data::{parse_var, Value};

/// The reference folder, `../shared/puzzlescript` from the crate root, when it is there.
pub fn reference_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/puzzlescript");
    dir.join("src/tests/resources/testdata.js")
        .is_file()
        .then_some(dir)
}

/// The reference folder, or `None` after printing why the caller skips; panics instead
/// when the environment variable `CI` is set (there the reference must be present).
pub fn reference_or_skip(test: &str) -> Option<PathBuf> {
    let dir = reference_dir();
    if dir.is_none() {
        let want = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/puzzlescript");
        assert!(
            std::env::var_os("CI").is_none(),
            "{test}: PuzzleScript's reference is missing at {} (CI is set, so this fails)",
            want.display()
        );
        eprintln!(
            "note: {test} skipped: PuzzleScript's reference is not at {}",
            want.display()
        );
    }
    dir
}

/// One input of a simulation case as the data writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaseInput {
    /// 0 up, 1 left, 2 down, 3 right, 4 action.
    Code(i64),
    /// `"undo"`, `"restart"`, `"tick"`.
    Word(String),
}

/// One case of `testdata.js`: `[name, [source, inputs, expected, target?, seed?, audio?]]`.
#[derive(Clone, Debug)]
pub struct SimCase {
    pub name: String,
    pub source: String,
    pub inputs: Vec<CaseInput>,
    /// `convertLevelToString()` after the inputs.
    pub expected: String,
    /// The level loaded first (an index into the level list, messages included; the
    /// data writes it as a number or, in 5 cases, a string of one).
    pub target: usize,
    /// The random seed, as text, when one is given (not `null`).
    pub seed: Option<String>,
    /// The sounds the case expects, when it checks them (puz does not model sound).
    pub audio: Option<Vec<String>>,
}

/// One case of `errormessage_testdata.js`: `[name, [source, [messages], error count]]`.
#[derive(Clone, Debug)]
pub struct ErrCase {
    pub name: String,
    pub source: String,
    pub messages: Vec<String>,
    pub error_count: i64,
}

fn read(rel: &str) -> String {
    let dir = reference_dir().expect("PuzzleScript's reference");
    let path = dir.join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `[name, [fields...]]` of one case, or what is wrong with it.
fn case_fields(i: usize, v: &Value) -> Result<(String, &[Value]), String> {
    let pair = v.as_array().ok_or(format!("case {i}: not an array"))?;
    match pair {
        [name, fields] => {
            let name = name
                .as_str()
                .ok_or(format!("case {i}: its name is {}", name.kind()))?;
            let fields = fields
                .as_array()
                .ok_or(format!("case {i} ({name}): its data is not an array"))?;
            Ok((name.to_string(), fields))
        }
        _ => Err(format!("case {i}: {} items, not [name, data]", pair.len())),
    }
}

fn string(name: &str, what: &str, v: Option<&Value>) -> Result<String, String> {
    match v {
        Some(Value::Str(s)) => Ok(s.clone()),
        Some(v) => Err(format!("{name}: its {what} is {}", v.kind())),
        None => Err(format!("{name}: no {what}")),
    }
}

/// Reads `var testdata = [...]` (the text of `testdata.js`) into cases.
pub fn sim_cases_from(text: &str) -> Result<Vec<SimCase>, String> {
    let all = parse_var(text, "testdata").map_err(|e| format!("testdata.js: {e}"))?;
    let all = all.as_array().ok_or("testdata is not an array")?;
    let mut out = vec![];
    for (i, v) in all.iter().enumerate() {
        let (name, f) = case_fields(i, v)?;
        let source = string(&name, "source", f.first())?;
        let inputs = f
            .get(1)
            .and_then(Value::as_array)
            .ok_or(format!("{name}: its inputs are not an array"))?
            .iter()
            .map(|x| match x {
                Value::Str(w) => Ok(CaseInput::Word(w.clone())),
                x => x
                    .as_i64()
                    .map(CaseInput::Code)
                    .ok_or(format!("{name}: an input is {}", x.kind())),
            })
            .collect::<Result<_, _>>()?;
        let expected = string(&name, "expected level", f.get(2))?;
        let target = match f.get(3) {
            None | Some(Value::Null) => 0,
            // A few cases write it as a string ("7"), which JavaScript indexes with alike.
            Some(Value::Str(t)) => t
                .parse()
                .map_err(|_| format!("{name}: its target level is {t:?}"))?,
            Some(v) => v
                .as_i64()
                .and_then(|t| usize::try_from(t).ok())
                .ok_or(format!("{name}: its target level is {}", v.kind()))?,
        };
        let seed = match f.get(4) {
            None | Some(Value::Null) => None,
            Some(Value::Str(s)) => Some(s.clone()),
            Some(Value::Number(_, text)) => Some(text.clone()),
            Some(v) => return Err(format!("{name}: its seed is {}", v.kind())),
        };
        let audio = match f.get(5) {
            None | Some(Value::Null) => None,
            Some(Value::Array(a)) => Some(
                a.iter()
                    .map(|s| match s {
                        Value::Str(s) => s.clone(),
                        Value::Number(_, t) => t.clone(),
                        v => v.kind().to_string(),
                    })
                    .collect(),
            ),
            Some(v) => return Err(format!("{name}: its audio is {}", v.kind())),
        };
        out.push(SimCase {
            name,
            source,
            inputs,
            expected,
            target,
            seed,
            audio,
        });
    }
    Ok(out)
}

/// Reads `var errormessage_testdata = [...]` into cases.
pub fn err_cases_from(text: &str) -> Result<Vec<ErrCase>, String> {
    let all = parse_var(text, "errormessage_testdata")
        .map_err(|e| format!("errormessage_testdata.js: {e}"))?;
    let all = all
        .as_array()
        .ok_or("errormessage_testdata is not an array")?;
    let mut out = vec![];
    for (i, v) in all.iter().enumerate() {
        let (name, f) = case_fields(i, v)?;
        let source = string(&name, "source", f.first())?;
        let messages = f
            .get(1)
            .and_then(Value::as_array)
            .ok_or(format!("{name}: its messages are not an array"))?
            .iter()
            .map(|m| string(&name, "message", Some(m)))
            .collect::<Result<_, _>>()?;
        let error_count = f
            .get(2)
            .and_then(Value::as_i64)
            .ok_or(format!("{name}: no error count"))?;
        out.push(ErrCase {
            name,
            source,
            messages,
            error_count,
        });
    }
    Ok(out)
}

/// The simulation cases of the reference's `testdata.js`.
pub fn sim_cases() -> Vec<SimCase> {
    sim_cases_from(&read("src/tests/resources/testdata.js")).unwrap_or_else(|e| panic!("{e}"))
}

/// The error-message cases of the reference's `errormessage_testdata.js`.
pub fn err_cases() -> Vec<ErrCase> {
    err_cases_from(&read("src/tests/resources/errormessage_testdata.js"))
        .unwrap_or_else(|e| panic!("{e}"))
}
