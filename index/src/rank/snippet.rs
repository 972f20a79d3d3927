//! The part of a chunk a hit shows: the lines that hold most of the question.

use super::words::{in_name, ChunkWords};

/// A chunk's text from the start of the line holding its first non-blank character: the
/// line a chunk's `first_line` numbers.
pub(crate) fn from_first_line(text: &str) -> &str {
    let lead = text.len() - text.trim_start().len();
    &text[text[..lead].rfind('\n').map_or(0, |i| i + 1)..]
}

/// The most relevant part of a chunk, at most `max_chars`, and its 1-based line range
/// (the chunk's first non-blank line is `first_line`): the lines that fit in `max_chars`
/// from a start line, the start whose lines `covered` scores best (the question's words
/// in them, the file's name and title counting in each; none: every start alike), then
/// whose first line holds the most of the distinct `tokens` (a token the lower-cased file
/// name `name_lower` or title `title_lower` holds counting half: `nginx` on any line of
/// nginx.conf says less than `timeout`), then the first.
pub fn snippet(
    text: &str,
    first_line: u32,
    tokens: &[String],
    name_lower: &str,
    title_lower: &str,
    max_chars: usize,
    covered: Option<&dyn Fn(&ChunkWords) -> f32>,
) -> (String, u32, u32) {
    let weighted = weigh(tokens, name_lower, title_lower);
    let body = from_first_line(text);
    let lines: Vec<&str> = body.lines().collect();
    if lines.is_empty() {
        return (String::new(), first_line, first_line);
    }
    let low: Vec<String> = lines.iter().map(|l| l.trim().to_lowercase()).collect();
    let start = best_start(&low, &weighted, max_chars, covered, name_lower, title_lower);
    let (out, last) = shown(&lines, start, max_chars);
    (out, first_line + start as u32, first_line + last as u32)
}

/// Each distinct token once (a question's word and the same word in its translation
/// counted twice made `nginx` outweigh `timeout`), with its weight: half for a token the
/// file's name or title holds.
fn weigh<'a>(tokens: &'a [String], name_lower: &str, title_lower: &str) -> Vec<(&'a str, f32)> {
    let mut weighted: Vec<(&str, f32)> = Vec::new();
    for t in tokens {
        if !weighted.iter().any(|(w, _)| *w == t.as_str()) {
            let about =
                in_name(name_lower, t) || (!t.is_empty() && title_lower.contains(t.as_str()));
            let w = if about { 0.5 } else { 1.0 };
            weighted.push((t.as_str(), w));
        }
    }
    weighted
}

/// The lines shown from start `i` of the lower-cased lines `low`: non-blank ones while
/// they fit in `max_chars` (the first always).
fn window(low: &[String], i: usize, max_chars: usize) -> String {
    let (mut w, mut chars) = (String::new(), 0usize);
    for l in low[i..].iter().filter(|l| !l.is_empty()) {
        let n = l.chars().count();
        if !w.is_empty() {
            if chars + 1 + n > max_chars {
                break;
            }
            w.push('\n');
            chars += 1;
        }
        w.push_str(l);
        chars += n;
    }
    w
}

/// The start line whose window `covered` scores best (the file's name and title counting
/// in each), then whose own line holds the most `weighted` tokens, then the first.
fn best_start(
    low: &[String],
    weighted: &[(&str, f32)],
    max_chars: usize,
    covered: Option<&dyn Fn(&ChunkWords) -> f32>,
    name_lower: &str,
    title_lower: &str,
) -> usize {
    let mut best = (0usize, (f32::MIN, f32::MIN));
    for (i, l) in low.iter().enumerate() {
        if l.is_empty() {
            continue;
        }
        let first: f32 = weighted
            .iter()
            .filter(|(t, _)| l.contains(t))
            .map(|(_, w)| w)
            .sum();
        let cov = covered.map_or(0.0, |c| {
            c(&ChunkWords::new(&window(low, i, max_chars), name_lower).with_context(title_lower))
        });
        let key = (cov, first);
        if key.0 > best.1 .0 || (key.0 == best.1 .0 && key.1 > best.1 .1) {
            best = (i, key);
        }
    }
    best.0
}

/// The trimmed non-blank lines from `start` that fit in `max_chars` (the last one cut to
/// fit), and the index of the last line shown.
fn shown(lines: &[&str], start: usize, max_chars: usize) -> (String, usize) {
    let mut out = String::new();
    let mut count = 0usize;
    let mut last = start;
    for (i, l) in lines.iter().enumerate().skip(start) {
        let l = l.trim();
        if l.is_empty() {
            continue;
        }
        let room = max_chars.saturating_sub(count + usize::from(!out.is_empty()));
        if room == 0 {
            break;
        }
        if !out.is_empty() {
            out.push('\n');
            count += 1;
        }
        let part: String = l.chars().take(room).collect();
        count += part.chars().count();
        out.push_str(&part);
        last = i;
    }
    (out, last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::{simple_tokens, TypedWords};

    #[test]
    fn index_rank_snippet_shows_the_lines_that_hold_the_question() {
        let text = "\n\nalpha\nbeta gamma\nport: 5432 database\nlast";
        let (s, a, b) = snippet(text, 3, &simple_tokens("database port"), "", "", 200, None);
        assert_eq!(s, "port: 5432 database\nlast");
        assert_eq!((a, b), (5, 6));
        let (s, _, _) = snippet(&"x".repeat(500), 1, &[], "", "", 200, None);
        assert_eq!(s.chars().count(), 200);
        // A word said twice (the question's and its translation's) counts once, and the
        // file's own name counts half: the timeout line, not the line naming nginx.
        let conf = "location / {\n    proxy_read_timeout 20s;\n}\nroot /usr/share/nginx/html;";
        let toks: Vec<String> = ["nginx", "timeout", "nginx"].map(String::from).to_vec();
        let (s, a, _) = snippet(conf, 10, &toks, "nginx.conf", "", 200, None);
        assert!(s.starts_with("proxy_read_timeout"), "{s}");
        assert_eq!(a, 11);
        // With the question's coverage: the start whose 200 characters hold most of it.
        // Line 1 holds `timeout` and fills a window of its own (204 characters); lines 3-5
        // hold both words.
        let text = format!(
            "timeout notes {}\nfiller\nread timeout: 30s\nretries: 3\nmax retries apply",
            "x".repeat(190)
        );
        let typed = TypedWords::new(&simple_tokens("timeout retries"));
        let covered = |w: &ChunkWords| typed.coverage_in(w);
        let toks = simple_tokens("timeout retries");
        let (s, a, _) = snippet(&text, 1, &toks, "", "", 200, None);
        assert_eq!(a, 1, "{s}");
        let (s, a, _) = snippet(&text, 1, &toks, "", "", 200, Some(&covered));
        assert_eq!(a, 3, "{s}");
        assert!(s.starts_with("read timeout: 30s\nretries: 3"), "{s}");
        assert_eq!(simple_tokens("数据库 the nginx"), ["数据", "据库", "nginx"]);
    }
}
