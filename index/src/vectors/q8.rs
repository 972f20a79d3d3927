//! The int8 mirror of the in-process store's rows and the scan that picks each query's
//! candidates from it. Rows are quantised symmetrically (`x ≈ q * scale`) and stored
//! interleaved in blocks of 16: for every group of 4 dimensions, the 16 rows' 4 bytes sit
//! side by side (64 bytes), so one 512-bit multiply-add scores 16 rows at once and the
//! block's 16 dot products come out in one register with no horizontal reduction.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Rows per interleaved block (one 512-bit register of i32 lanes).
pub(super) const LANES: usize = 16;

/// Blocks a batch scans together before moving on: 64 blocks of 384 dimensions are
/// 384 KiB, which stays in L2 while every query of the batch reads it.
const SUPER: usize = 64;

/// Tag bit for a tag id; ids from 63 up share the last bit (it then only means "maybe").
#[inline]
fn tag_bit(t: u32) -> u64 {
    1u64 << t.min(63)
}

/// The scan kernels, fastest first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kernel {
    Vnni,
    Avx2,
    Generic,
}

impl Kernel {
    /// The scan kernel of a kernel level.
    pub(super) fn for_level(level: crate::kernels::Kernel) -> Kernel {
        use crate::kernels::Kernel as L;
        match level {
            L::Baseline => Kernel::Generic,
            L::Avx2 => Kernel::Avx2,
            L::Avx512 | L::Amx => Kernel::Vnni,
        }
    }

    /// The kernels this CPU can run, fastest first (the portable loop always).
    pub(super) fn available() -> Vec<Kernel> {
        let mut v = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512vnni")
                && std::arch::is_x86_feature_detected!("avx512bw")
            {
                v.push(Kernel::Vnni);
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                v.push(Kernel::Avx2);
            }
        }
        v.push(Kernel::Generic);
        v
    }
}

#[derive(Default)]
pub(super) struct Mirror {
    /// `dim` rounded up to a multiple of 4 (padding bytes are zero).
    dimp: usize,
    n: usize,
    /// Block `b` holds rows `16b..16b+16`: byte `t` of dimension group `g` of lane `r` is at
    /// `b * 16 * dimp + g * 64 + r * 4 + t`.
    data: Vec<i8>,
    /// Per row (padded to whole blocks with zero scale): `x ≈ q * scale`.
    scale: Vec<f32>,
    /// Per row: the sum of its bytes (the VNNI kernel multiplies unsigned bytes: it scans
    /// `q + 128` and subtracts `128 * rsum`).
    rsum: Vec<i32>,
    tags: Vec<u32>,
    /// Per block: the tag bits of its rows, so a scan skips blocks it may not see.
    block_tags: Vec<u64>,
}

/// Symmetric per-vector int8 quantisation: `x ≈ q * scale`.
pub(super) fn quantize(v: &[f32]) -> (Vec<i8>, f32) {
    let m = v.iter().fold(0f32, |a, x| a.max(x.abs()));
    if m == 0.0 || !m.is_finite() {
        return (vec![0; v.len()], 0.0);
    }
    let s = m / 127.0;
    let q = v
        .iter()
        .map(|x| (x / s).round().clamp(-127.0, 127.0) as i8)
        .collect();
    (q, s)
}

impl Mirror {
    pub(super) fn new(dim: usize) -> Mirror {
        Mirror {
            dimp: dim.div_ceil(4) * 4,
            ..Default::default()
        }
    }

    fn block_bytes(&self) -> usize {
        LANES * self.dimp
    }

    /// Appends a row (index `len()` before the call).
    pub(super) fn push(&mut self, tag: u32, v: &[f32]) {
        if self.n.is_multiple_of(LANES) {
            self.data.resize(self.data.len() + self.block_bytes(), 0);
            self.scale.resize(self.scale.len() + LANES, 0.0);
            self.rsum.resize(self.rsum.len() + LANES, 0);
            self.block_tags.push(0);
        }
        self.n += 1;
        self.tags.push(tag);
        self.set(self.n - 1, tag, v);
    }

    /// Replaces row `i`.
    pub(super) fn set(&mut self, i: usize, tag: u32, v: &[f32]) {
        let (q, s) = quantize(v);
        self.write_bytes(i, &q);
        self.scale[i] = s;
        self.rsum[i] = q.iter().map(|&x| x as i32).sum();
        self.tags[i] = tag;
        self.retag(i / LANES);
    }

