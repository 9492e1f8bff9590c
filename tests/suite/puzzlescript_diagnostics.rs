//! PuzzleScript's compile diagnostics: each code, on a small game with one mistake,
//! with the text its label points at (the name, the term, the line: not the file).

use std::sync::Arc;

use miette::Diagnostic as _;
use puz::puzzlescript::Game;

/// A clean game every case below changes in one place.
const BASE: &str = "title t

========
OBJECTS
========

Background
black

Wall
brown

Player
blue

Crate
orange

Target
red

Gem
yellow

=======
LEGEND
=======

. = Background
# = Wall
P = Player
* = Crate
O = Target
Obstacle = Wall or Crate
Both = Crate and Target
% = Wall or Crate

=======
SOUNDS
=======

sfx0 123

================
COLLISIONLAYERS
================

Background
Target
Player, Wall, Crate, Gem

======
RULES
======

[ > Player | Crate ] -> [ > Player | > Crate ]

==============
WINCONDITIONS
==============

All Target on Crate

=======
LEVELS
=======

#####
#P*O#
#####
";

/// Every problem of a source: code, the text its label covers, whether an error.
fn problems(src: &str) -> Vec<(String, String, bool)> {
    let (errors, warnings) = match Game::load("t.txt", Arc::new(src.to_string())) {
        Ok((_, w)) => (vec![], w.problems),
        Err(d) => (
            d.problems,
            Game::load_despite_errors("t.txt", Arc::new(src.to_string()))
                .map(|(_, w)| w.problems)
                .unwrap_or_default(),
        ),
    };
    let err_codes: Vec<String> = errors
        .iter()
        .filter_map(|p| p.code().map(|c| c.to_string()))
        .collect();
    let mut out = vec![];
    for p in errors.iter().chain(&warnings) {
        let code = p.code().map(|c| c.to_string()).unwrap_or_default();
        let text = p
            .labels()
            .and_then(|mut l| l.next())
            .map(|l| src[l.offset()..l.offset() + l.len()].to_string())
            .unwrap_or_default();
        let is_error =
            err_codes.contains(&code) && !matches!(p.severity(), Some(miette::Severity::Warning));
        out.push((code, text, is_error));
    }
    out
}

/// The base game with `from` replaced by `to` (once; it must be there).
fn with(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "{from:?} not in the base game");
    BASE.replacen(from, to, 1)
}

#[test]
fn the_base_game_is_clean() {
    assert_eq!(problems(BASE), vec![]);
}

