//! Player inputs: what PuzzleScript's keys do, and how a list of them is written.
//!
//! A list of inputs is written in one of two forms (see [`Input::parse_list`]):
//!
//! * words: `up left down right action undo restart tick` (any case), each word or a
//!   single letter of the compact form, separated by blanks or commas;
//! * compact letters, as the oracle's `replay` reads its MOVES: `u l d r x` (x is
//!   action), `.` a tick, `z` undo, `R` restart; blanks and commas are ignored.
//!
//! The rule between them: a text is in word form when one of its items (the runs
//! between blanks and commas) is a whole input word of two letters or more; otherwise
//! every character that is not a blank or a comma is one compact letter. So `"up"` is one
//! input, `"ud"` two, `"u, d"` two, and `"up ud"` an error at `ud` (in word form, an item
//! is a word or one letter).

use std::fmt;

use super::ir;

/// One input to a PuzzleScript level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Input {
    /// The up arrow.
    Up,
    /// The left arrow.
    Left,
    /// The down arrow.
    Down,
    /// The right arrow.
    Right,
    /// The action key (X).
    Action,
    /// A turn with no input (what `realtime_interval` and the tests' `tick` do).
    Tick,
    /// Undo (Z).
    Undo,
    /// Restart (R).
    Restart,
}

/// A word or letter that is not an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// Byte offset of the bad item in the text.
    pub at: usize,
    /// The item.
    pub item: String,
}

/// Every input, in the order of PuzzleScript's key codes (0 up .. 4 action) and then the
/// three that are not directions.
const ALL: [Input; 8] = [
    Input::Up,
    Input::Left,
    Input::Down,
    Input::Right,
    Input::Action,
    Input::Tick,
    Input::Undo,
    Input::Restart,
];

/// Separators between items, in both forms.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ','
}

impl Input {
    /// Every input: the four directions, action, tick, undo, restart.
    pub const ALL: [Input; 8] = ALL;

    /// The word for the input, as the word form writes it: `up`, ..., `tick`.
    pub fn word(self) -> &'static str {
        match self {
            Input::Up => "up",
            Input::Left => "left",
            Input::Down => "down",
            Input::Right => "right",
            Input::Action => "action",
            Input::Tick => "tick",
            Input::Undo => "undo",
            Input::Restart => "restart",
        }
    }

    /// The letter of the compact form (the oracle's MOVES): `u l d r x`, `.` tick, `z`
    /// undo, `R` restart.
    pub fn letter(self) -> char {
        match self {
            Input::Up => 'u',
            Input::Left => 'l',
            Input::Down => 'd',
            Input::Right => 'r',
            Input::Action => 'x',
            Input::Tick => '.',
            Input::Undo => 'z',
            Input::Restart => 'R',
        }
    }

    /// The input a compact letter stands for (case matters: `r` is right, `R` restart).
    pub fn from_letter(c: char) -> Option<Input> {
        ALL.into_iter().find(|i| i.letter() == c)
    }

    /// The input a word names, in any case: `up`, `Left`, ..., `TICK`.
    pub fn from_word(word: &str) -> Option<Input> {
        ALL.into_iter()
            .find(|i| i.word().eq_ignore_ascii_case(word))
    }

    /// The input of PuzzleScript's key code, as its engine's `processInput` and its test
    /// data number them: 0 up, 1 left, 2 down, 3 right, 4 action.
    pub fn from_code(code: i64) -> Option<Input> {
        match code {
            0 => Some(Input::Up),
            1 => Some(Input::Left),
            2 => Some(Input::Down),
            3 => Some(Input::Right),
            4 => Some(Input::Action),
            _ => None,
        }
    }

    /// The key code of a direction or action (0 up .. 4 action); `None` for tick, undo
    /// and restart, which the test data writes as the strings `"tick"`, `"undo"` and
    /// `"restart"` (their [`Input::word`]).
    pub fn code(self) -> Option<i64> {
        match self {
            Input::Up => Some(0),
            Input::Left => Some(1),
            Input::Down => Some(2),
            Input::Right => Some(3),
            Input::Action => Some(4),
            Input::Tick | Input::Undo | Input::Restart => None,
        }
    }

    /// Reads a list of inputs in word form or in compact letters (the module's
    /// documentation gives the rule between them). An empty text is an empty list. The
    /// error names the first item that is not an input and its byte offset.
    pub fn parse_list(text: &str) -> Result<Vec<Input>, InputError> {
        let items = items(text);
        // No input's word is longer than `restart` (a long item is a run of letters).
        let words = items.iter().any(|(_, item)| {
            (2..=WORD_MAX).contains(&item.len()) && Input::from_word(item).is_some()
        });
        if words {
            items
                .into_iter()
                .map(|(at, item)| {
                    let mut chars = item.chars();
                    let one = match (chars.next(), chars.next()) {
                        (Some(c), None) => Input::from_letter(c),
                        _ => None,
                    };
                    one.or_else(|| Input::from_word(item))
                        .ok_or_else(|| InputError {
                            at,
                            item: item.to_string(),
                        })
                })
                .collect()
        } else {
            text.char_indices()
                .filter(|(_, c)| !is_separator(*c))
                .map(|(at, c)| {
                    Input::from_letter(c).ok_or_else(|| InputError {
                        at,
                        item: c.to_string(),
                    })
                })
                .collect()
        }
    }

    /// The compact form of a list (the oracle's MOVES): one letter per input.
    pub fn compact(inputs: &[Input]) -> String {
        inputs.iter().map(|i| i.letter()).collect()
    }
}

