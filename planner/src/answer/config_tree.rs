//! Answers about uploaded configs read as trees: the value of the key asked for (then its
//! line, then the block it sits in), the nearest keys as "did you mean" when no key is the
//! one asked for (never as the answer), a block's children counted or listed.

use crate::config::find::{self, Found, Hit, Index};
use crate::config::words::{self, Question, Shape};
use crate::config::{self, show, Tree};
use crate::text::Lang;

/// Most nodes listed in one answer.
const LIST_MAX: usize = 20;
/// Most children of a block shown when the block itself is asked for.
const BLOCK_MAX: usize = 12;

/// One config file's name and text.
#[derive(Debug, Clone, Copy)]
pub struct ConfigText<'a> {
    pub name: &'a str,
    pub content: &'a str,
}

/// The answer from the configs' trees; `None` when no file reads as a config or no key
/// holds any of the question's words (the caller answers from the lines instead).
pub fn answer(files: &[ConfigText], question: &str, lang: Lang) -> Option<String> {
    let q = words::question(question);
    if q.terms.is_empty() {
        return None;
    }
    let trees: Vec<(&str, Tree)> = files
        .iter()
        .filter_map(|f| Some((f.name, config::parse(f.content, f.name)?)))
        .collect();
    let ixs: Vec<Index> = trees.iter().map(|(n, t)| Index::new(t, n)).collect();
    let found: Vec<Found> = ixs.iter().map(|ix| find::find(ix, &q)).collect();
    if let Some(text) = exact(&ixs, &found, &q, lang) {
        return Some(text);
    }
    let mut near: Vec<(usize, &Hit)> = found
        .iter()
        .enumerate()
        .filter_map(|(f, x)| match x {
            Found::Near(h) => Some(h.iter().map(move |h| (f, h))),
            _ => None,
        })
        .flatten()
        .collect();
    if near.is_empty() {
        return None;
    }
    near.sort_by(|a, b| b.1.score.total_cmp(&a.1.score));
    near.truncate(3);
    Some(did_you_mean(&ixs, &near, &q, lang))
}

/// Whether one of the configs holds the key asked for (the lookup reads no further).
pub fn answers_exactly(files: &[ConfigText], question: &str) -> bool {
    let q = words::question(question);
    !q.terms.is_empty()
        && files.iter().any(|f| {
            config::parse(f.content, f.name)
                .is_some_and(|t| matches!(find::find(&Index::new(&t, f.name), &q), Found::Exact(_)))
        })
}

/// The exact answer across files: for a value, the best-scoring nodes of all files; for a
/// count or list, the nodes of the file that answers best.
fn exact(ixs: &[Index], found: &[Found], q: &Question, lang: Lang) -> Option<String> {
    let hits: Vec<(usize, &Hit)> = found
        .iter()
        .enumerate()
        .filter_map(|(f, x)| match x {
            Found::Exact(h) => Some(h.iter().map(move |h| (f, h))),
            _ => None,
        })
        .flatten()
        .collect();
    let best = hits.iter().map(|h| h.1.score).fold(f32::MIN, f32::max);
    let top = hits.iter().find(|h| h.1.score >= best - 0.01)?;
    if q.shape != Shape::Value {
        let f = top.0;
        let own: Vec<Hit> = hits
            .iter()
            .filter(|h| h.0 == f)
            .map(|h| h.1.clone())
            .collect();
        if let Some(items) = find::items(&ixs[f], &own) {
            return Some(children(&ixs[f], &items, q, lang));
        }
        return Some(values(ixs, &[(f, &own[0])], q, lang));
    }
    let tied: Vec<(usize, &Hit)> = hits
        .into_iter()
        .filter(|h| h.1.score >= best - 0.01)
        .collect();
    if let [(f, h)] = tied.as_slice() {
        let n = ixs[*f].entries[h.entry].node;
        if n.value.is_none() && !n.children.is_empty() {
            return Some(block(&ixs[*f], h.entry, lang));
        }
    }
    Some(values(ixs, &tied, q, lang))
}