    fn write_bytes(&mut self, i: usize, q: &[i8]) {
        let (b, r) = (i / LANES, i % LANES);
        let base = b * self.block_bytes() + r * 4;
        for g in 0..self.dimp / 4 {
            for t in 0..4 {
                self.data[base + g * 64 + t] = q.get(g * 4 + t).copied().unwrap_or(0);
            }
        }
    }

    fn read_bytes(&self, i: usize) -> Vec<i8> {
        let (b, r) = (i / LANES, i % LANES);
        let base = b * self.block_bytes() + r * 4;
        (0..self.dimp)
            .map(|d| self.data[base + (d / 4) * 64 + d % 4])
            .collect()
    }

    fn retag(&mut self, b: usize) {
        let end = ((b + 1) * LANES).min(self.n);
        self.block_tags[b] = self.tags[b * LANES..end]
            .iter()
            .fold(0, |a, &t| a | tag_bit(t));
    }

    /// Moves the last row into `i` and drops the last slot (the store's swap-remove).
    pub(super) fn swap_remove(&mut self, i: usize) {
        let last = self.n - 1;
        if i != last {
            let q = self.read_bytes(last);
            self.write_bytes(i, &q);
            self.scale[i] = self.scale[last];
            self.rsum[i] = self.rsum[last];
            self.tags[i] = self.tags[last];
            self.retag(i / LANES);
        }
        self.write_bytes(last, &[]);
        self.scale[last] = 0.0;
        self.rsum[last] = 0;
        self.tags.pop();
        self.n = last;
        if self.n.is_multiple_of(LANES) {
            let blocks = self.n / LANES;
            self.data.truncate(blocks * self.block_bytes());
            self.scale.truncate(blocks * LANES);
            self.rsum.truncate(blocks * LANES);
            self.block_tags.truncate(blocks);
        } else {
            self.retag(last / LANES);
        }
    }

    /// Runs every scan over the rows, with the kernel of the process's level
    /// (`kernels::Kernel::selected`: `LLMOPS_KERNEL`, else the best this CPU runs; the
    /// portable loop when the variable names a level this CPU lacks).
    pub(super) fn scan(&self, scans: &mut [Scan]) {
        let level = crate::kernels::Kernel::selected().unwrap_or(crate::kernels::Kernel::Baseline);
        self.scan_with(Kernel::for_level(level), scans)
    }

    /// Runs every scan with `kernel`, which must be one of `Kernel::available()` (any other
    /// falls back to the portable loop).
    pub(super) fn scan_with(&self, kernel: Kernel, scans: &mut [Scan]) {
        if !Kernel::available().contains(&kernel) {
            return self.scan_generic(scans);
        }
        match kernel {
            // SAFETY: `available` checked that the CPU has the kernel's features.
            #[cfg(target_arch = "x86_64")]
            Kernel::Vnni => unsafe { self.scan_vnni(scans) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe { self.scan_avx2(scans) },
            _ => self.scan_generic(scans),
        }
    }

    /// Signed bytes times signed bytes, 16 lanes per block, in plain Rust.
    #[inline(always)]
    pub(super) fn scan_generic(&self, scans: &mut [Scan]) {
        let blocks = self.n.div_ceil(LANES);
        let bb = self.block_bytes();
        for sb in (0..blocks).step_by(SUPER) {
            for sc in scans.iter_mut() {
                for b in sb..(sb + SUPER).min(blocks) {
                    let Some(lanes) = sc.lanes(self, b) else {
                        continue;
                    };
                    let blk = &self.data[b * bb..(b + 1) * bb];
                    let mut acc = [0i32; LANES];
                    for (g, grp) in blk.chunks_exact(64).enumerate() {
                        let q = &sc.q[g * 4..g * 4 + 4];
                        for (r, a) in acc.iter_mut().enumerate() {
                            let x = &grp[r * 4..r * 4 + 4];
                            *a += x[0] as i32 * q[0] as i32
                                + x[1] as i32 * q[1] as i32
                                + x[2] as i32 * q[2] as i32
                                + x[3] as i32 * q[3] as i32;
                        }
                    }
                    let mut scores = [0f32; LANES];
                    for r in 0..LANES {
                        scores[r] = acc[r] as f32 * self.scale[b * LANES + r];
                    }
                    sc.offer_block(b, lanes, &scores);
                }
            }
        }
    }

    /// AVX-512 VNNI: `vpdpbusd` multiplies the query's 4 unsigned bytes (`q + 128`,
    /// broadcast) by the 4 signed bytes of each of 16 rows and adds into 16 i32 lanes; the
    /// block's row loads are shared by up to 8 queries at a time.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    fn scan_vnni(&self, scans: &mut [Scan]) {
        self.in_groups(scans, 8, |m, group, from, to| {
            // The closure inherits this function's target features.
            match group.len() {
                8 => m.vnni_group::<8>(group, from, to),
                4 => m.vnni_group::<4>(group, from, to),
                2 => m.vnni_group::<2>(group, from, to),
                _ => m.vnni_group::<1>(group, from, to),
            }
        })
    }

