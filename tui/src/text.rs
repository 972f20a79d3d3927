//! Display-width text helpers: wrapping styled spans to a width (CJK and emoji count two
//! columns), truncation with an ellipsis, and padding. Pure functions, no terminal access.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Columns a tab expands to in the transcript (tabs have no width of their own).
const TAB: &str = "    ";

pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

fn char_width(c: char) -> usize {
    UnicodeWidthChar::width(c).unwrap_or(0)
}

/// Cuts `s` to at most `max` columns, ending with `…` when something was cut.
pub fn truncate(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut w = 0;
    for c in s.chars() {
        let cw = char_width(c);
        if w + cw > max - 1 {
            break;
        }
        out.push(c);
        w += cw;
    }
    out.push('…');
    out
}

/// Cuts `s` to `max` columns in the middle (`…` where the cut is), keeping its start and
/// its end: command lines that differ only in their last arguments stay distinct.
pub fn truncate_middle(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    if max < 8 {
        return truncate(s, max);
    }
    let tail_w = (max - 1) * 2 / 5;
    let head_w = max - 1 - tail_w;
    let mut head = String::new();
    let mut w = 0;
    for c in s.chars() {
        let cw = char_width(c);
        if w + cw > head_w {
            break;
        }
        head.push(c);
        w += cw;
    }
    let mut tail: Vec<char> = Vec::new();
    let mut w = 0;
    for c in s.chars().rev() {
        let cw = char_width(c);
        if w + cw > tail_w {
            break;
        }
        tail.push(c);
        w += cw;
    }
    head.push('…');
    head.extend(tail.into_iter().rev());
    head
}

/// Pads `s` with spaces on the right to `w` columns (truncating if longer).
pub fn pad(s: &str, w: usize) -> String {
    let t = truncate(s, w);
    let tw = width(&t);
    format!("{t}{}", " ".repeat(w.saturating_sub(tw)))
}

/// Wraps styled spans to `width` columns. `first` prefixes the first row and `cont` every
/// continuation row (list indents, code-block borders). Breaks after spaces when it can and
/// anywhere otherwise (CJK text has no spaces). Always returns at least one row.
pub fn wrap(
    spans: &[Span<'static>],
    width: usize,
    first: &[Span<'static>],
    cont: &[Span<'static>],
) -> Vec<Line<'static>> {
    let pw_first: usize = first.iter().map(|s| s.width()).sum();
    let pw_cont: usize = cont.iter().map(|s| s.width()).sum();
    let mut cells: Vec<(char, Style)> = Vec::new();
    for s in spans {
        for c in s.content.chars() {
            if c == '\t' {
                cells.extend(TAB.chars().map(|t| (t, s.style)));
            } else {
                cells.push((c, s.style));
            }
        }
    }
    let mut rows: Vec<Vec<(char, Style)>> = Vec::new();
    let mut row: Vec<(char, Style)> = Vec::new();
    let mut row_w = 0usize;
    // Index in `row` just after the last space: where a soft break may go.
    let mut brk: Option<usize> = None;
    for (c, st) in cells {
        let avail = if rows.is_empty() {
            width.saturating_sub(pw_first)
        } else {
            width.saturating_sub(pw_cont)
        }
        .max(1);
        let cw = char_width(c);
        if row_w + cw > avail && !row.is_empty() {
            let rest = match brk {
                Some(b) if b > 0 && b < row.len() => row.split_off(b),
                _ => Vec::new(),
            };
            rows.push(std::mem::take(&mut row));
            row = rest;
            // Spaces that caused the break are not carried to the next row.
            if c == ' ' && row.is_empty() {
                row_w = 0;
                brk = None;
                continue;
            }
            row_w = row.iter().map(|(c, _)| char_width(*c)).sum();
            brk = None;
        }
        row.push((c, st));
        row_w += cw;
        if c == ' ' {
            brk = Some(row.len());
        }
    }
    rows.push(row);
    rows.into_iter()
        .enumerate()
        .map(|(i, r)| {
            let mut out: Vec<Span<'static>> = if i == 0 {
                first.to_vec()
            } else {
                cont.to_vec()
            };
            let mut cur = String::new();
            let mut cur_st: Option<Style> = None;
            for (c, st) in r {
                if cur_st != Some(st) {
                    if let Some(s) = cur_st {
                        out.push(Span::styled(std::mem::take(&mut cur), s));
                    }
                    cur_st = Some(st);
                }
                cur.push(c);
            }
            if let Some(s) = cur_st {
                out.push(Span::styled(cur, s));
            }
            Line::from(out)
        })
        .collect()
}

/// Renders a line's spans to plain text (tests and width checks).
pub fn line_text(l: &Line<'_>) -> String {
    l.spans.iter().map(|s| s.content.as_ref()).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_middle_cut_keeps_both_ends() {
        let a = truncate_middle("python3 worker.py --queue a", 20);
        let b = truncate_middle("python3 worker.py --queue b", 20);
        assert_eq!(width(&a), 20);
        assert_eq!(a, "python3 work…queue a");
        assert_ne!(a, b);
        assert_eq!(truncate_middle("short", 20), "short");
        assert_eq!(width(&truncate_middle("进程进程进程进程进程进程", 11)), 11);
    }

    use super::*;

    fn plain(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(line_text).collect()
    }

    #[test]
    fn wraps_words_and_cjk_by_display_width() {
        let l = wrap(&[Span::raw("hello world foo")], 11, &[], &[]);
        assert_eq!(plain(&l), vec!["hello ", "world foo"]);
        let l = wrap(&[Span::raw("你好世界你好")], 5, &[], &[]);
        assert_eq!(plain(&l), vec!["你好", "世界", "你好"]);
        for row in plain(&l) {
            assert!(width(&row) <= 5);
        }
        let l = wrap(
            &[Span::raw("abcdefgh")],
            6,
            &[Span::raw("> ")],
            &[Span::raw("  ")],
        );
        assert_eq!(plain(&l), vec!["> abcd", "  efgh"]);
    }

    #[test]
    fn wrap_never_returns_empty_and_survives_zero_width() {
        assert_eq!(wrap(&[], 10, &[], &[]).len(), 1);
        assert!(!wrap(&[Span::raw("abc")], 0, &[], &[]).is_empty());
    }

    #[test]
    fn truncate_and_pad_count_columns() {
        assert_eq!(truncate("你好世界", 5), "你好…");
        assert_eq!(truncate("abc", 3), "abc");
        assert_eq!(pad("ab", 4), "ab  ");
        assert_eq!(width(&pad("中文字", 5)), 5);
    }
}
