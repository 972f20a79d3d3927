//! Planted-truth checks of learned layouts of structured text: a bracketed level padded to
//! one width after an ISO time and a module ending in `:`.

use super::tests_formats::Lcg;
use super::tests_learn::{check, Planted, LEVELS};

/// An ISO time, a bracketed level padded to one width and a module ending in `:` (a Go
/// agent's structured text): the bracket is the level, never a syslog host.
#[test]
fn a_bracketed_padded_level_after_an_iso_time_is_the_level_not_a_host() {
    let mut rng = Lcg(41);
    let (mut text, mut planted) = (String::new(), Planted::default());
    for i in 0..300u64 {
        let level = LEVELS[rng.next(4) as usize];
        let module = ["relay.raft", "relay.http", "relay"][rng.next(3) as usize];
        text += &format!(
            "2026-11-30T09:{:02}:{:02}.{:03}Z {:<7} {module}: step done: index={i} peer=10.0.0.{}:8300\n",
            i / 60 % 60,
            i % 60,
            rng.next(1000),
            format!("[{level}]"),
            rng.next(9)
        );
        planted.events += 1;
        planted.add("level", level);
        planted.add("logger", module);
    }
    check(&text, &planted, "learned");
}
