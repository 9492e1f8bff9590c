//! Local timing harness (not committed).
use super::Machine;
use crate::puzzlescript::ir::*;
use crate::puzzlescript::{Game, Input, OnWin, Session};
use std::sync::Arc;
use std::time::Instant;

fn moves(n: usize) -> Vec<Input> {
    let mut x: u64 = 0x1234_5678_9abc_def1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            [Input::Up, Input::Left, Input::Down, Input::Right][(x % 4) as usize]
        })
        .collect()
}

const GAMES: &[(&str, usize, usize)] = &[
    ("sokoban_basic", 0, 1),
    ("microban", 1, 1),
    ("lunar_lockout", 1, 1),
    ("bouncers", 1, 1),
    ("robotarm", 3, 50),
    ("dreizack", 1, 200),
    ("push", 29, 1),
    ("ponies jumping synchronously", 21, 2),
    ("cakemonsters", 4, 5),
    ("coincounter", 0, 20),
];

fn div() -> usize {
    std::env::var("PSB_DIV")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

fn reps() -> usize {
    std::env::var("PSB_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
}

fn load(name: &str) -> Game {
    let path = format!("/work/shared/puzzlescript/src/demo/{name}.txt");
    let text = std::fs::read_to_string(path).unwrap();
    Game::load(name, Arc::new(text)).unwrap().0
}

#[test]
#[ignore]
fn bench_walk() {
    let filter = std::env::var("PSB").unwrap_or_default();
    for &(name, level, slow) in GAMES {
        if !filter.is_empty() && !filter.split(',').any(|f| name.contains(f)) {
            continue;
        }
        let game = load(name);
        let ms = moves(200_000 / slow / div());
        let mut best = f64::MAX;
        let mut serial = String::new();
        for _ in 0..reps() {
            let mut s = Session::new(&game, level, OnWin::Stop).unwrap();
            s.machine.keep_undo = std::env::var("PSB_UNDO").is_ok();
            let t = Instant::now();
            let mut n = 0;
            for &m in &ms {
                if !s.playing() {
                    break;
                }
                s.input(m);
                n += 1;
            }
            let d = t.elapsed().as_secs_f64();
            best = best.min(d / n as f64);

            serial = format!("{n} {}", s.serialize().len());
        }
        println!(
            "walk {name:>14} {:>8.0} ns/input {:>10.0} inputs/s  ({serial})",
            best * 1e9,
            1.0 / best
        );
    }
}

#[inline(never)]
fn play_one(m: &mut Machine<'_>, s: &[u64], d: u64) -> usize {
    m.reset_to(s);
    m.process_input(Some(d), false, false);
    crate::puzzlescript::Session::dismiss(m);
    m.run_again(20_000, crate::puzzlescript::Session::dismiss).0
}

/// A BFS as the search will do it: reset_to, then each input with its again turns.
#[test]
#[ignore]
fn bench_search() {
    let filter = std::env::var("PSB").unwrap_or_default();
    for &(name, level, slow) in GAMES {
        if !filter.is_empty() && !filter.split(',').any(|f| name.contains(f)) {
            continue;
        }
        let game = load(name);
        let c = &game.compiled;
        let mut best = f64::MAX;
        let mut summary = String::new();
        for _ in 0..reps() {
            let mut m = Machine::new(c, OnWin::Stop);
            m.load_level(level);
            m.keep_undo = false;
            m.run_again(20_000, |_| {});
            let mut seen = std::collections::HashSet::new();
            let mut queue = std::collections::VecDeque::new();
            seen.insert(m.objects.clone());
            queue.push_back(m.objects.clone());
            let t = Instant::now();
            let mut inputs = 0usize;
            let mut wins = 0usize;
            let mut agains = 0usize;
            while let Some(s) = queue.pop_front() {
                for d in [UP, LEFT, DOWN, RIGHT, ACTION] {
                    if d == ACTION && c.flags.noaction {
                        continue;
                    }
                    agains += play_one(&mut m, &s, d);
                    inputs += 1;
                    if m.winning {
                        wins += 1;
                        continue;
                    }
                    if m.restarted {
                        continue;
                    }
                    if seen.len() < 100_000 && !seen.contains(&m.objects) {
                        seen.insert(m.objects.clone());
                        queue.push_back(m.objects.clone());
                    }
                }
                if inputs >= 100_000 / slow / div() {
                    break;
                }
            }
            let d = t.elapsed().as_secs_f64();
            best = best.min(d / inputs as f64);
            summary = format!("{inputs} inputs, {} states, {wins} wins, {agains} again turns", seen.len());
        }
        println!(
            "search {name:>14} {:>8.0} ns/input {:>10.0} inputs/s  ({summary})",
            best * 1e9,
            1.0 / best
        );
    }
}
