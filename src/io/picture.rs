//! A solution's boards as pictures: an animated GIF (one frame per state, the start and
//! the board after each step) or a PNG strip (the same frames side by side, left to
//! right). Boards are drawn as the playground draws them, with the same colours
//! ([`super::view::palette`]): each tile filled with its colour and a faint grid, marks as
//! rings (a corner triangle where a piece covers one), pieces filled inset and outlined
//! as one shape across their cells. Pieces carry no text labels here (no font is drawn).
//!
//! The encoders are the `gif` and `png` crates. Frames use an exact palette (a board has
//! a few dozen colours), so a GIF shows the page's colours unchanged.

use std::collections::HashMap;

use super::view::{BoardView, Palette};

/// The most pixels one picture may hold (a strip of many frames, or a huge board): past
/// it the export is refused rather than take gigabytes.
pub const MAX_PIXELS: u64 = 1 << 25;

/// Pixels between two frames of a strip.
pub const STRIP_GAP: u32 = 4;

/// Why a picture cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// There is no board to draw (the answer has no frames).
    #[error("there are no boards to draw")]
    NoFrames,
    /// The picture would be larger than [`MAX_PIXELS`].
    #[error("the picture would be {width}x{height} pixels, more than the {MAX_PIXELS} allowed")]
    TooLarge {
        /// Its width in pixels.
        width: u64,
        /// Its height in pixels.
        height: u64,
    },
    /// The encoder failed.
    #[error("the image encoder failed: {0}")]
    Encode(String),
}

/// An RGB colour.
type Rgb = [u8; 3];

/// `#rrggbb` (or `#rgb`) as RGB; grey for anything else.
fn rgb(hex: &str) -> Rgb {
    let h = hex.trim_start_matches('#');
    let digit = |i: usize, n: usize| u8::from_str_radix(h.get(i..i + n)?, 16).ok();
    let parsed = match h.len() {
        6 => (|| Some([digit(0, 2)?, digit(2, 2)?, digit(4, 2)?]))(),
        3 => (|| Some([digit(0, 1)? * 17, digit(1, 1)? * 17, digit(2, 1)? * 17]))(),
        _ => None,
    };
    parsed.unwrap_or([0x88, 0x88, 0x88])
}

/// `c` darkened by `f` (0: unchanged, 1: black).
fn darker(c: Rgb, f: f32) -> Rgb {
    c.map(|v| (v as f32 * (1.0 - f)).round() as u8)
}

/// The side of a cell in pixels for a board of `rows` x `cols`: 24, smaller for boards
/// past 40 cells across (at least 4).
pub fn cell_size(rows: usize, cols: usize) -> u32 {
    let most = rows.max(cols).max(1) as u32;
    (960 / most).clamp(4, 24)
}

/// One board drawn: `width` x `height` pixels, RGB row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raster {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height` colours, row by row.
    pub pixels: Vec<Rgb>,
}

impl Raster {
    fn new(width: u32, height: u32, fill: Rgb) -> Raster {
        Raster {
            width,
            height,
            pixels: vec![fill; width as usize * height as usize],
        }
    }

    /// Fills the rectangle from (`x`, `y`), `w` x `h` pixels, clipped to the picture.
    fn rect(&mut self, x: i64, y: i64, w: i64, h: i64, c: Rgb) {
        let (x0, y0) = (x.max(0), y.max(0));
        let (x1, y1) = (
            (x + w).min(self.width as i64),
            (y + h).min(self.height as i64),
        );
        for yy in y0..y1 {
            let row = yy as usize * self.width as usize;
            for xx in x0..x1 {
                self.pixels[row + xx as usize] = c;
            }
        }
    }
}

