//! A .NET console log (Microsoft.Extensions.Logging's simple formatter) planted event by
//! event: levels, categories, exceptions and the figures in messages match the planted
//! ones, each event read with its indented lines.

use std::collections::BTreeMap;

use llmops_common::query::Measure;

use super::tests_formats::{count, eq, format_of, groups, stat, Lcg};

#[test]
fn dotnet_console_events_span_their_indented_lines() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "intake.log";
    let levels = ["info", "info", "info", "dbug", "warn", "fail", "crit"];
    let exceptions = ["System.TimeoutException", "Npgsql.NpgsqlException"];
    let mut rng = Lcg(19);
    let mut text = String::new();
    let (mut failed, mut by_exception, mut took) = (0u64, BTreeMap::new(), Vec::new());
    for i in 0..500u32 {
        let level = levels[rng.next(7) as usize];
        let ms = 3 + rng.next(2000);
        let clock = format!("2031-08-03 04:{:02}:{:02}", i / 60 % 60, i % 60);
        if level == "fail" || level == "crit" {
            failed += 1;
            let ex = exceptions[rng.next(2) as usize];
            *by_exception.entry(ex.to_string()).or_insert(0u64) += 1;
            text.push_str(&format!(
                "{clock} {level}: Intake.Api.Store[1002]\n      Storing batch B-{i} failed\n      {ex}: Timed out after {ms} ms\n         at Intake.Api.Store.Save(Batch b) in /src/Store.cs:line 41\n         at Intake.Api.Worker.Run() in /src/Worker.cs:line 12\n"
            ));
        } else {
            took.push(ms as f64);
            text.push_str(&format!(
                "{clock} {level}: Intake.Api.Worker[1001]\n      Stored batch B-{i} took={ms} ms\n"
            ));
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "dotnet_console");
    let errors =
        count(d, name, vec![eq("level", "ERROR")]) + count(d, name, vec![eq("level", "CRITICAL")]);
    assert_eq!(errors, failed);
    assert_eq!(groups(d, name, Vec::new(), "exception"), by_exception);
    let mean = took.iter().sum::<f64>() / took.len() as f64;
    // In the unit the log writes after the number.
    let got = stat(d, name, Measure::Mean, "took");
    assert!((got - mean).abs() < 1e-9, "{got} vs {mean} ms");
}
