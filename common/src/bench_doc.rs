//! `docs/benchmarks.md` section by section: each bench owns the text between
//! `<!-- bench:NAME:begin -->` and `<!-- bench:NAME:end -->` and rewrites only that, with
//! the CPU, the command and the date at its head; every other section, and anything
//! outside the markers, is left as it was. A section not in the file yet is appended.

use std::path::Path;

/// One bench's section.
pub struct Section<'a> {
    /// The marker name (`index-search`): letters, digits and `-` only.
    pub name: &'a str,
    /// The `##` heading.
    pub title: &'a str,
    /// The command that regenerates it.
    pub command: &'a str,
    /// The markdown under the heading.
    pub body: &'a str,
}

fn markers(name: &str) -> (String, String) {
    (
        format!("<!-- bench:{name}:begin -->"),
        format!("<!-- bench:{name}:end -->"),
    )
}

/// The CPU model (from /proc/cpuinfo) and the number of logical CPUs.
pub fn cpu() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info
        .lines()
        .find_map(|l| l.strip_prefix("model name")?.split_once(':').map(|x| x.1))
        .map(str::trim)
        .unwrap_or("unknown CPU");
    let n = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{model}, {n} logical CPUs")
}

/// Today's date (UTC), `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The section as it is written between its markers (heading, provenance line, body).
pub fn render(s: &Section, cpu: &str, date: &str) -> String {
    let (begin, end) = markers(s.name);
    format!(
        "{begin}\n## {}\n\nCommand: `{}`. CPU: {cpu}. Date: {date}.\n\n{}\n{end}",
        s.title,
        s.command,
        s.body.trim_matches('\n')
    )
}

/// `doc` with `s`'s section replaced (or appended), the rest untouched.
pub fn splice(doc: &str, s: &Section, cpu: &str, date: &str) -> String {
    let (begin, end) = markers(s.name);
    let new = render(s, cpu, date);
    match (doc.find(&begin), doc.find(&end)) {
        (Some(a), Some(b)) if b > a => format!("{}{new}{}", &doc[..a], &doc[b + end.len()..]),
        _ => format!("{}\n\n{new}\n", doc.trim_end_matches('\n')),
    }
}

/// Rewrites `s`'s section of the file at `path` (written beside and renamed: an
/// interrupted bench leaves the old file whole).
pub fn write(path: &Path, s: &Section) -> std::io::Result<()> {
    let old = std::fs::read_to_string(path).unwrap_or_default();
    let new = splice(&old, s, &cpu(), &today());
    let tmp = path.with_extension("md.tmp");
    std::fs::write(&tmp, new)?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sec<'a>(name: &'a str, body: &'a str) -> Section<'a> {
        Section {
            name,
            title: "T",
            command: "cargo bench",
            body,
        }
    }

    #[test]
    fn a_section_is_replaced_in_place_and_the_rest_kept() {
        let doc = "# Benchmarks\n\nintro\n";
        let one = splice(doc, &sec("a", "first"), "cpu", "2026-01-01");
        let two = splice(&one, &sec("b", "other"), "cpu", "2026-01-01");
        let three = splice(&two, &sec("a", "second\n"), "cpu2", "2026-01-02");
        assert!(three.starts_with("# Benchmarks\n\nintro\n\n<!-- bench:a:begin -->"));
        assert!(three.contains("second\n<!-- bench:a:end -->"), "{three}");
        assert!(!three.contains("first"));
        assert!(three.contains("Command: `cargo bench`. CPU: cpu2. Date: 2026-01-02."));
        // b untouched and still after a.
        let b = three.find("<!-- bench:b:begin -->").expect("b kept");
        assert!(b > three.find("<!-- bench:a:end -->").expect("a"));
        assert!(three.contains("other\n<!-- bench:b:end -->"));
        assert_eq!(three.matches("bench:a:begin").count(), 1);
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(today().len(), 10);
    }
}