/// `file:line`, or `file 第 N 行`.
fn at(file: &str, line: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("{file} 第 {line} 行"),
        Lang::En => format!("{file}:{line}"),
    }
}

/// A node's own name: its label, or a list item's name without brackets.
fn own(ix: &Index, e: usize) -> String {
    let n = ix.entries[e].node;
    if n.key.is_empty() && !n.args.is_empty() {
        return n.args.join(" ");
    }
    let p = show::path(ix, e);
    match ix.entries[e].parent {
        Some(parent) => {
            let before = show::path(ix, parent);
            p.strip_prefix(&before)
                .map(|s| s.trim_start_matches(['.', ' ', '›']).to_string())
                .filter(|s| !s.is_empty())
                .unwrap_or(p)
        }
        None => p,
    }
}

/// One setting: `` `name = value` — file:line, in `block` ``.
fn setting_line(ix: &Index, e: usize, lang: Lang) -> String {
    let n = ix.entries[e].node;
    let mut s = format!(
        "`{} = {}` — {}",
        own(ix, e),
        show::value(ix, e),
        at(&ix.file, n.line, lang)
    );
    if let Some(p) = ix.entries[e].parent {
        s.push_str(&match lang {
            Lang::Zh => format!("，位于 `{}`", show::path(ix, p)),
            Lang::En => format!(", in `{}`", show::path(ix, p)),
        });
    }
    s
}

/// The value(s) asked for: one setting with its source line, or the tied ones listed.
fn values(ixs: &[Index], hits: &[(usize, &Hit)], q: &Question, lang: Lang) -> String {
    if let [(f, h)] = hits {
        let ix = &ixs[*f];
        return format!(
            "{}\n> {}",
            setting_line(ix, h.entry, lang),
            show::source(ix, h.entry)
        );
    }
    let mut out = match lang {
        Lang::Zh => format!("有 {} 个配置项符合“{}”：", hits.len(), q.asked()),
        Lang::En => format!("{} settings match \"{}\":", hits.len(), q.asked()),
    };
    for (f, h) in hits.iter().take(LIST_MAX) {
        out.push_str("\n- ");
        out.push_str(&setting_line(&ixs[*f], h.entry, lang));
    }
    more(&mut out, hits.len(), lang);
    out
}

fn more(out: &mut String, total: usize, lang: Lang) {
    if total > LIST_MAX {
        out.push_str(&match lang {
            Lang::Zh => format!("\n…另有 {} 项", total - LIST_MAX),
            Lang::En => format!("\n… and {} more", total - LIST_MAX),
        });
    }
}

/// A block asked for by name: what it sets.
fn block(ix: &Index, e: usize, lang: Lang) -> String {
    let n = ix.entries[e].node;
    let kids = &ix.entries[e].children;
    let mut out = match lang {
        Lang::Zh => format!(
            "`{}`（{} 第 {}–{} 行）的配置：",
            show::path(ix, e),
            ix.file,
            n.line,
            n.last_line
        ),
        Lang::En => format!(
            "`{}` ({} lines {}–{}) sets:",
            show::path(ix, e),
            ix.file,
            n.line,
            n.last_line
        ),
    };
    for &c in kids.iter().take(BLOCK_MAX) {
        out.push_str(&format!(
            "\n- `{} = {}` ({})",
            own(ix, c),
            show::value(ix, c),
            line_word(ix.entries[c].node.line, lang)
        ));
    }
    if kids.len() > BLOCK_MAX {
        out.push_str(&match lang {
            Lang::Zh => format!("\n…另有 {} 项", kids.len() - BLOCK_MAX),
            Lang::En => format!("\n… and {} more", kids.len() - BLOCK_MAX),
        });
    }
    out
}

fn line_word(line: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("第 {line} 行"),
        Lang::En => format!("line {line}"),
    }
}

