//! Exports: `puz solve --gif / --png-strip` (decoded with the same `gif` and `png` crates:
//! one frame per state, the start included, at the size the level and the cell size
//! give), `puz export --html` (one page, the puzzle inside, nothing loaded from a
//! server), their failures as coded diagnostics, and the `page` answers the WebAssembly
//! build gives the page, called natively here.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use puz::io::picture::{cell_size, STRIP_GAP};
use puz::page::{self, Caps, Ctx, Job};

const BLOXORZ: &str = "puzzles/bloxorz.puz";
/// Bloxorz's sample level: 7 x 7, solved in 10 rolls.
const SIDE: u32 = 7;
const STEPS: usize = 10;

fn puz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run puz")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// Fails on a panic's message or a signal; returns the exit code.
fn code(o: &Output) -> i32 {
    let err = stderr(o);
    assert!(!err.contains("panicked"), "puz panicked: {err}");
    o.status
        .code()
        .unwrap_or_else(|| panic!("puz died by a signal: {err}"))
}

#[test]
fn solve_writes_a_gif_with_a_frame_per_state() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bloxorz.gif");
    let o = puz(&["solve", BLOXORZ, "--gif", out.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("cost: 10 rolls"));
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut d = opts.read_info(std::fs::File::open(&out).unwrap()).unwrap();
    let side = (SIDE * cell_size(7, 7)) as u16;
    assert_eq!((d.width(), d.height()), (side, side));
    let mut frames = vec![];
    while let Some(f) = d.read_next_frame().unwrap() {
        assert_eq!((f.width, f.height), (side, side));
        frames.push(f.buffer.to_vec());
    }
    assert_eq!(frames.len(), STEPS + 1);
    // Every step moves the block: no two frames in a row are the same picture.
    for w in frames.windows(2) {
        assert_ne!(w[0], w[1]);
    }
}