/// The longest word an input is written as, in bytes.
const WORD_MAX: usize = 7;

/// The items of a text: each run between separators, with its byte offset.
fn items(text: &str) -> Vec<(usize, &str)> {
    let mut out = vec![];
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (is_separator(c), start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

impl fmt::Display for Input {
    /// The word: `up`, `left`, ..., `restart`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` at byte {} is not an input (words: up left down right action undo \
             restart tick; letters: u l d r x, . tick, z undo, R restart)",
            self.item, self.at
        )
    }
}

impl std::error::Error for InputError {}

impl Input {
    /// The movement bit of a direction or action input.
    pub(crate) fn movement(self) -> u64 {
        match self {
            Input::Up => ir::UP,
            Input::Left => ir::LEFT,
            Input::Down => ir::DOWN,
            Input::Right => ir::RIGHT,
            _ => ir::ACTION,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Input::{self, *};
    use super::InputError;

    fn parse(text: &str) -> Vec<Input> {
        Input::parse_list(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    fn bad(text: &str) -> (usize, String) {
        let InputError { at, item } = Input::parse_list(text).expect_err(text);
        (at, item)
    }

    #[test]
    fn compact_letters_as_the_oracle_reads_them() {
        assert_eq!(
            parse("uldrx.zR"),
            [Up, Left, Down, Right, Action, Tick, Undo, Restart]
        );
        assert_eq!(parse("u l, d\tr\nx"), [Up, Left, Down, Right, Action]);
        assert_eq!(parse("ud"), [Up, Down]);
        assert_eq!(parse(""), []);
        assert_eq!(parse(" ,, "), []);
    }

    #[test]
    fn words_in_any_case_with_letters_among_them() {
        assert_eq!(
            parse("up left down right action undo restart tick"),
            [Up, Left, Down, Right, Action, Undo, Restart, Tick]
        );
        assert_eq!(parse("Up,LEFT , u x"), [Up, Left, Up, Action]);
        assert_eq!(parse("up"), [Up]);
        // One letter in word form keeps its compact meaning: `r` right, `R` restart.
        assert_eq!(parse("tick r R z ."), [Tick, Right, Restart, Undo, Tick]);
    }

    #[test]
    fn errors_name_the_item_and_its_offset() {
        assert_eq!(bad("uldq"), (3, "q".into()));
        assert_eq!(bad("u l, X"), (5, "X".into()));
        assert_eq!(bad("up lfet"), (3, "lfet".into()));
        assert_eq!(bad("up ud"), (3, "ud".into()));
        // Not a word anywhere, so letters: `p` is the first that is not one.
        assert_eq!(bad("upp"), (1, "p".into()));
        // Offsets are bytes, after multi-byte characters too.
        assert_eq!(bad("u é"), (2, "é".into()));
        let e = Input::parse_list("uq").unwrap_err();
        assert!(
            e.to_string().starts_with("`q` at byte 1 is not an input"),
            "{e}"
        );
    }

    #[test]
    fn words_letters_and_codes_round_trip() {
        for i in Input::ALL {
            assert_eq!(Input::from_word(i.word()), Some(i));
            assert!((2..=super::WORD_MAX).contains(&i.word().len()), "{i}");
            assert_eq!(Input::from_letter(i.letter()), Some(i));
            assert_eq!(i.to_string(), i.word());
            if let Some(c) = i.code() {
                assert_eq!(Input::from_code(c), Some(i));
            }
        }
        assert_eq!(Input::from_code(5), None);
        assert_eq!(Input::from_code(-1), None);
        let all = Input::ALL.to_vec();
        assert_eq!(parse(&Input::compact(&all)), all);
        let words: Vec<String> = all.iter().map(|i| i.to_string()).collect();
        assert_eq!(parse(&words.join(" ")), all);
    }
}
