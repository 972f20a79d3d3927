//! Which CPU kernels run, chosen at run time: every kernel of the embedding engine and of
//! the int8 vector scan is built into every binary, from a baseline x86-64 one (SSE2 to
//! SSE4.2, no AVX) up, and the best one this CPU has is taken unless `LLMOPS_KERNEL`
//! (`baseline`, `avx2`, `avx512`, `amx`) forces one. Nothing in the build looks at the
//! build machine's CPU, so a binary built anywhere runs anywhere.

use std::sync::OnceLock;

/// A kernel level, each a superset of the one before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kernel {
    /// Plain x86-64 (or any other architecture): no AVX.
    Baseline,
    /// AVX2 + FMA (x86-64-v3).
    Avx2,
    /// AVX-512 F/BW/DQ/VL with VNNI int8 dot products (x86-64-v4 + VNNI).
    Avx512,
    /// AMX-INT8 tiles for the matrix products, on top of `Avx512` with BF16.
    Amx,
}

/// The environment variable that forces a kernel level.
pub const KERNEL_ENV: &str = "LLMOPS_KERNEL";

impl Kernel {
    /// Every level, slowest first.
    pub const ALL: [Kernel; 4] = [Kernel::Baseline, Kernel::Avx2, Kernel::Avx512, Kernel::Amx];

    /// The name `LLMOPS_KERNEL` takes and the bench prints.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Baseline => "baseline",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
            Kernel::Amx => "amx",
        }
    }

    pub fn parse(s: &str) -> Option<Kernel> {
        Kernel::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
    }

    /// Whether this CPU (and, for AMX, the OS) can run the level.
    pub fn supported(self) -> bool {
        match self {
            Kernel::Baseline => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("fma")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("f16c")
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                Kernel::Avx2.supported()
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512dq")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                    && std::arch::is_x86_feature_detected!("avx512cd")
                    && std::arch::is_x86_feature_detected!("avx512vnni")
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Amx => {
                Kernel::Avx512.supported()
                    && std::arch::is_x86_feature_detected!("avx512bf16")
                    && amx::usable()
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The levels this CPU runs, slowest (the baseline) first.
    pub fn available() -> Vec<Kernel> {
        Kernel::ALL.into_iter().filter(|k| k.supported()).collect()
    }

    /// The best level this CPU runs.
    pub fn best() -> Kernel {
        Kernel::available().pop().unwrap_or(Kernel::Baseline)
    }

    /// The level to run: `LLMOPS_KERNEL` when set, else the best this CPU has. Read once
    /// per process; an unknown name or a level this CPU lacks is an error, not a crash.
    pub fn selected() -> Result<Kernel, KernelError> {
        static CHOICE: OnceLock<Result<Kernel, KernelError>> = OnceLock::new();
        CHOICE
            .get_or_init(|| Kernel::choose(std::env::var(KERNEL_ENV).ok().as_deref()))
            .clone()
    }

    /// The level `forced` (an `LLMOPS_KERNEL` value) asks for, or the best.
    pub fn choose(forced: Option<&str>) -> Result<Kernel, KernelError> {
        let Some(name) = forced.filter(|s| !s.trim().is_empty()) else {
            return Ok(Kernel::best());
        };
        let k = Kernel::parse(name).ok_or_else(|| KernelError::Unknown(name.to_string()))?;
        if !k.supported() {
            return Err(KernelError::Unsupported(k));
        }
        Ok(k)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KernelError {
    #[error("{KERNEL_ENV}={0}: not a kernel level (baseline, avx2, avx512 or amx) / 不是内核级别")]
    Unknown(String),
    #[error(
        "{KERNEL_ENV}={}: this CPU (or OS) cannot run it / 此 CPU 不支持该内核",
        .0.name()
    )]
    Unsupported(Kernel),
}

#[cfg(target_arch = "x86_64")]
mod amx {
    /// CPUID reports AMX-TILE and AMX-INT8, and Linux grants this process the tile state
    /// (`arch_prctl(ARCH_REQ_XCOMP_PERM)`; asked once, kept for the process).
    pub(super) fn usable() -> bool {
        // Leaf 0's maximum first: leaf 7 exists on the CPUs that report it.
        let max = std::arch::x86_64::__cpuid(0).eax;
        if max < 7 {
            return false;
        }
        let l7 = std::arch::x86_64::__cpuid_count(7, 0);
        let (tile, int8) = (l7.edx & (1 << 24) != 0, l7.edx & (1 << 25) != 0);
        tile && int8 && request_tiles()
    }

    #[cfg(target_os = "linux")]
    fn request_tiles() -> bool {
        const ARCH_REQ_XCOMP_PERM: libc::c_long = 0x1023;
        const XFEATURE_XTILEDATA: libc::c_long = 18;
        // SAFETY: a plain syscall with integer arguments; it changes nothing but this
        // process's permission to use the tile registers.
        let rc = unsafe {
            libc::syscall(
                libc::SYS_arch_prctl,
                ARCH_REQ_XCOMP_PERM,
                XFEATURE_XTILEDATA,
            )
        };
        rc == 0
    }

    #[cfg(not(target_os = "linux"))]
    fn request_tiles() -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_kernels_choose_by_name_and_refuse_what_the_cpu_lacks() {
        assert_eq!(Kernel::choose(None), Ok(Kernel::best()));
        assert_eq!(Kernel::choose(Some("")), Ok(Kernel::best()));
        assert_eq!(Kernel::choose(Some("baseline")), Ok(Kernel::Baseline));
        assert_eq!(
            Kernel::choose(Some(" AVX2 ")).is_ok(),
            Kernel::Avx2.supported()
        );
        assert!(matches!(
            Kernel::choose(Some("sse9")),
            Err(KernelError::Unknown(_))
        ));
        for k in Kernel::ALL {
            assert_eq!(Kernel::parse(k.name()), Some(k));
            match Kernel::choose(Some(k.name())) {
                Ok(got) => assert!(got == k && k.supported()),
                Err(e) => {
                    assert_eq!(e, KernelError::Unsupported(k));
                    assert!(e.to_string().contains(k.name()), "{e}");
                }
            }
        }
        // The levels are nested: a CPU that runs one runs every one below it.
        let avail = Kernel::available();
        assert_eq!(avail.first(), Some(&Kernel::Baseline));
        assert!(avail.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            avail.len(),
            Kernel::ALL.iter().take_while(|k| k.supported()).count()
        );
    }
}