    /// AVX2 has no byte dot product instruction that takes two signed operands, so each
    /// query byte's sign moves onto the row bytes (`vpsignb`) and its absolute value is
    /// the unsigned side of `vpmaddubsw` (pairs of 127 * 127 products fit i16); `vpmaddwd`
    /// then sums the pairs into i32 lanes. Rows 0-7 and 8-15 of a block are two registers.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn scan_avx2(&self, scans: &mut [Scan]) {
        self.in_groups(scans, 4, |m, group, from, to| match group.len() {
            4 => m.avx2_group::<4>(group, from, to),
            2 => m.avx2_group::<2>(group, from, to),
            _ => m.avx2_group::<1>(group, from, to),
        })
    }

    /// Calls `kernel` for each super-block and each group of at most `max` queries (a
    /// power of two; smaller groups for the remainder), so a block read from memory serves
    /// every query of the batch while it is in cache.
    fn in_groups(
        &self,
        scans: &mut [Scan],
        max: usize,
        mut kernel: impl FnMut(&Mirror, &mut [Scan], usize, usize),
    ) {
        let blocks = self.n.div_ceil(LANES);
        for sb in (0..blocks).step_by(SUPER) {
            let end = (sb + SUPER).min(blocks);
            let mut rest: &mut [Scan] = scans;
            while !rest.is_empty() {
                let mut take = max;
                while take > rest.len() {
                    take /= 2;
                }
                let (group, tail) = rest.split_at_mut(take);
                kernel(self, group, sb, end);
                rest = tail;
            }
        }
    }

    /// Which lanes of block `b` each query of a group may see; `None` when none may.
    #[inline(always)]
    fn group_lanes<const G: usize>(&self, group: &[Scan], b: usize) -> Option<[u16; G]> {
        let lanes: [u16; G] = std::array::from_fn(|j| group[j].lanes(self, b).unwrap_or(0));
        lanes.iter().any(|&l| l != 0).then_some(lanes)
    }

    /// `G` queries over blocks `from..to`, two accumulator registers each.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn avx2_group<const G: usize>(&self, group: &mut [Scan], from: usize, to: usize) {
        use std::arch::x86_64::*;
        let bb = self.block_bytes();
        let groups = self.dimp / 4;
        let qs: [*const i32; G] = std::array::from_fn(|j| group[j].q.as_ptr() as *const i32);
        let qa: [*const i32; G] = std::array::from_fn(|j| group[j].qa.as_ptr() as *const i32);
        let ones = _mm256_set1_epi16(1);
        for b in from..to {
            let Some(lanes) = self.group_lanes::<G>(group, b) else {
                continue;
            };
            let blk = self.data[b * bb..(b + 1) * bb].as_ptr();
            let mut lo = [_mm256_setzero_si256(); G];
            let mut hi = [_mm256_setzero_si256(); G];
            for g in 0..groups {
                // SAFETY: g < dimp / 4: the 64 bytes at `blk + 64 g` are inside block b and
                // the 4 bytes at `qs[j] + g`, `qa[j] + g` inside the query's `dimp` bytes.
                unsafe {
                    let r0 = _mm256_loadu_si256(blk.add(g * 64) as *const _);
                    let r1 = _mm256_loadu_si256(blk.add(g * 64 + 32) as *const _);
                    for j in 0..G {
                        let q = _mm256_set1_epi32(qs[j].add(g).read_unaligned());
                        let a = _mm256_set1_epi32(qa[j].add(g).read_unaligned());
                        let p0 = _mm256_maddubs_epi16(a, _mm256_sign_epi8(r0, q));
                        let p1 = _mm256_maddubs_epi16(a, _mm256_sign_epi8(r1, q));
                        lo[j] = _mm256_add_epi32(lo[j], _mm256_madd_epi16(p0, ones));
                        hi[j] = _mm256_add_epi32(hi[j], _mm256_madd_epi16(p1, ones));
                    }
                }
            }
            // SAFETY: the block has 16 scale slots (padded to whole blocks).
            let (s0, s1) = unsafe {
                let p = self.scale.as_ptr().add(b * LANES);
                (_mm256_loadu_ps(p), _mm256_loadu_ps(p.add(8)))
            };
            for j in 0..G {
                if lanes[j] == 0 {
                    continue;
                }
                let sc = &mut group[j];
                let f0 = _mm256_mul_ps(_mm256_cvtepi32_ps(lo[j]), s0);
                let f1 = _mm256_mul_ps(_mm256_cvtepi32_ps(hi[j]), s1);
                let floor = _mm256_set1_ps(sc.floor);
                let over = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_GT_OQ>(f0, floor)) as u16
                    | (_mm256_movemask_ps(_mm256_cmp_ps::<_CMP_GT_OQ>(f1, floor)) as u16) << 8;
                let hit = over & lanes[j];
                if hit == 0 {
                    continue;
                }
                let mut scores = [0f32; LANES];
                // SAFETY: 2 x 8 f32 into a 16-element array.
                unsafe {
                    _mm256_storeu_ps(scores.as_mut_ptr(), f0);
                    _mm256_storeu_ps(scores.as_mut_ptr().add(8), f1);
                }
                sc.offer_block(b, hit, &scores);
            }
        }
    }

    /// `G` queries over blocks `from..to`, one accumulator register each.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    fn vnni_group<const G: usize>(&self, group: &mut [Scan], from: usize, to: usize) {
        use std::arch::x86_64::*;
        let bb = self.block_bytes();
        let groups = self.dimp / 4;
        let qs: [*const i32; G] = std::array::from_fn(|j| group[j].qu.as_ptr() as *const i32);
        for b in from..to {
            let Some(lanes) = self.group_lanes::<G>(group, b) else {
                continue;
            };
            let blk = self.data[b * bb..(b + 1) * bb].as_ptr();
            let mut acc = [_mm512_setzero_si512(); G];
            for g in 0..groups {
                // SAFETY: g < dimp / 4, so the 64 bytes at `blk + 64 g` are inside block b
                // (16 * dimp bytes) and the 4 bytes at `qs[j] + g` inside the query's `dimp`
                // unsigned bytes.
                unsafe {
                    let rows = _mm512_loadu_si512(blk.add(g * 64) as *const _);
                    for j in 0..G {
                        let q = _mm512_set1_epi32(qs[j].add(g).read_unaligned());
                        acc[j] = _mm512_dpbusd_epi32(acc[j], q, rows);
                    }
                }
            }
            // SAFETY: the block has 16 scale and rsum slots (padded to whole blocks).
            let (scale, rsum) = unsafe {
                (
                    _mm512_loadu_ps(self.scale.as_ptr().add(b * LANES)),
                    _mm512_loadu_si512(self.rsum.as_ptr().add(b * LANES) as *const _),
                )
            };
            let bias = _mm512_slli_epi32::<7>(rsum);
            for j in 0..G {
                if lanes[j] == 0 {
                    continue;
                }
                let s = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(acc[j], bias)), scale);
                let sc = &mut group[j];
                let over = _mm512_cmp_ps_mask::<_CMP_GT_OQ>(s, _mm512_set1_ps(sc.floor));
                let hit = over & lanes[j];
                if hit == 0 {
                    continue;
                }
                let mut scores = [0f32; LANES];
                // SAFETY: 16 f32 into a 16-element array.
                unsafe { _mm512_storeu_ps(scores.as_mut_ptr(), s) };
                sc.offer_block(b, hit, &scores);
            }
        }
    }
}

