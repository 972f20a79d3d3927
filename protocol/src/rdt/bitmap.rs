//! Chunk bitmap: which chunks of a transfer a receiver holds. One bit per chunk, so resume
//! state stays small (a 10 GB file at 1400-byte chunks is under 1 MB) and can be persisted.

use super::packet::ChunkRange;

/// One bit per chunk, with the count of set bits kept up to date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkBitmap {
    words: Vec<u64>,
    len: u32,
    count: u32,
}

impl ChunkBitmap {
    /// An empty bitmap for `len` chunks.
    pub fn new(len: u32) -> Self {
        Self {
            words: vec![0; (len as usize).div_ceil(64)],
            len,
            count: 0,
        }
    }

    /// A bitmap for `len` chunks with the given ranges set (clamped to `len`).
    pub fn from_ranges(len: u32, ranges: impl IntoIterator<Item = ChunkRange>) -> Self {
        let mut b = Self::new(len);
        for r in ranges {
            b.set_range(r.start, r.end.min(len));
        }
        b
    }

    /// Serialised form for persisting resume state: `len` as u32 LE then the words LE.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + self.words.len() * 8);
        out.extend_from_slice(&self.len.to_le_bytes());
        for w in &self.words {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Inverse of [`to_bytes`](Self::to_bytes); `None` when the bytes are not a bitmap.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let len = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?);
        let n = (len as usize).div_ceil(64);
        let body = bytes.get(4..)?;
        if body.len() != n * 8 {
            return None;
        }
        let mut words: Vec<u64> = body
            .chunks_exact(8)
            .map(|c| {
                let mut a = [0u8; 8];
                a.copy_from_slice(c);
                u64::from_le_bytes(a)
            })
            .collect();
        // Bits past `len` would corrupt the count: clear them.
        if len % 64 != 0 {
            if let Some(last) = words.last_mut() {
                *last &= (1u64 << (len % 64)) - 1;
            }
        }
        let count = words.iter().map(|w| w.count_ones()).sum();
        Some(Self { words, len, count })
    }

    pub fn len(&self) -> u32 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of chunks held.
    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn is_complete(&self) -> bool {
        self.count == self.len
    }

    pub fn get(&self, i: u32) -> bool {
        i < self.len && self.words[(i / 64) as usize] & (1 << (i % 64)) != 0
    }

    /// Sets bit `i`; returns true if it was newly set.
    pub fn set(&mut self, i: u32) -> bool {
        if i >= self.len {
            return false;
        }
        let w = &mut self.words[(i / 64) as usize];
        let m = 1u64 << (i % 64);
        if *w & m != 0 {
            return false;
        }
        *w |= m;
        self.count += 1;
        true
    }

    fn set_range(&mut self, start: u32, end: u32) {
        let mut i = start;
        while i < end {
            if i & 63 == 0 && end - i >= 64 {
                let w = &mut self.words[(i / 64) as usize];
                self.count += 64 - w.count_ones();
                *w = u64::MAX;
                i += 64;
            } else {
                self.set(i);
                i += 1;
            }
        }
    }

    /// First clear bit at or after `from`, or `len` if there is none.
    pub fn next_clear(&self, from: u32) -> u32 {
        self.scan(from, true)
    }

    /// First set bit at or after `from`, or `len` if there is none.
    pub fn next_set(&self, from: u32) -> u32 {
        self.scan(from, false)
    }

    /// Word-at-a-time scan for the first clear (`want_clear`) or set bit at or after `from`.
    fn scan(&self, from: u32, want_clear: bool) -> u32 {
        if from >= self.len {
            return self.len;
        }
        let mut wi = (from / 64) as usize;
        let mut w = self.words[wi];
        if want_clear {
            w = !w;
        }
        w &= u64::MAX << (from % 64);
        loop {
            if w != 0 {
                let i = wi as u32 * 64 + w.trailing_zeros();
                return i.min(self.len);
            }
            wi += 1;
            if wi >= self.words.len() {
                return self.len;
            }
            w = if want_clear {
                !self.words[wi]
            } else {
                self.words[wi]
            };
        }
    }

    /// Start of the run of set bits that contains `i` (assumes bit `i` is set).
    pub fn run_start(&self, i: u32) -> u32 {
        let mut wi = (i / 64) as usize;
        // Bits at or below i, inverted: a set bit marks a hole.
        let mut holes = !self.words[wi] & (u64::MAX >> (63 - i % 64));
        loop {
            if holes != 0 {
                return wi as u32 * 64 + (64 - holes.leading_zeros());
            }
            if wi == 0 {
                return 0;
            }
            wi -= 1;
            holes = !self.words[wi];
        }
    }

    /// Highest set bit below `before`, if any.
    pub fn prev_set(&self, before: u32) -> Option<u32> {
        let before = before.min(self.len);
        if before == 0 {
            return None;
        }
        let last = before - 1;
        let mut wi = (last / 64) as usize;
        let mut w = self.words[wi] & (u64::MAX >> (63 - last % 64));
        loop {
            if w != 0 {
                return Some(wi as u32 * 64 + 63 - w.leading_zeros());
            }
            if wi == 0 {
                return None;
            }
            wi -= 1;
            w = self.words[wi];
        }
    }

    /// Runs of held chunks within `[from, to)`, newest (highest) first.
    pub fn runs_rev(&self, from: u32, to: u32) -> impl Iterator<Item = ChunkRange> + '_ {
        let mut pos = to.min(self.len);
        std::iter::from_fn(move || {
            let last = self.prev_set(pos).filter(|&l| l >= from)?;
            let start = self.run_start(last).max(from);
            pos = start;
            Some(ChunkRange::new(start, last + 1))
        })
    }

    /// Runs of held chunks within `[from, to)`, ascending.
    pub fn runs(&self, from: u32, to: u32) -> Runs<'_> {
        Runs {
            bitmap: self,
            pos: from,
            to: to.min(self.len),
        }
    }
}