#[test]
fn each_compile_code_labels_what_is_wrong() {
    // (code, replace, with, the label's text, an error (else a warning))
    let cases: &[(&str, &str, &str, &str, bool)] = &[
        ("object_duplicate", "Target\nred\n", "Target\nred\n\ncrate\ngreen\n", "crate", true),
        ("duplicate_name", "O = Target\n", "O = Target\nwall = Crate\n", "wall", true),
        ("legend_self", "Wall or Crate", "Wall or Obstacle", "Obstacle", true),
        ("legend_or_aggregate", "% = Wall or Crate\n", "% = Wall or Crate\nThing = Both or Wall\n", "Both", true),
        ("legend_and_property", "% = Wall or Crate\n", "% = Wall or Crate\nThing = Obstacle and Target\n", "Obstacle", true),
        ("aggregate_overlap", "O = Target\n", "O = Target\nThing = Wall and Crate\n", "Crate", true),
        ("object_no_layer", "Background\nTarget\n", "Background\n", "Target", true),
        ("layer_aggregate", "Background\nTarget\n", "Background\nTarget, Both\n", "Both", true),
        ("multiple_layers", "Background\nTarget\n", "Background\nTarget, Crate\n", "Crate", false),
        ("background_layer", "Background\nTarget\n", "Background, Target\n", "Target", true),
        ("property_in_map", "#P*O#", "#P*O%", "%", true),
        ("no_levels", "#####\n#P*O#\n#####\n", "", "LEVELS", true),
        ("too_many_colors", "Wall\nbrown\n", "Wall\nred red red red red red red red red red red\n", "red red red red red red red red red red red", true),
        ("meta_color", "title t\n", "title t\ntext_color 12r3\n", "12r3", true),
        ("palette_unknown", "title t\n", "title t\ncolor_palette 41\n", "41", true),
        ("sound_token", "sfx0 123", "boop 123", "boop", true),
        ("sound_seed", "sfx0 123", "sfx0 abc", "abc", true),
        ("sound_verb", "sfx0 123", "crate jump 123", "jump", true),
        ("sound_extra", "sfx0 123", "sfx0 123 move", "move", true),
        ("sound_direction", "sfx0 123", "crate move cat 123", "cat", true),
        ("sound_aggregate", "sfx0 123", "both create 123", "both", true),
        ("sound_data", "sfx0 123", "crate create", "create", true),
        ("sound_short", "sfx0 123", "sfx0", "sfx0", false),
        ("sound_repeated", "sfx0 123", "sfx0 123\nsfx0 456", "sfx0", false),
        ("loop_mid_group", "[ > Player | Crate ] -> [ > Player | > Crate ]", "[ > Player | Crate ] -> [ > Player | > Crate ]\nstartloop\n+ [ Crate ] -> [ Crate ]\nendloop", "startloop", true),
        ("loop_unbalanced", "[ > Player | Crate ] -> [ > Player | > Crate ]", "endloop\n[ > Player | Crate ] -> [ > Player | > Crate ]", "endloop", true),
        ("rule_no_present", "[ > Player | Crate ] -> [ > Player | > Crate ]", "[ Crate ] -> [ Crate no Obstacle ]", "no Obstacle", true),
        ("late_movement", "[ > Player | Crate ] -> [ > Player | > Crate ]", "late [ Player ] -> [ > Player ]", "> Player", true),
        ("cell_repeated", "[ > Player | Crate ] -> [ > Player | > Crate ]", "[ Crate Crate ] -> [ Crate ]", "Crate", true),
        ("rule_cell_count", "[ > Player | Crate ] -> [ > Player | > Crate ]", "[ Player | Crate ] -> [ Player ]", "[ Player ]", true),
        ("rule_ambiguous_movement", "[ > Player | Crate ] -> [ > Player | > Crate ]", "[ Player ] -> [ moving Player ]", "[ Player ] -> [ moving Player ]", true),
        ("random_single", "[ > Player | Crate ] -> [ > Player | > Crate ]", "[ Player ] -> [ random Crate ]", "[ Player ] -> [ random Crate ]", false),
        ("rule_impossible", "[ > Player | Crate ] -> [ > Player | > Crate ]", "[ Crate no Crate ] -> [ Crate ]", "[ Crate no Crate ] -> [ Crate ]", false),
        ("rule_unreachable", "[ > Player | Crate ] -> [ > Player | > Crate ]", "[ Player | Gem ] -> [ Player | Crate ]", "Gem", false),
        ("win_unreachable", "All Target on Crate", "Some Gem on Target", "Gem", false),
        ("never_won", "All Target on Crate", "", "WINCONDITIONS", false),
        ("rule_brackets_stray", "[ > Player | Crate ] -> [ > Player | > Crate ]", "[ Player ] ] -> [ Player ]", "]", false),
    ];
    let mut failed = vec![];
    for &(code, from, to, text, error) in cases {
        let src = with(from, to);
        let full = format!("puz::ps::{code}");
        let got = problems(&src);
        let hit = got.iter().find(|p| p.0 == full);
        match hit {
            Some((_, t, e)) if t == text && *e == error => {}
            _ => failed.push(format!(
                "{code}: want {text:?} (error {error}), got {got:?}"
            )),
        }
    }
    assert!(failed.is_empty(), "\n{}", failed.join("\n"));
}

#[test]
fn reachability_says_nothing_when_unsure() {
    // Gem is in no level, but a rule creates it; Crate and Target are in the level.
    for (from, to) in [
        (
            "[ > Player | Crate ] -> [ > Player | > Crate ]",
            "[ Player | Crate ] -> [ Player | Gem ]\n[ Gem ] -> [ Crate ]",
        ),
        (
            "[ > Player | Crate ] -> [ > Player | > Crate ]",
            "[ Player | Crate ] -> [ Player | random Obstacle ]\n[ Obstacle Target ] -> [ Target ]",
        ),
        ("All Target on Crate", "Some Crate on Target"),
        ("All Target on Crate", "No Wall"),
    ] {
        let got = problems(&with(from, to));
        assert!(
            got.iter().all(|p| !p.0.ends_with("_unreachable")),
            "{to}: {got:?}"
        );
    }
}