/// An item of a count or a list: a directive as written (`server 10.0.0.1:80 weight=2`),
/// a block's label, a key with its value.
fn item_text(ix: &Index, e: usize) -> String {
    let n = ix.entries[e].node;
    if ix.tree.format.keyed() {
        return match (n.key.is_empty(), n.args.is_empty()) {
            (true, false) => n.args.join(" "),
            (true, true) => show::value(ix, e),
            _ => format!("{} = {}", n.key, show::value(ix, e)),
        };
    }
    match &n.value {
        Some(_) => format!("{} {}", own(ix, e), show::value(ix, e))
            .trim()
            .to_string(),
        None => own(ix, e),
    }
}

/// A count or list of a block's children (or of every node of a kind).
fn children(ix: &Index, items: &[usize], q: &Question, lang: Lang) -> String {
    let parents: Vec<Option<usize>> = items.iter().map(|&e| ix.entries[e].parent).collect();
    let scope = parents
        .first()
        .copied()
        .flatten()
        .filter(|p| parents.iter().all(|x| *x == Some(*p)));
    let keys: Vec<&str> = items
        .iter()
        .map(|&e| ix.entries[e].node.key.as_str())
        .collect();
    let kind = match keys.first() {
        Some(k) if !k.is_empty() && keys.iter().all(|x| x == k) => k.to_string(),
        _ => q.asked().to_string(),
    };
    let n = items.len();
    let mut out = match (scope, lang) {
        (Some(p), Lang::Zh) => {
            let b = ix.entries[p].node;
            format!(
                "`{}` 中共有 **{n}** 个 `{kind}`（{} 第 {}–{} 行）：",
                show::path(ix, p),
                ix.file,
                b.line,
                b.last_line
            )
        }
        (Some(p), Lang::En) => {
            let b = ix.entries[p].node;
            format!(
                "**{n}** `{kind}` in `{}` ({} lines {}–{}):",
                show::path(ix, p),
                ix.file,
                b.line,
                b.last_line
            )
        }
        (None, Lang::Zh) => format!("{} 中共有 **{n}** 个 `{kind}`：", ix.file),
        (None, Lang::En) => format!("**{n}** `{kind}` in {}:", ix.file),
    };
    for &e in items.iter().take(LIST_MAX) {
        let node = ix.entries[e].node;
        out.push_str(&format!(
            "\n- `{}` ({}",
            item_text(ix, e),
            line_word(node.line, lang)
        ));
        if let (None, Some(p)) = (scope, ix.entries[e].parent) {
            out.push_str(&match lang {
                Lang::Zh => format!("，位于 `{}`", show::path(ix, p)),
                Lang::En => format!(", in `{}`", show::path(ix, p)),
            });
        }
        out.push_str(lang.pick("）", ")"));
    }
    more(&mut out, n, lang);
    out
}

/// No key is the one asked for: say so, and offer the nearest with their values and lines,
/// each with the question's words it lacks.
fn did_you_mean(ixs: &[Index], near: &[(usize, &Hit)], q: &Question, lang: Lang) -> String {
    let mut files: Vec<&str> = near.iter().map(|(f, _)| ixs[*f].file.as_str()).collect();
    files.dedup();
    let files = files.join(lang.pick("、", ", "));
    let mut out = match lang {
        Lang::Zh => format!(
            "{files} 中没有与“{}”完全对应的配置项。你是不是要找：",
            q.asked()
        ),
        Lang::En => format!(
            "No setting in {files} matches \"{}\" exactly. Did you mean:",
            q.asked()
        ),
    };
    for (f, h) in near {
        out.push_str("\n- ");
        out.push_str(&setting_line(&ixs[*f], h.entry, lang));
        let mut lacking: Vec<&str> = h
            .missing
            .iter()
            .map(|&k| q.terms[k].text.as_str())
            .collect();
        lacking.dedup();
        if !lacking.is_empty() {
            out.push_str(&match lang {
                Lang::Zh => format!("（没有“{}”）", lacking.join("”“")),
                Lang::En => format!(" (no \"{}\")", lacking.join("\", \"")),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests;
