//! Dates written in a question ("8号", "3月8日", "Mar 8", "on the 8th", "2027-03-08") and
//! whole months ("in December", "12月份"), as much of the date as was written: the query's
//! time point says the rest is the log's.

use std::sync::OnceLock;

use regex::Regex;

/// A calendar day or a whole month, as much of it as the question wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Day {
    Date {
        year: Option<u16>,
        month: Option<u8>,
        day: u8,
    },
    Month {
        year: Option<u16>,
        month: u8,
    },
}

impl Day {
    /// As the query's `TimePoint` writes it: `YYYY-MM-DD`, `--MM-DD` or `---DD`; a month
    /// `YYYY-MM` or `--MM`.
    pub fn point(&self) -> String {
        match *self {
            Day::Date {
                year: Some(y),
                month: Some(m),
                day,
            } => format!("{y:04}-{m:02}-{day:02}"),
            Day::Date {
                month: Some(m),
                day,
                ..
            } => format!("--{m:02}-{day:02}"),
            Day::Date { day, .. } => format!("---{day:02}"),
            Day::Month {
                year: Some(y),
                month,
            } => format!("{y:04}-{month:02}"),
            Day::Month { month, .. } => format!("--{month:02}"),
        }
    }
}

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pat).expect("date regex literal is valid"))
}

/// A month's name or its short form, as one group.
const MONTH: &str = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";

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
    ((1..=31).contains(&day) && month.is_none_or(|m| (1..=12).contains(&m))).then_some(Day::Date {
        year,
        month,
        day,
    })
}

/// A whole month: its number and, when written, its year.
fn month(year: Option<&str>, m: u8) -> Option<Day> {
    let year = match year {
        Some(y) => Some(y.parse().ok()?),
        None => None,
    };
    (1..=12)
        .contains(&m)
        .then_some(Day::Month { year, month: m })
}

/// Each date of the question outside the spans already taken, with its span (which it
/// then takes).
pub fn dates(text: &str, lower: &str, taken: &mut Vec<(usize, usize)>) -> Vec<(usize, usize, Day)> {
    let mut found = zh_dates(text);
    found.extend(en_dates(lower));
    found.sort_by_key(|&(s, e, _)| (s, std::cmp::Reverse(e)));
    // A day first, then a whole month where no day was read ("in March" of "in March 8").
    let mut months = zh_months(text);
    months.extend(en_months(lower));
    let mut out = Vec::new();
    for (s, e, d) in found.into_iter().chain(months) {
        if taken.iter().any(|&(a, b)| a < e && s < b) {
            continue;
        }
        taken.push((s, e));
        out.push((s, e, d));
    }
    out
}

/// "12月", "12月份", "2026年3月": a month with no day after it (not "3个月", a length).
fn zh_months(text: &str) -> Vec<(usize, usize, Day)> {
    static ZH: OnceLock<Regex> = OnceLock::new();
    let zh = re(&ZH, r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月(?:份)?");
    let mut found = Vec::new();
    for c in zh.captures_iter(text) {
        let m = c.get(0).expect("group 0 always matches");
        let prev = text[..m.start()].chars().next_back();
        let next = text[m.end()..].trim_start().chars().next();
        if prev.is_some_and(|c| c.is_ascii_digit()) || next.is_some_and(|c| c.is_ascii_digit()) {
            continue;
        }
        if let Some(d) = c[2]
            .parse()
            .ok()
            .and_then(|m| month(c.get(1).map(|y| y.as_str()), m))
        {
            found.push((m.start(), m.end(), d));
        }
    }
    found
}

/// "in December", "during March 2027", "for the month of May", "December's errors": a
/// month named with a word that makes it a time ("may" only so: it is also a verb).
fn en_months(lower: &str) -> Vec<(usize, usize, Day)> {
    static EN: OnceLock<Regex> = OnceLock::new();
    let en = re(
        &EN,
        &format!(
            r"\b(?:(?:in|during|for|throughout|over|of)\s+(?:the\s+month\s+of\s+)?{MONTH}\b(?:,?\s+(\d{{4}})\b)?|{MONTH}(?:'s|\s+(\d{{4}}))\b)"
        ),
    );
    let mut found = Vec::new();
    for c in en.captures_iter(lower) {
        let m = c.get(0).expect("group 0 always matches");
        let (name, year) = match c.get(1) {
            Some(n) => (n.as_str(), c.get(2)),
            None => (c.get(3).map_or("", |n| n.as_str()), c.get(4)),
        };
        // A short form ("jan", "dec") may be a name and "may" a verb: either is a month
        // only after "in"/"during"/"throughout" or with its year ("stats for jan" is a
        // user's).
        const FULL: [&str; 11] = [
            "january",
            "february",
            "march",
            "april",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ];
        let lead = m.as_str().split_whitespace().next().unwrap_or("");
        let sure = FULL.contains(&name)
            || year.is_some()
            || matches!(lead, "in" | "during" | "throughout");
        if !sure {
            continue;
        }
        if let Some(d) = month_of(name).and_then(|n| month(year.map(|y| y.as_str()), n)) {
            found.push((m.start(), m.end(), d));
        }
    }
    found
}

/// "8号", "3月8日", "2027年3月8号"; not "8号机" (a machine's number), "1 号进程" or "8日志".
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
        // "1 号进程", "2 号盘": a bare day number before a numbered thing, spaced or not.
        let bare = c.get(1).is_none() && c.get(2).is_none();
        let numbered = text[m.end()..].trim_start().chars().next();
        if matches!(
            next,
            Some('机' | '线' | '楼' | '位' | '房' | '台' | '志' | '节' | '库')
        ) || (bare && matches!(numbered, Some('进' | '盘' | '槽')))
            || prev.is_some_and(|c| c.is_ascii_digit())
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
    let dated = found.clone();
    for c in nth.captures_iter(lower) {
        let m = c.get(0).expect("group 0 always matches");
        // "the 22nd of September" is read with its month.
        if dated.iter().any(|&(s, e, _)| s < m.end() && m.start() < e) {
            continue;
        }
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
        assert_eq!(points("1 号的日志"), ["---01"]);
        assert_eq!(points("3月8号 线上 502 有多少"), ["--03-08"]);
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
        assert_eq!(points("what failed on the 3rd of june?"), ["--06-03"]);
    }

    #[test]
    fn whole_months_in_either_language() {
        assert_eq!(points("errors in November"), ["--11"]);
        assert_eq!(points("during feb 2029, how many restarts"), ["2029-02"]);
        assert_eq!(points("october's slowest call"), ["--10"]);
        assert_eq!(points("during may"), ["--05"]);
        assert_eq!(points("in dec"), ["--12"]);
        assert_eq!(points("11月份有多少次重启"), ["--11"]);
        assert_eq!(points("2029年2月的告警"), ["2029-02"]);
        // A day wins over its month; a length in months and a verb are no month.
        assert_eq!(points("in March 8th's log"), ["--03-08"]);
        assert_eq!(points("3月8日的告警"), ["--03-08"]);
        for t in [
            "过去3个月",
            "you may see",
            "in 2 months",
            "it may fail",
            "logins for jan",
            "the month of may",
        ] {
            assert!(points(t).is_empty(), "{t}: {:?}", points(t));
        }
    }

    #[test]
    fn numbers_that_are_not_dates() {
        for t in [
            "8号机的负载",
            "看一下 3 号线",
            "1 号进程是什么",
            "2号盘满了吗",
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
