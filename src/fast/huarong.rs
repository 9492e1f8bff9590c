//! Fast path for huarong-shaped rule sets (being built; until then every model runs on the
//! interpreter).

use crate::compile::Model;
use crate::engine::Level;
use crate::search::{Budget, Stats};

use super::{FastOutcome, FastPath};

pub struct Huarong;

impl Huarong {
    pub fn detect(_model: &Model) -> Result<Huarong, String> {
        Err("this fast path is not built yet".into())
    }
}

impl FastPath for Huarong {
    fn name(&self) -> &'static str {
        "huarong"
    }

    fn solve(&self, _level: &Level, _budget: &Budget, _need_path: bool) -> (FastOutcome, Stats) {
        (FastOutcome::Unsolvable, Stats::default())
    }
}