/// One query's scan state: its quantised vector (plus the unsigned copy the VNNI kernel
/// wants, and its absolute values for the AVX2 one), which tags it may see, and its best rows so far.
pub(super) struct Scan {
    q: Vec<i8>,
    qu: Vec<u8>,
    /// `|q|` (the AVX2 kernel's unsigned side).
    qa: Vec<u8>,
    allowed: Vec<bool>,
    /// Tag bits it may see (as `tag_bit`).
    bits: u64,
    want: usize,
    heap: BinaryHeap<Reverse<(OrdF32, usize)>>,
    floor: f32,
}

impl Scan {
    /// `allowed[t]`: may this query see tag id `t`; `want` candidates kept.
    pub(super) fn new(m: &Mirror, vector: &[f32], allowed: Vec<bool>, want: usize) -> Scan {
        let (mut q, _) = quantize(vector);
        q.resize(m.dimp, 0);
        let qu = q.iter().map(|&x| (x as i16 + 128) as u8).collect();
        let qa = q.iter().map(|&x| x.unsigned_abs()).collect();
        let bits = allowed
            .iter()
            .enumerate()
            .filter(|(_, &a)| a)
            .fold(0, |b, (t, _)| b | tag_bit(t as u32));
        Scan {
            q,
            qu,
            qa,
            allowed,
            bits,
            want,
            heap: BinaryHeap::with_capacity(want + 1),
            floor: f32::NEG_INFINITY,
        }
    }