/// Draws `board` with `palette`, `cell` pixels a cell.
pub fn draw_board(board: &BoardView, palette: &Palette, cell: u32) -> Raster {
    let cs = cell as i64;
    let (rows, cols) = (board.rows as i64, board.cols as i64);
    let mut r = Raster::new(cols as u32 * cell, rows as u32 * cell, [0xee; 3]);
    let color = |list: &[super::view::Swatch], i: usize, fallback: Rgb| {
        list.get(i).map_or(fallback, |s| rgb(&s.color))
    };
    // Tiles, with a faint grid: each cell's top and left pixel lines a little darker.
    for row in 0..rows {
        for col in 0..cols {
            let t = board.tiles[(row * cols + col) as usize] as usize;
            let c = color(&palette.tiles, t, [0xee; 3]);
            r.rect(col * cs, row * cs, cs, cs, c);
            let line = darker(c, 0.10);
            r.rect(col * cs, row * cs, cs, 1, line);
            r.rect(col * cs, row * cs, 1, cs, line);
        }
    }
    // Marks: rings, the inner ones for a second or third mark.
    let ring = (cell / 10).max(2) as f32;
    for (i, ms) in board.marks.iter().enumerate() {
        let (row, col) = (i as i64 / cols.max(1), i as i64 % cols.max(1));
        for (k, &m) in ms.iter().enumerate() {
            let c = color(&palette.marks, m as usize, [0xcc, 0, 0]);
            let radius = (cell as f32 * (0.36 - 0.1 * k as f32)).max(2.0);
            let (cx, cy) = (
                (col * cs) as f32 + cell as f32 / 2.0,
                (row * cs) as f32 + cell as f32 / 2.0,
            );
            for y in row * cs..(row + 1) * cs {
                for x in col * cs..(col + 1) * cs {
                    let d = ((x as f32 + 0.5 - cx).powi(2) + (y as f32 + 0.5 - cy).powi(2)).sqrt();
                    if (d - radius).abs() <= ring / 2.0 {
                        r.rect(x, y, 1, 1, c);
                    }
                }
            }
        }
    }
    // Pieces: inset squares joined across their own cells, outlined as one shape.
    let inset = ((cell as f32 * 0.1).round() as i64).max(1);
    let outline = [0x33; 3];
    let edge = ((cell / 18).max(1)) as i64;
    let mut covered = std::collections::HashSet::new();
    for p in &board.pieces {
        let c = color(&palette.pieces, p.kind as usize, [0xaa, 0x33, 0x33]);
        let own: std::collections::HashSet<[i64; 2]> = p.cells.iter().copied().collect();
        for &[row, col] in &p.cells {
            covered.insert([row, col]);
            let (x, y) = (col * cs, row * cs);
            let (e, s) = (own.contains(&[row, col + 1]), own.contains(&[row + 1, col]));
            r.rect(x + inset, y + inset, cs - 2 * inset, cs - 2 * inset, c);
            if e {
                r.rect(x + cs - inset, y + inset, 2 * inset, cs - 2 * inset, c);
            }
            if s {
                r.rect(x + inset, y + cs - inset, cs - 2 * inset, 2 * inset, c);
            }
            if e && s && own.contains(&[row + 1, col + 1]) {
                r.rect(x + cs - inset, y + cs - inset, 2 * inset, 2 * inset, c);
            }
        }
        for &[row, col] in &p.cells {
            let (n, s) = (own.contains(&[row - 1, col]), own.contains(&[row + 1, col]));
            let (w, e) = (own.contains(&[row, col - 1]), own.contains(&[row, col + 1]));
            let (x0, y0) = (col * cs + inset, row * cs + inset);
            let (x1, y1) = ((col + 1) * cs - inset, (row + 1) * cs - inset);
            let xa = if w { col * cs - inset } else { x0 };
            let xb = if e { (col + 1) * cs + inset } else { x1 };
            let ya = if n { row * cs - inset } else { y0 };
            let yb = if s { (row + 1) * cs + inset } else { y1 };
            if !n {
                r.rect(xa, y0, xb - xa, edge, outline);
            }
            if !s {
                r.rect(xa, y1 - edge, xb - xa, edge, outline);
            }
            if !w {
                r.rect(x0, ya, edge, yb - ya, outline);
            }
            if !e {
                r.rect(x1 - edge, ya, edge, yb - ya, outline);
            }
        }
    }
    // A mark under a piece shows as a triangle in the cell's top-right corner.
    let t = (cell / 3).max(4) as i64;
    for (i, ms) in board.marks.iter().enumerate() {
        let (row, col) = (i as i64 / cols.max(1), i as i64 % cols.max(1));
        let Some(&m) = ms.first() else { continue };
        if !covered.contains(&[row, col]) {
            continue;
        }
        let c = color(&palette.marks, m as usize, [0xcc, 0, 0]);
        for dy in 0..t {
            let from = (col + 1) * cs - (t - dy);
            r.rect(from, row * cs + dy, (col + 1) * cs - from, 1, c);
        }
    }
    r
}

