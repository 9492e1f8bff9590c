//! A small, strict reader of the JavaScript literals PuzzleScript keeps its test data in
//! (`testdata.js`, `errormessage_testdata.js`): `var name = [...];` statements whose
//! values are arrays, strings (double-, single-quoted and backtick, with every escape
//! JavaScript defines), numbers, `null`, `true`, `false`, with trailing commas and
//! comments. Anything else (objects, identifiers, `${` in a template) is an error that
//! names its line and column: the data is read exactly or not at all.

#![allow(dead_code)]

use std::fmt;

/// A JavaScript literal value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// A number as JavaScript holds it, with the text it was written as (a seed written
    /// `1782027146669.707` stays that text).
    Number(f64, String),
    Str(String),
    Array(Vec<Value>),
}

impl Value {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n, _) => Some(*n),
            _ => None,
        }
    }

    /// The number when it is a whole one.
    pub fn as_i64(&self) -> Option<i64> {
        let n = self.as_f64()?;
        (n.fract() == 0.0 && n.abs() < 9.0e15).then_some(n as i64)
    }

    /// What the value is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(..) => "a number",
            Value::Str(_) => "a string",
            Value::Array(_) => "an array",
        }
    }
}

/// Where the text stops being what this reader reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    pub message: String,
}

impl fmt::Display for JsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for JsError {}

/// Reads a whole file of `var|let|const NAME = VALUE;` statements, in order.
pub fn parse_statements(text: &str) -> Result<Vec<(String, Value)>, JsError> {
    let mut r = Reader::new(text);
    let mut out = vec![];
    loop {
        r.skip_blank()?;
        if r.peek().is_none() {
            return Ok(out);
        }
        let keyword = r.ident();
        if !matches!(keyword.as_str(), "var" | "let" | "const") {
            return Err(r.error_back(
                keyword.chars().count(),
                format!(
                    "expected `var`, `let` or `const`, found {}",
                    shown(&keyword)
                ),
            ));
        }
        r.skip_blank()?;
        let name = r.ident();
        if name.is_empty() {
            return Err(r.error("expected a variable name".into()));
        }
        r.skip_blank()?;
        r.expect('=')?;
        let value = r.value()?;
        r.skip_blank()?;
        if r.peek() == Some(';') {
            r.bump();
        }
        out.push((name, value));
    }
}

/// The value of the variable `name` declared in a file of statements.
pub fn parse_var(text: &str, name: &str) -> Result<Value, JsError> {
    parse_statements(text)?
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v)
        .ok_or_else(|| JsError {
            line: 1,
            column: 1,
            message: format!("no variable `{name}` is declared"),
        })
}

/// Reads one literal, alone in the text (blanks and comments around it).
pub fn parse_value(text: &str) -> Result<Value, JsError> {
    let mut r = Reader::new(text);
    let v = r.value()?;
    r.skip_blank()?;
    match r.peek() {
        None => Ok(v),
        Some(c) => Err(r.error(format!("expected the end of the text, found {c:?}"))),
    }
}

fn shown(word: &str) -> String {
    if word.is_empty() {
        "nothing that reads as a word".into()
    } else {
        format!("`{word}`")
    }
}