    /// The lanes of block `b` this query may see, or `None` when it sees none.
    #[inline(always)]
    fn lanes(&self, m: &Mirror, b: usize) -> Option<u16> {
        let bt = m.block_tags[b];
        if bt & self.bits == 0 {
            return None;
        }
        let start = b * LANES;
        let live = (m.n - start).min(LANES);
        let full = if live == LANES {
            u16::MAX
        } else {
            (1u16 << live) - 1
        };
        // Every tag in the block visible (and none behind the shared overflow bit).
        if bt & !self.bits == 0 && bt >> 63 == 0 {
            return Some(full);
        }
        let mut mask = 0u16;
        for r in 0..live {
            if self.allowed.get(m.tags[start + r] as usize) == Some(&true) {
                mask |= 1 << r;
            }
        }
        (mask != 0).then_some(mask)
    }

    /// Offers the lanes in `mask` of block `b`, in row order.
    #[inline(always)]
    fn offer_block(&mut self, b: usize, mut mask: u16, scores: &[f32; LANES]) {
        while mask != 0 {
            let r = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            self.offer(scores[r], b * LANES + r);
        }
    }

    #[inline(always)]
    fn offer(&mut self, s: f32, i: usize) {
        if self.heap.len() < self.want {
            self.heap.push(Reverse((OrdF32(s), i)));
            if self.heap.len() == self.want {
                self.floor = self.min();
            }
        } else if s > self.floor {
            self.heap.pop();
            self.heap.push(Reverse((OrdF32(s), i)));
            self.floor = self.min();
        }
    }

    fn min(&self) -> f32 {
        self.heap
            .peek()
            .map(|m| m.0 .0 .0)
            .unwrap_or(f32::NEG_INFINITY)
    }

    /// Candidate rows (any order: they are re-scored).
    pub(super) fn into_best(self) -> Vec<usize> {
        self.heap.into_iter().map(|r| r.0 .1).collect()
    }
}

#[derive(Clone, Copy, PartialEq)]
struct OrdF32(f32);
impl Eq for OrdF32 {}
impl PartialOrd for OrdF32 {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for OrdF32 {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&o.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The interleaved layout survives pushes, replacements and swap-removes: every row
    /// reads back as its quantised bytes, and block tag bits cover exactly the live rows.
    #[test]
    fn index_q8_layout_follows_edits() {
        let dim = 10; // not a multiple of 4: padding bytes stay zero
        let mut m = Mirror::new(dim);
        let row =
            |i: usize| -> Vec<f32> { (0..dim).map(|d| ((i * 7 + d) % 5) as f32 - 2.0).collect() };
        let mut want: Vec<(u32, Vec<f32>)> = Vec::new();
        for i in 0..40 {
            m.push((i % 3) as u32, &row(i));
            want.push(((i % 3) as u32, row(i)));
        }
        m.set(5, 9, &row(100));
        want[5] = (9, row(100));
        for i in [0usize, 17, 30] {
            m.swap_remove(i);
            want.swap_remove(i);
        }
        while m.n > 16 {
            m.swap_remove(m.n - 1);
            want.pop();
        }
        assert_eq!(m.n, want.len());
        for (i, (t, v)) in want.iter().enumerate() {
            let mut q = quantize(v).0;
            q.resize(m.dimp, 0);
            assert_eq!(m.read_bytes(i), q, "row {i}");
            assert_eq!(m.tags[i], *t);
        }
        assert_eq!(m.block_tags.len(), 1);
        let bits = want.iter().fold(0, |a, (t, _)| a | tag_bit(*t));
        assert_eq!(m.block_tags[0], bits);
        assert_eq!(m.data.len(), m.block_bytes());
    }
}