/// Every frame drawn at the first one's cell size; refused when a strip's picture would
/// pass [`MAX_PIXELS`], or all the frames together four times that.
fn draw_all(
    frames: &[BoardView],
    palette: &Palette,
    strip: bool,
) -> Result<Vec<Raster>, PictureError> {
    let first = frames.first().ok_or(PictureError::NoFrames)?;
    let cell = cell_size(first.rows, first.cols);
    let (w, h) = (
        first.cols as u64 * cell as u64,
        first.rows as u64 * cell as u64,
    );
    let n = frames.len() as u64;
    let (width, height) = if strip {
        (n * w + (n - 1) * STRIP_GAP as u64, h)
    } else {
        (w, h)
    };
    if width * height > MAX_PIXELS || w * h * n > MAX_PIXELS * 4 {
        return Err(PictureError::TooLarge { width, height });
    }
    Ok(frames
        .iter()
        .map(|f| draw_board(f, palette, cell))
        .collect())
}

/// The frames as an animated GIF that loops: `delay_cs` hundredths of a second a frame,
/// the last held three times as long.
pub fn gif(
    frames: &[BoardView],
    palette: &Palette,
    delay_cs: u16,
) -> Result<Vec<u8>, PictureError> {
    let rasters = draw_all(frames, palette, false)?;
    let (w, h) = (rasters[0].width, rasters[0].height);
    let enc = |e: gif::EncodingError| PictureError::Encode(e.to_string());
    let mut out = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut out, w as u16, h as u16, &[]).map_err(enc)?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(enc)?;
        let last = rasters.len() - 1;
        for (i, r) in rasters.iter().enumerate() {
            let mut frame = indexed(r).unwrap_or_else(|| {
                let mut rgba: Vec<u8> = r
                    .pixels
                    .iter()
                    .flat_map(|p| [p[0], p[1], p[2], 255])
                    .collect();
                gif::Frame::from_rgba_speed(w as u16, h as u16, &mut rgba, 10)
            });
            frame.delay = if i == last {
                delay_cs.saturating_mul(3)
            } else {
                delay_cs
            };
            encoder.write_frame(&frame).map_err(enc)?;
        }
    }
    Ok(out)
}

/// A frame with an exact palette of its colours, when it has at most 256.
fn indexed(r: &Raster) -> Option<gif::Frame<'static>> {
    let mut index: HashMap<Rgb, u8> = HashMap::new();
    let mut palette = Vec::new();
    let mut buffer = Vec::with_capacity(r.pixels.len());
    for p in &r.pixels {
        let i = match index.get(p) {
            Some(&i) => i,
            None => {
                let i = u8::try_from(index.len()).ok()?;
                index.insert(*p, i);
                palette.extend_from_slice(p);
                i
            }
        };
        buffer.push(i);
    }
    let mut frame =
        gif::Frame::from_palette_pixels(r.width as u16, r.height as u16, buffer, palette, None);
    frame.dispose = gif::DisposalMethod::Keep;
    Some(frame)
}

/// The frames side by side, left to right, [`STRIP_GAP`] white pixels apart, as a PNG.
pub fn png_strip(frames: &[BoardView], palette: &Palette) -> Result<Vec<u8>, PictureError> {
    let rasters = draw_all(frames, palette, true)?;
    let (w, h) = (rasters[0].width, rasters[0].height);
    let n = rasters.len() as u32;
    let width = n * w + (n - 1) * STRIP_GAP;
    let mut strip = Raster::new(width, h, [0xff; 3]);
    for (k, r) in rasters.iter().enumerate() {
        let x0 = k as u32 * (w + STRIP_GAP);
        for y in 0..h {
            let from = (y * w) as usize;
            let to = (y * width + x0) as usize;
            strip.pixels[to..to + w as usize].copy_from_slice(&r.pixels[from..from + w as usize]);
        }
    }
    let enc = |e: png::EncodingError| PictureError::Encode(e.to_string());
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(enc)?;
        let bytes: Vec<u8> = strip.pixels.iter().flatten().copied().collect();
        writer.write_image_data(&bytes).map_err(enc)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse() {
        assert_eq!(rgb("#ff8000"), [255, 128, 0]);
        assert_eq!(rgb("#f80"), [255, 136, 0]);
        assert_eq!(rgb("nope"), [0x88; 3]);
    }

    #[test]
    fn cells_shrink_on_big_boards() {
        assert_eq!(cell_size(6, 6), 24);
        assert_eq!(cell_size(80, 10), 12);
        assert_eq!(cell_size(5000, 1), 4);
    }
}
