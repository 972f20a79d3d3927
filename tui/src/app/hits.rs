//! Opening a search hit: its chunk (the file region the index stored, with its line
//! numbers) in the pager, the query terms highlighted, `n`/`p` between matches and `d` for
//! a download offer of the file. No request returns an arbitrary file region, so the
//! region is the chunk the server sent with the hit.

use super::pager::{Pager, Source};
use super::transcript::Level;
use super::{App, Modal};

/// Query words to highlight; a run of CJK longer than two characters also gives its
/// bigrams, as the index matches them.
pub fn terms(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in query.split_whitespace() {
        let w = w.trim_matches(|c: char| c.is_ascii_punctuation());
        if w.is_empty() {
            continue;
        }
        out.push(w.to_string());
        let chars: Vec<char> = w.chars().collect();
        if chars.len() > 2 && chars.iter().all(|c| !c.is_ascii()) {
            for pair in chars.windows(2) {
                out.push(pair.iter().collect());
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|t| seen.insert(t.clone()));
    // Longer terms first, so a match of the whole word wins over its bigrams.
    out.sort_by_key(|t| std::cmp::Reverse(t.len()));
    out
}

/// First line number of a hit position such as `lines 120-160`.
pub fn first_line(position: &str) -> Option<u64> {
    let rest = position.strip_prefix("lines ")?;
    rest.split('-').next()?.trim().parse().ok()
}

/// Enter in the Search pane.
pub fn open(app: &mut App) {
    let Some(h) = app.search.hits.get(app.search.selected) else {
        app.note(Level::Info, "no hit selected: /search <query> first");
        return;
    };
    let target = h.file_id.clone().unwrap_or_else(|| h.filepath.clone());
    let title = format!("{} · {} · {}", h.filepath, h.position, h.match_type);
    let mut p = Pager::new(
        title,
        h.chunk.lines().map(str::to_string).collect(),
        Source::Hit { target },
    );
    p.first_line = first_line(&h.position);
    p.save_name = format!("{}-excerpt.txt", h.filename);
    p.set_terms(terms(&app.search.query));
    let n = p.matches.len();
    app.modal = Some(Modal::Pager(Box::new(p)));
    app.note(
        Level::Info,
        format!("{n} matches · n/p move between them · d offers the file for download"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_and_line_numbers() {
        assert_eq!(terms("disk  full"), vec!["disk", "full"]);
        assert_eq!(terms("磁盘满"), vec!["磁盘满", "磁盘", "盘满"]);
        assert_eq!(first_line("lines 120-160"), Some(120));
        assert_eq!(first_line("page 3"), None);
    }
}
