//! Support shared by several test files: for each shipped puzzle, random level generators
//! and a brute-force reference written from the spec. Nothing here calls the crate, so the
//! references stay independent of the code they check.

#![allow(dead_code)]

pub mod bloxorz;
pub mod curling;
pub mod huarong;
pub mod sokoban;