#[test]
fn solve_writes_a_png_strip_of_every_board() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bloxorz.png");
    let o = puz(&["solve", BLOXORZ, "--png-strip", out.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let d = png::Decoder::new(std::fs::File::open(&out).unwrap());
    let mut r = d.read_info().unwrap();
    let side = SIDE * cell_size(7, 7);
    let n = STEPS as u32 + 1;
    let info = r.info();
    assert_eq!(
        (info.width, info.height),
        (n * side + (n - 1) * STRIP_GAP, side)
    );
    let mut buf = vec![0; r.output_buffer_size()];
    r.next_frame(&mut buf).unwrap();
    // The gap between the first two boards is white; the boards are not.
    let px = |x: u32, y: u32| {
        let i = ((y * (n * side + (n - 1) * STRIP_GAP) + x) * 3) as usize;
        [buf[i], buf[i + 1], buf[i + 2]]
    };
    assert_eq!(px(side + 1, side / 2), [255, 255, 255]);
    assert_ne!(px(side / 2, side / 2), [255, 255, 255]);
}

#[test]
fn pictures_that_cannot_be_written_are_coded_diagnostics() {
    for flag in ["--gif", "--png-strip"] {
        let o = puz(&["solve", BLOXORZ, flag, "/nonexistent-dir/x.img"]);
        assert_eq!(code(&o), 8, "{}", stderr(&o));
        assert!(stderr(&o).contains("puz::export::write"), "{}", stderr(&o));
    }
    let o = puz(&["solve", "puzzles/no-such.puz", "--gif", "x.gif"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR")).join("x.gif").exists());
}

#[test]
fn a_game_answer_is_not_drawn() {
    let games: Vec<_> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "txt")
                && std::fs::read_to_string(p)
                    .is_ok_and(|t| puz::puzzlescript::looks_like_puzzlescript(&t))
        })
        .collect();
    let Some(game) = games.first() else { return };
    let o = puz(&["solve", game.to_str().unwrap(), "--gif", "/tmp/never.gif"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("puz::export::puzzlescript_picture"));
}

#[test]
fn export_html_writes_one_page_with_the_puzzle_inside() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("page.html");
    let o = puz(&["export", BLOXORZ, "--html", out.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(page.contains("<title>bloxorz.puz - puz</title>"));
    assert!(
        page.contains(r#"puzzle \"Bloxorz\""#),
        "the text is embedded as JSON"
    );
    assert!(page.contains("var PUZ_CORE"), "the core is inlined");
    assert!(
        !page.contains("src=\"/assets"),
        "a script still needs the server"
    );
    assert!(
        !page.contains("href=\"/assets"),
        "a style still needs the server"
    );
}

#[test]
fn export_html_failures_are_coded_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    // An output in a directory that does not exist.
    let o = puz(&["export", BLOXORZ, "--html", "/nonexistent-dir/page.html"]);
    assert_eq!(code(&o), 8, "{}", stderr(&o));
    assert!(stderr(&o).contains("puz::export::write"), "{}", stderr(&o));
    // A file that does not exist, and one with errors: nothing written.
    let out = dir.path().join("page.html");
    let o = puz(&[
        "export",
        "puzzles/no-such.puz",
        "--html",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("puz::"), "{}", stderr(&o));
    let bad = dir.path().join("bad.puz");
    std::fs::write(
        &bad,
        "puzzle \"x\"\ntiles { floor }\nmove { shift nobody }\n",
    )
    .unwrap();
    let o = puz(&[
        "export",
        bad.to_str().unwrap(),
        "--html",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("puz::"), "{}", stderr(&o));
    assert!(!out.exists());
}

/// The answers the WebAssembly build gives the page, called natively: the same check,
/// level, play and solve as `puz serve`.
#[test]
fn page_answers_without_a_server() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(BLOXORZ)).unwrap();
    let body = serde_json::json!({ "text": text, "level": 0 }).to_string();
    let check = page::call("/api/check", &body, &Caps::default()).unwrap();
    assert_eq!(check["ok"], true);
    let level = page::call("/api/level", &body, &Caps::default()).unwrap();
    assert_eq!(
        (level["rows"].as_u64(), level["cols"].as_u64()),
        (Some(7), Some(7))
    );
    let refused = page::call("/api/level", "{", &Caps::default()).unwrap_err();
    assert_eq!((refused.status, refused.code), (400, "bad_request"));
    assert_eq!(
        page::call("/api/nope", "{}", &Caps::default())
            .unwrap_err()
            .status,
        404
    );

    let solve = serde_json::json!({ "text": text, "level": 0, "budget": {"max_states": 100000} });
    let job = Job::from_json("solve", &solve.to_string()).unwrap();
    let (budget, b) = job.budget.capped(&Caps::default());
    assert_eq!(budget["max_states"], 100000);
    let result = job.run(&Ctx::new(b));
    assert_eq!(result["outcome"], "solved");
    assert_eq!(result["path"], "wsssseneen");
    let frames = result["frames"].as_array().unwrap();
    assert_eq!(frames.len(), STEPS + 1);

    // The page's GIF button: the same frames and the level's palette.
    let req = serde_json::json!({ "frames": frames, "palette": level["palette"], "format": "gif" });
    let (bytes, media) = page::picture_json(&req.to_string()).unwrap();
    assert_eq!(media, "image/gif");
    let mut d = gif::DecodeOptions::new().read_info(&bytes[..]).unwrap();
    let mut n = 0;
    while d.read_next_frame().unwrap().is_some() {
        n += 1;
    }
    assert_eq!(n, STEPS + 1);
    let bad = serde_json::json!({ "frames": [], "palette": level["palette"], "format": "gif" });
    assert_eq!(
        page::picture_json(&bad.to_string()).unwrap_err().code,
        "picture"
    );

    let bad_engine = serde_json::json!({ "text": text, "engine": "warp" });
    let e = Job::from_json("solve", &bad_engine.to_string())
        .err()
        .unwrap();
    assert_eq!((e.status, e.code), (400, "bad_request"));
}