/// Iterator over runs of set bits; see [`ChunkBitmap::runs`].
pub struct Runs<'a> {
    bitmap: &'a ChunkBitmap,
    pos: u32,
    to: u32,
}

impl Iterator for Runs<'_> {
    type Item = ChunkRange;

    fn next(&mut self) -> Option<ChunkRange> {
        if self.pos >= self.to {
            return None;
        }
        let start = self.bitmap.next_set(self.pos);
        if start >= self.to {
            self.pos = self.to;
            return None;
        }
        let end = self.bitmap.next_clear(start).min(self.to);
        self.pos = end;
        Some(ChunkRange::new(start, end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn rdt_bitmap_matches_bool_vec(len in 0u32..400, sets in prop::collection::vec(0u32..400, 0..200), from in 0u32..400) {
            let mut b = ChunkBitmap::new(len);
            let mut v = vec![false; len as usize];
            for s in sets {
                let newly = b.set(s);
                if s < len {
                    prop_assert_eq!(newly, !v[s as usize]);
                    v[s as usize] = true;
                }
            }
            prop_assert_eq!(b.count() as usize, v.iter().filter(|x| **x).count());
            let nc = (from..len).find(|&i| !v[i as usize]).unwrap_or(len);
            prop_assert_eq!(b.next_clear(from), nc);
            let ns = (from..len).find(|&i| v[i as usize]).unwrap_or(len);
            prop_assert_eq!(b.next_set(from), ns);
            if from < len && v[from as usize] {
                let mut s = from;
                while s > 0 && v[s as usize - 1] { s -= 1; }
                prop_assert_eq!(b.run_start(from), s);
            }
            let ps = (0..from.min(len)).rev().find(|&i| v[i as usize]);
            prop_assert_eq!(b.prev_set(from), ps);
            let runs: Vec<_> = b.runs(0, len).collect();
            let mut rev: Vec<_> = b.runs_rev(from.min(len), len).collect();
            rev.reverse();
            prop_assert_eq!(rev, b.runs(from.min(len), len).collect::<Vec<_>>());
            let again = ChunkBitmap::from_ranges(len, runs.iter().copied());
            prop_assert_eq!(&again, &b);
            prop_assert_eq!(ChunkBitmap::from_bytes(&b.to_bytes()), Some(b));
        }
    }
}
