//! Times of day said as hours: "2 点 15 分", "两点半", "下午 3 点" are clocks, and "2 点多"
//! / "凌晨两点多" ("a bit past two"), "2am" and "11 pm" are the whole hour.

use std::sync::OnceLock;

use regex::Regex;

/// A time of day said as hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Said {
    /// A clock time (on a 24-hour clock).
    Clock { h: u8, m: u8 },
    /// The whole hour.
    Hour(u8),
}

/// The hour on a 24-hour clock: "10:47pm" is 22:47, "12:05am" 00:05, "下午 3:10" and
/// "晚上 10:47" are afternoon and evening times; "昨晚 3 点半" is half past three in the
/// night, after midnight (an evening is over by then).
pub(super) fn twelve_hour(h: u16, am_pm: Option<&str>, before: &str) -> u16 {
    const AFTERNOON: [&str; 2] = ["下午", "傍晚"];
    const NIGHT: [&str; 3] = ["晚上", "今晚", "昨晚"];
    let said = |words: &[&str]| words.iter().any(|w| before.trim_end().ends_with(w));
    let late = said(&AFTERNOON) || (said(&NIGHT) && h >= 6);
    match am_pm.map(|x| x.to_ascii_lowercase()) {
        Some(x) if x == "p" && h < 12 => h + 12,
        Some(x) if x == "a" && h == 12 => 0,
        None if late && (1..12).contains(&h) => h + 12,
        _ => h,
    }
}

fn re(cell: &'static OnceLock<Regex>, src: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(src).expect("a fixed, valid regex"))
}

/// A Chinese number of hours or minutes: digits, or 零 一 … 十 二十 两.
fn zh_number(s: &str) -> Option<u16> {
    if let Ok(n) = s.parse() {
        return Some(n);
    }
    let digit = |c: char| "零一二三四五六七八九".find(c).map(|i| (i / 3) as u16);
    let cs: Vec<char> = s
        .chars()
        .map(|c| if c == '两' { '二' } else { c })
        .collect();
    match cs.as_slice() {
        ['十'] => Some(10),
        [d] => digit(*d),
        ['十', d] => Some(10 + digit(*d)?),
        ['零', d] => digit(*d),
        [t, '十'] => Some(10 * digit(*t)?),
        [t, '十', d] => Some(10 * digit(*t)? + digit(*d)?),
        _ => None,
    }
}

/// The hours said in `text`, outside the `taken` spans (which they join): clocks, and whole
/// hours, with their spans.
pub(super) fn hours(text: &str, taken: &mut Vec<(usize, usize)>) -> Vec<(usize, usize, Said)> {
    let mut out = Vec::new();
    static ZH: OnceLock<Regex> = OnceLock::new();
    const N: &str = "[0-9]{1,2}|[零一二两三四五六七八九十]{1,3}";
    // Minutes with 分, or without it right after 点 when written as two digits ("3点17",
    // "两点05"), a tens numeral ("两点十五") or 零 and a digit ("两点零五"), and not followed by
    // a counter (个, 次, 条, %): "两点十个 500", "3点 50% 的请求" count, they tell no minute.
    let zh = re(
        &ZH,
        &format!(
            r"({N})\s*点(?:\s*(半)|\s*(多)|\s*({N})\s*分|([0-5][0-9]|[一二三四五]?十[一二三四五六七八九]?|零[一二三四五六七八九])(?:[^0-9个次条%％]|$)|钟)?"
        ),
    );
    static EN: OnceLock<Regex> = OnceLock::new();
    let en = re(&EN, r"(?i)\b(1[0-2]|0?[1-9])\s?([ap])\.?m\b\.?");
    let free =
        |taken: &[(usize, usize)], s: usize, e: usize| !taken.iter().any(|&(a, b)| a < e && s < b);
    for c in zh.captures_iter(text) {
        let whole = c.get(0).expect("group 0 always matches");
        let Some(h) = c.get(1).and_then(|m| zh_number(m.as_str())) else {
            continue;
        };
        // "前 3 点" is no time; a question word before it neither.
        if h > 23 || !free(taken, whole.start(), whole.end()) {
            continue;
        }
        let h = twelve_hour(h, None, &text[..whole.start()]) as u8;
        let minute = match (c.get(2), c.get(4).or(c.get(5))) {
            (Some(_), _) => Some(30),
            (_, Some(m)) => zh_number(m.as_str()).filter(|m| *m < 60),
            _ => Some(0),
        };
        // The character after unwritten 分 is not the clock's.
        let whole_end = c.get(5).map_or(whole.end(), |m| m.end());
        let said = match (c.get(3), minute) {
            (Some(_), _) => Said::Hour(h),
            (None, Some(m)) => Said::Clock { h, m: m as u8 },
            (None, None) => continue,
        };
        taken.push((whole.start(), whole_end));
        out.push((whole.start(), whole_end, said));
    }
    for c in en.captures_iter(text) {
        let whole = c.get(0).expect("group 0 always matches");
        let Some(h) = c.get(1).and_then(|m| m.as_str().parse::<u16>().ok()) else {
            continue;
        };
        if !free(taken, whole.start(), whole.end()) {
            continue;
        }
        let h = twelve_hour(h, c.get(2).map(|m| m.as_str()), "") as u8;
        taken.push((whole.start(), whole.end()));
        // "3am" says the hour, not its first minute.
        out.push((whole.start(), whole.end(), Said::Hour(h)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(text: &str) -> Vec<Said> {
        hours(text, &mut Vec::new())
            .into_iter()
            .map(|s| s.2)
            .collect()
    }

    fn clock(h: u8, m: u8) -> Said {
        Said::Clock { h, m }
    }

    #[test]
    fn hours_in_chinese_and_english() {
        assert_eq!(said("2 点多支付开始报错"), vec![Said::Hour(2)]);
        assert_eq!(said("凌晨两点多"), vec![Said::Hour(2)]);
        assert_eq!(said("下午三点半"), vec![clock(15, 30)]);
        assert_eq!(said("十一点二十分"), vec![clock(11, 20)]);
        assert_eq!(said("3点17左右出了什么事"), vec![clock(3, 17)]);
        assert_eq!(said("两点十五左右"), vec![clock(2, 15)]);
        assert_eq!(said("凌晨2点05"), vec![clock(2, 5)]);
        assert_eq!(said("3点 5 次"), vec![clock(3, 0)]);
        assert_eq!(said("两点零五"), vec![clock(2, 5)]);
        assert_eq!(said("凌晨3点 12 次 502"), vec![clock(3, 0)]);
        assert_eq!(said("两点十个 500 错误"), vec![clock(2, 0)]);
        assert_eq!(said("3点 50% 的请求"), vec![clock(3, 0)]);
        assert_eq!(said("3点05分"), vec![clock(3, 5)]);
        assert_eq!(said("晚上 10 点"), vec![clock(22, 0)]);
        assert_eq!(said("昨晚 3 点半"), vec![clock(3, 30)]);
        assert_eq!(said("下午 3 点"), vec![clock(15, 0)]);
        assert_eq!(said("around 2am"), vec![Said::Hour(2)]);
        assert_eq!(said("at 11 pm"), vec![Said::Hour(23)]);
        assert_eq!(said("12am"), vec![Said::Hour(0)]);
        assert!(said("几点开始的").is_empty());
        assert!(said("top 3 paths, 5 pm2 instances").is_empty());
    }
}