struct Reader<'a> {
    chars: Vec<char>,
    at: usize,
    _text: &'a str,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Reader<'a> {
        Reader {
            chars: text.chars().collect(),
            at: 0,
            _text: text,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.at + n).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    /// Line and column of character `index`.
    fn position(&self, index: usize) -> (usize, usize) {
        let (mut line, mut column) = (1, 1);
        for (i, &c) in self.chars[..index.min(self.chars.len())].iter().enumerate() {
            // \r\n is one line break; a lone \r is one too (as JavaScript counts them).
            let crlf = c == '\r' && self.chars.get(i + 1) == Some(&'\n');
            if (c == '\n' || c == '\r' || c == '\u{2028}' || c == '\u{2029}') && !crlf {
                line += 1;
                column = 1;
            } else if !crlf {
                column += 1;
            }
        }
        (line, column)
    }

    fn error_at(&self, index: usize, message: String) -> JsError {
        let (line, column) = self.position(index);
        JsError {
            line,
            column,
            message,
        }
    }

    fn error(&self, message: String) -> JsError {
        self.error_at(self.at, message)
    }

    fn error_back(&self, back: usize, message: String) -> JsError {
        self.error_at(self.at.saturating_sub(back), message)
    }

    fn expect(&mut self, want: char) -> Result<(), JsError> {
        match self.peek() {
            Some(c) if c == want => {
                self.bump();
                Ok(())
            }
            Some(c) => Err(self.error(format!("expected `{want}`, found {c:?}"))),
            None => Err(self.error(format!("expected `{want}`, found the end of the text"))),
        }
    }

    /// Skips blanks, line breaks and comments.
    fn skip_blank(&mut self) -> Result<(), JsError> {
        loop {
            match (self.peek(), self.peek_at(1)) {
                (Some(c), _) if c.is_whitespace() || c == '\u{feff}' => {
                    self.bump();
                }
                (Some('/'), Some('/')) => {
                    while !matches!(self.peek(), None | Some('\n' | '\r')) {
                        self.bump();
                    }
                }
                (Some('/'), Some('*')) => {
                    let start = self.at;
                    self.at += 2;
                    loop {
                        match (self.peek(), self.peek_at(1)) {
                            (Some('*'), Some('/')) => {
                                self.at += 2;
                                break;
                            }
                            (Some(_), _) => {
                                self.bump();
                            }
                            (None, _) => {
                                return Err(
                                    self.error_at(start, "this comment is never closed".into())
                                )
                            }
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn ident(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c.is_alphanumeric() || c == '_' || c == '$' {
                s.push(c);
                self.bump();
            } else {
                break;
            }
        }
        s
    }

    fn value(&mut self) -> Result<Value, JsError> {
        self.skip_blank()?;
        let start = self.at;
        match self.peek() {
            None => Err(self.error("expected a value, found the end of the text".into())),
            Some('[') => self.array(),
            Some(q @ ('"' | '\'')) => self.string(q).map(Value::Str),
            Some('`') => self.template().map(Value::Str),
            Some(c) if c.is_ascii_digit() || c == '-' || c == '+' || c == '.' => self.number(),
            Some(c) if c.is_alphabetic() || c == '_' || c == '$' => {
                let word = self.ident();
                match word.as_str() {
                    "null" => Ok(Value::Null),
                    "true" => Ok(Value::Bool(true)),
                    "false" => Ok(Value::Bool(false)),
                    _ => Err(self.error_at(
                        start,
                        format!("expected a value, found the identifier `{word}`"),
                    )),
                }
            }
            Some(c) => Err(self.error(format!("expected a value, found {c:?}"))),
        }
    }

    fn array(&mut self) -> Result<Value, JsError> {
        let open = self.at;
        self.expect('[')?;
        let mut items = vec![];
        loop {
            self.skip_blank()?;
            match self.peek() {
                Some(']') => {
                    self.bump();
                    return Ok(Value::Array(items));
                }
                // `[1,,2]` has a hole: not data.
                Some(',') => return Err(self.error("a hole in an array (`,,`)".into())),
                None => {
                    return Err(self.error_at(open, "this array is never closed".into()));
                }
                _ => {}
            }
            items.push(self.value()?);
            self.skip_blank()?;
            match self.peek() {
                Some(',') => {
                    self.bump();
                }
                Some(']') => {}
                None => {
                    return Err(self.error_at(open, "this array is never closed".into()));
                }
                Some(c) => {
                    return Err(self.error(format!("expected `,` or `]`, found {c:?}")));
                }
            }
        }
    }

    fn number(&mut self) -> Result<Value, JsError> {
        let start = self.at;
        let mut text = String::new();
        if let Some(c @ ('-' | '+')) = self.peek() {
            text.push(c);
            self.bump();
        }
        let digits = |r: &mut Reader, text: &mut String| {
            let mut n = 0;
            while let Some(c) = r.peek().filter(char::is_ascii_digit) {
                text.push(c);
                r.bump();
                n += 1;
            }
            n
        };
        let mut n = digits(self, &mut text);
        if self.peek() == Some('.') {
            text.push('.');
            self.bump();
            n += digits(self, &mut text);
        }
        if n == 0 {
            return Err(self.error_at(start, "expected a number".into()));
        }
        if let Some(e @ ('e' | 'E')) = self.peek() {
            text.push(e);
            self.bump();
            if let Some(c @ ('-' | '+')) = self.peek() {
                text.push(c);
                self.bump();
            }
            if digits(self, &mut text) == 0 {
                return Err(self.error("expected the exponent's digits".into()));
            }
        }
        if let Some(c) = self.peek().filter(|c| c.is_alphanumeric() || *c == '_') {
            return Err(self.error(format!(
                "{c:?} after a number (only decimal numbers are read)"
            )));
        }
        let v: f64 = text
            .trim_start_matches('+')
            .parse()
            .map_err(|_| self.error_at(start, format!("`{text}` is not a number")))?;
        Ok(Value::Number(v, text))
    }

    /// A `"` or `'` string.
    fn string(&mut self, quote: char) -> Result<String, JsError> {
        let open = self.at;
        self.bump();
        let mut s = String::new();
        loop {
            match self.peek() {
                None => return Err(self.error_at(open, "this string is never closed".into())),
                Some(c) if c == quote => {
                    self.bump();
                    return Ok(s);
                }
                Some('\n' | '\r') => {
                    return Err(self.error(
                        "a line break in a quoted string (write \\n, or use a template)".into(),
                    ))
                }
                Some('\\') => self.escape(&mut s)?,
                Some(c) => {
                    s.push(c);
                    self.bump();
                }
            }
        }
    }

    /// A backtick template without substitutions: line breaks are kept (\r\n read as
    /// \n, as JavaScript does), escapes as in strings.
    fn template(&mut self) -> Result<String, JsError> {
        let open = self.at;
        self.bump();
        let mut s = String::new();
        loop {
            match self.peek() {
                None => return Err(self.error_at(open, "this template is never closed".into())),
                Some('`') => {
                    self.bump();
                    return Ok(s);
                }
                Some('$') if self.peek_at(1) == Some('{') => {
                    return Err(self.error("a substitution `${` in a template".into()))
                }
                Some('\r') => {
                    self.bump();
                    if self.peek() == Some('\n') {
                        self.bump();
                    }
                    s.push('\n');
                }
                Some('\\') => self.escape(&mut s)?,
                Some(c) => {
                    s.push(c);
                    self.bump();
                }
            }
        }
    }

    fn hex(&mut self, n: usize) -> Result<u32, JsError> {
        let mut v = 0;
        for _ in 0..n {
            match self.peek().and_then(|c| c.to_digit(16)) {
                Some(d) => {
                    v = v * 16 + d;
                    self.bump();
                }
                None => return Err(self.error(format!("expected {n} hex digits"))),
            }
        }
        Ok(v)
    }

    /// `\u` followed by 4 hex digits or `{...}`: a code unit or code point.
    fn unicode_unit(&mut self) -> Result<u32, JsError> {
        if self.peek() == Some('{') {
            self.bump();
            let mut v: u32 = 0;
            let mut n = 0;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(16)) {
                v = v.saturating_mul(16).saturating_add(d);
                self.bump();
                n += 1;
            }
            if n == 0 || v > 0x10ffff {
                return Err(self.error("a bad \\u{...} code point".into()));
            }
            self.expect('}')?;
            Ok(v)
        } else {
            self.hex(4)
        }
    }

    /// One escape, the backslash at the cursor.
    fn escape(&mut self, s: &mut String) -> Result<(), JsError> {
        let at = self.at;
        self.bump();
        let Some(c) = self.bump() else {
            return Err(self.error_at(at, "a backslash at the end of the text".into()));
        };
        match c {
            'n' => s.push('\n'),
            't' => s.push('\t'),
            'r' => s.push('\r'),
            'b' => s.push('\u{8}'),
            'f' => s.push('\u{c}'),
            'v' => s.push('\u{b}'),
            '0' if !self.peek().is_some_and(|c| c.is_ascii_digit()) => s.push('\0'),
            '0'..='9' => {
                return Err(self.error_at(at, "an octal escape (not read)".into()));
            }
            'x' => {
                let v = self.hex(2)?;
                s.push(char::from_u32(v).expect("two hex digits are a char"));
            }
            'u' => {
                let unit = self.unicode_unit()?;
                let code = if (0xd800..0xdc00).contains(&unit) {
                    // A high surrogate: a low one must follow as \uDC00..\uDFFF.
                    if self.peek() == Some('\\') && self.peek_at(1) == Some('u') {
                        self.at += 2;
                        let low = self.unicode_unit()?;
                        if !(0xdc00..0xe000).contains(&low) {
                            return Err(self.error_at(at, "a lone surrogate escape".into()));
                        }
                        0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)
                    } else {
                        return Err(self.error_at(at, "a lone surrogate escape".into()));
                    }
                } else {
                    unit
                };
                match char::from_u32(code) {
                    Some(ch) => s.push(ch),
                    None => return Err(self.error_at(at, "a lone surrogate escape".into())),
                }
            }
            // A line continuation: the backslash and the line break are dropped.
            '\n' | '\u{2028}' | '\u{2029}' => {}
            '\r' => {
                if self.peek() == Some('\n') {
                    self.bump();
                }
            }
            // Any other character stands for itself (`\"`, `\\`, `\#`, `\g`...).
            c => s.push(c),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Value {
        Value::Str(text.into())
    }

    fn n(v: f64, text: &str) -> Value {
        Value::Number(v, text.into())
    }

    fn err(text: &str) -> (usize, usize, String) {
        let e = parse_value(text).expect_err(text);
        (e.line, e.column, e.message)
    }

    #[test]
    fn literals() {
        assert_eq!(
            parse_value("[1, -2.5, 3e2, null, true, false, 'a', \"b\", `c`,]").unwrap(),
            Value::Array(vec![
                n(1.0, "1"),
                n(-2.5, "-2.5"),
                n(300.0, "3e2"),
                Value::Null,
                Value::Bool(true),
                Value::Bool(false),
                s("a"),
                s("b"),
                s("c"),
            ])
        );
        assert_eq!(parse_value("[]").unwrap(), Value::Array(vec![]));
        assert_eq!(
            parse_value("[[],[[]],]").unwrap().as_array().unwrap().len(),
            2
        );
        assert_eq!(
            parse_value("\"1782027146669.707\"").unwrap().as_str(),
            Some("1782027146669.707")
        );
        assert_eq!(parse_value("4").unwrap().as_i64(), Some(4));
        assert_eq!(parse_value("4.5").unwrap().as_i64(), None);
    }

    #[test]
    fn escapes() {
        assert_eq!(
            parse_value(r#""a\nb\tc\"d\\e\'f\rg\bh\fi\vj\0k\x41\u0042\u{43}\#\g""#).unwrap(),
            s("a\nb\tc\"d\\e'f\rg\u{8}h\u{c}i\u{b}j\0kABC#g")
        );
        // A surrogate pair is one character.
        assert_eq!(parse_value(r#""\uD83D\uDE00""#).unwrap(), s("😀"));
        assert_eq!(parse_value(r#""\u000b""#).unwrap(), s("\u{b}"));
        // A line continuation.
        assert_eq!(parse_value("\"a\\\nb\"").unwrap(), s("ab"));
        // Characters written as themselves.
        assert_eq!(parse_value("\"↥▒\"").unwrap(), s("↥▒"));
    }

    #[test]
    fn templates_keep_line_breaks() {
        assert_eq!(parse_value("`a\nb\r\nc\\`d\\n`").unwrap(), s("a\nb\nc`d\n"));
        assert_eq!(parse_value("`it's \"x\"`").unwrap(), s("it's \"x\""));
        // A `$` alone is text.
        assert_eq!(parse_value("`$5 {x}`").unwrap(), s("$5 {x}"));
    }

    #[test]
    fn comments_and_statements() {
        let text = "// data\nvar a = [1, /* two */ 2,];\n/* b:\n */ let b = 'x'\nconst c = null;";
        let st = parse_statements(text).unwrap();
        let names: Vec<&str> = st.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(st[0].1, Value::Array(vec![n(1.0, "1"), n(2.0, "2")]));
        assert_eq!(parse_var(text, "b").unwrap(), s("x"));
        assert!(parse_var(text, "d").is_err());
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(
            err("[1,\n  x]"),
            (2, 3, "expected a value, found the identifier `x`".into())
        );
        assert_eq!(err("[1,,2]").0, 1);
        assert_eq!(err("[1,,2]").1, 4);
        assert_eq!(
            err("[1 2]"),
            (1, 4, "expected `,` or `]`, found '2'".into())
        );
        assert_eq!(
            err("\n\n  [1,"),
            (3, 3, "this array is never closed".into())
        );
        assert_eq!(err("'abc"), (1, 1, "this string is never closed".into()));
        assert_eq!(err("\"a\nb\"").1, 3);
        assert_eq!(
            err("`a${b}`"),
            (1, 3, "a substitution `${` in a template".into())
        );
        assert_eq!(err("{}").2, "expected a value, found '{'");
        assert_eq!(
            err("0x10").2,
            "'x' after a number (only decimal numbers are read)"
        );
        assert_eq!(err("'\\07'").2, "an octal escape (not read)");
        assert_eq!(err("'\\uD800'").2, "a lone surrogate escape");
        assert_eq!(err("[1] 2").2, "expected the end of the text, found '2'");
        assert_eq!(err("/* open").2, "this comment is never closed");
        // Columns count characters, not bytes.
        assert_eq!(err("['é', x]").1, 7);
        let e = parse_statements("var a = 1;\nfoo").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1), "{e}");
        assert_eq!(
            e.to_string(),
            "line 2, column 1: expected `var`, `let` or `const`, found `foo`"
        );
    }
}
