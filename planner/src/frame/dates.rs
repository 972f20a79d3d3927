//! Dates written in a question ("8号", "3月8日", "Mar 8", "on the 8th", "2027-03-08"), as
//! much of the date as was written: the query's time point says the rest is the log's.

use std::sync::OnceLock;

use regex::Regex;

/// A calendar day, as much of it as the question wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Day {
    pub year: Option<u16>,
    pub month: Option<u8>,
    pub day: u8,
}

impl Day {
    /// As the query's `TimePoint` writes it: `YYYY-MM-DD`, `--MM-DD` or `---DD`.
    pub fn point(&self) -> String {
        match (self.year, self.month) {
            (Some(y), Some(m)) => format!("{y:04}-{m:02}-{:02}", self.day),
            (_, Some(m)) => format!("--{m:02}-{:02}", self.day),
            _ => format!("---{:02}", self.day),
        }
    }
}

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pat).expect("date regex literal is valid"))
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

fn month_of(name: &str) -> Option<u8> {
    let p = MONTHS.iter().position(|m| name.starts_with(m))?;
    u8::try_from(p + 1).ok()
}

fn day(year: Option<&str>, month: Option<u8>, d: &str) -> Option<Day> {
    let day: u8 = d.parse().ok()?;
    let year = match year {
        Some(y) => Some(y.parse().ok()?),
        None => None,
    };
    ((1..=31).contains(&day) && month.is_none_or(|m| (1..=12).contains(&m))).then_some(Day {
        year,
        month,
        day,
    })
}

/// Each date of the question outside the spans already taken, with its span (which it
/// then takes).
pub fn dates(text: &str, lower: &str, taken: &mut Vec<(usize, usize)>) -> Vec<(usize, usize, Day)> {
    let mut found = zh_dates(text);
    found.extend(en_dates(lower));
    found.sort_by_key(|&(s, e, _)| (s, std::cmp::Reverse(e)));
    let mut out = Vec::new();
    for (s, e, d) in found {
        if taken.iter().any(|&(a, b)| a < e && s < b) {
            continue;
        }
        taken.push((s, e));
        out.push((s, e, d));
    }
    out
}

/// "8号", "3月8日", "2027年3月8号"; not "8号机" (a machine's number) or "8日志".
fn zh_dates(text: &str) -> Vec<(usize, usize, Day)> {
    static ZH: OnceLock<Regex> = OnceLock::new();
    let mut found = Vec::new();
    let zh = re(
        &ZH,
        r"(?:(\d{4})\s*年\s*)?(?:(\d{1,2})\s*月\s*)?(\d{1,2})\s*[号日]",
    );
    for c in zh.captures_iter(text) {
        let m = c.get(0).expect("group 0 always matches");
        let next = text[m.end()..].chars().next();
        let prev = text[..m.start()].chars().next_back();
        if matches!(
            next,
            Some('机' | '线' | '楼' | '位' | '房' | '台' | '志' | '节' | '库')
        ) || prev.is_some_and(|c| c.is_ascii_digit())
        {
            continue;
        }
        let month = c.get(2).and_then(|x| x.as_str().parse().ok());
        if let Some(d) = day(c.get(1).map(|x| x.as_str()), month, &c[3]) {
            found.push((m.start(), m.end(), d));
        }
    }
    found
}

/// "2027-03-08", "Mar 8", "8 March", "on the 8th", "what about the 8th?".
fn en_dates(lower: &str) -> Vec<(usize, usize, Day)> {
    static ISO: OnceLock<Regex> = OnceLock::new();
    static MONTH_DAY: OnceLock<Regex> = OnceLock::new();
    static DAY_MONTH: OnceLock<Regex> = OnceLock::new();
    static NTH: OnceLock<Regex> = OnceLock::new();
    const MONTH: &str = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
    let mut found = Vec::new();
    let iso = re(&ISO, r"\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})\b");
    for c in iso.captures_iter(lower) {
        let m = c.get(0).expect("group 0 always matches");
        if let Some(d) = day(Some(&c[1]), c[2].parse().ok(), &c[3]) {
            found.push((m.start(), m.end(), d));
        }
    }
    let md = re(
        &MONTH_DAY,
        &format!(r"\b{MONTH}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}})\b)?"),
    );
    for c in md.captures_iter(lower) {
        let m = c.get(0).expect("group 0 always matches");
        if let Some(d) = day(c.get(3).map(|x| x.as_str()), month_of(&c[1]), &c[2]) {
            found.push((m.start(), m.end(), d));
        }
    }
    let dm = re(
        &DAY_MONTH,
        &format!(r"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}\b(?:,?\s+(\d{{4}})\b)?"),
    );
    for c in dm.captures_iter(lower) {
        let m = c.get(0).expect("group 0 always matches");
        // "top 10 may be wrong": "may" after a bare number is the verb.
        let bare = !m.as_str()[c[1].len()..].starts_with(|ch: char| ch.is_ascii_alphabetic());
        if &c[2] == "may" && bare && c.get(3).is_none() {
            continue;
        }
        if let Some(d) = day(c.get(3).map(|x| x.as_str()), month_of(&c[2]), &c[1]) {
            found.push((m.start(), m.end(), d));
        }
    }
    // "on the 8th", "what about the 8th?": a day of the month; "the 2nd one" is a list item.
    let nth = re(
        &NTH,
        r"\b(?:on\s+(?:the\s+)?|the\s+)(\d{1,2})(?:st|nd|rd|th)\b(\s*(?:$|[?.!,;)]|\s+(?:at|from|between|around|only|too|then|instead|between)\b))?",
    );
    for c in nth.captures_iter(lower) {
        let m = c.get(0).expect("group 0 always matches");
        let on = m.as_str().starts_with("on");
        if !on && c.get(2).is_none() {
            continue;
        }
        if let Some(d) = day(None, None, &c[1]) {
            found.push((m.start(), m.end(), d));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(text: &str) -> Vec<String> {
        dates(text, &text.to_ascii_lowercase(), &mut Vec::new())
            .iter()
            .map(|(_, _, d)| d.point())
            .collect()
    }

    #[test]
    fn dates_as_written_in_either_language() {
        assert_eq!(points("换成12号看看"), ["---12"]);
        assert_eq!(points("3月8日凌晨有多少 502"), ["--03-08"]);
        assert_eq!(points("2027年3月8号"), ["2027-03-08"]);
        assert_eq!(points("what about Mar 8?"), ["--03-08"]);
        assert_eq!(points("on March 8th, 2027"), ["2027-03-08"]);
        assert_eq!(points("errors on 8 March"), ["--03-08"]);
        assert_eq!(points("and on the 8th?"), ["---08"]);
        assert_eq!(points("what about the 8th?"), ["---08"]);
        assert_eq!(
            points("between 2027-03-08 and 2027/03/09"),
            ["2027-03-08", "2027-03-09"]
        );
    }

    #[test]
    fn numbers_that_are_not_dates() {
        for t in [
            "8号机的负载",
            "看一下 3 号线",
            "the 2nd one",
            "the 3rd result please",
            "2028号",
            "翻到第8日志",
            "top 10 may be wrong",
            "40 days",
        ] {
            assert!(points(t).is_empty(), "{t}: {:?}", points(t));
        }
    }
}
