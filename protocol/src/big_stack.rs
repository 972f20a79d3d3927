//! Test support: runs a proptest property on a thread with a big stack. Strategies for the
//! whole `Message` enum (one per message type, nested unions) need more than the 2 MiB a
//! test thread gets in debug builds.

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// Runs `property` on `cases` values of the strategy `make` builds (on the new thread:
/// strategies are not `Send`) on a 64 MiB-stack thread; panics with the minimal failing case
/// like `proptest!` does.
pub(crate) fn check<S>(
    cases: u32,
    make: impl FnOnce() -> S + Send + 'static,
    property: impl Fn(S::Value) -> Result<(), TestCaseError> + Send + 'static,
) where
    S: Strategy,
    S::Value: std::fmt::Debug,
{
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let mut runner = TestRunner::new(Config::with_cases(cases));
            if let Err(e) = runner.run(&make(), property) {
                panic!("{e}");
            }
        })
        .expect("spawns the property thread")
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
}
