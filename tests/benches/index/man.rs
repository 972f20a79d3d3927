//! Man pages for the retrieval rows: rendered to plain text by `man` (installed on demand
//! with groff and, for the Chinese rows, manpages-zh), split at NAME into the page's text
//! and its one-line description. The pages are a fixed list (`tests/fixtures/xling/
//! pages.txt`, `zh_pages.txt`): the same pages wherever the bench runs, those missing on a
//! machine counted and said.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// (file name, text after NAME cut at 6000 chars, NAME description).
pub type Page = (String, String, String);

pub(super) fn ensure_man() -> bool {
    let ok = Path::new("/usr/bin/man").exists() && Path::new("/usr/bin/groff").exists();
    if !ok {
        let _ = std::process::Command::new("apt-get")
            .args(["install", "-y", "-qq", "man-db", "groff"])
            .status();
    }
    Path::new("/usr/bin/man").exists()
}

/// The page files of sections 1 and 8 under `root` (`/usr/share/man` or a language's
/// directory), sorted.
pub(super) fn section_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![];
    for sec in ["man1", "man8"] {
        if let Ok(rd) = std::fs::read_dir(root.join(sec)) {
            // The Google Cloud SDK ships ~17k generated `gcloud_*` pages on this image: they
            // would be most of any sample, so they are left out.
            let mut v: Vec<PathBuf> = rd
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    !p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with("gcloud"))
                })
                .collect();
            v.sort();
            files.extend(v);
        }
    }
    files
}

/// One man page rendered as plain text: (file name, text after NAME, first 6000 chars;
/// NAME description), or None when it has no usable NAME line or too little text.
pub(super) fn render_page(p: &Path) -> Option<(String, String, String)> {
    render_page_min_words(p, 2)
}

/// `render_page` with the NAME description at least `min_words` words long (a Chinese
/// description is one "word": no spaces).
pub(super) fn render_page_min_words(
    p: &Path,
    min_words: usize,
) -> Option<(String, String, String)> {
    let text = rendered(p)?;
    split_page(p, &text, min_words)
}

/// `man`'s plain-text rendering of a page file, once per run (the Chinese pages serve two
/// sets, and a page that times out costs 30 s); with `LLMOPS_BENCH_MAN_CACHE=DIR` (while
/// iterating) kept in DIR between runs too, a page that timed out as an empty file.
pub(super) fn rendered(p: &Path) -> Option<String> {
    static SEEN: Mutex<Option<HashMap<PathBuf, Option<String>>>> = Mutex::new(None);
    if let Some(text) = SEEN
        .lock()
        .expect("render memo")
        .as_ref()
        .and_then(|m| m.get(p).cloned())
    {
        return text;
    }
    let text = rendered_uncached(p);
    SEEN.lock()
        .expect("render memo")
        .get_or_insert_with(HashMap::new)
        .insert(p.to_path_buf(), text.clone());
    text
}

pub(super) fn rendered_uncached(p: &Path) -> Option<String> {
    let cached = std::env::var_os("LLMOPS_BENCH_MAN_CACHE")
        .map(|d| PathBuf::from(d).join(p.to_string_lossy().replace('/', "_")));
    if let Some(text) = cached
        .as_ref()
        .and_then(|c| std::fs::read_to_string(c).ok())
    {
        return (!text.is_empty()).then_some(text);
    }
    let text = render(p);
    if let Some(c) = &cached {
        let written = std::fs::create_dir_all(c.parent().unwrap_or(Path::new(".")))
            .and_then(|_| std::fs::write(c, text.as_deref().unwrap_or("")));
        if let Err(e) = written {
            eprintln!("man cache not written ({}): {e}", c.display());
        }
    }
    text
}

pub(super) fn render(p: &Path) -> Option<String> {
    // Under `timeout`: troff spun for minutes on one manpages-zh page (df.1); a page that
    // does not render in 30 s is left out of the set.
    let o = std::process::Command::new("timeout")
        .env("MANWIDTH", "100")
        .env("MAN_KEEP_FORMATTING", "0")
        .args(["-k", "5", "30", "man", "-E", "UTF-8", "-P", "cat", "-l"])
        .arg(p)
        .output()
        .ok()?;
    if matches!(o.status.code(), Some(124) | Some(137)) {
        eprintln!("{}: man timed out, page left out", p.display());
        return None;
    }
    let raw = String::from_utf8_lossy(&o.stdout).into_owned();
    // Strip backspace overstrikes (bold/underline).
    let mut text = String::new();
    for c in raw.chars() {
        if c == '\u{8}' {
            text.pop();
        } else {
            text.push(c);
        }
    }
    Some(text)
}

/// (file name, text after NAME cut at 6000 chars, NAME description) of a rendered page.
pub(super) fn split_page(
    p: &Path,
    text: &str,
    min_words: usize,
) -> Option<(String, String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    // manpages-zh titles the section 名称.
    let ni = lines
        .iter()
        .position(|l| matches!(l.trim(), "NAME" | "名称"))?;
    let mut desc = String::new();
    let mut j = ni + 1;
    while j < lines.len() && (lines[j].starts_with(' ') || lines[j].trim().is_empty()) {
        desc.push_str(lines[j].trim());
        desc.push(' ');
        j += 1;
        if !desc.trim().is_empty() && lines.get(j).is_some_and(|l| l.trim().is_empty()) {
            break;
        }
    }
    let (_, d) = desc.split_once(" - ").or_else(|| desc.split_once(" — "))?;
    let d = d.trim().to_string();
    if d.split_whitespace().count() < min_words {
        return None;
    }
    while j < lines.len()
        && !lines[j].starts_with(|c: char| c.is_ascii_uppercase() || c >= '\u{2E80}')
    {
        j += 1;
    }
    let body: String = lines[j.min(lines.len())..].join("\n");
    let body: String = body.chars().take(6000).collect();
    if body.len() < 200 {
        return None;
    }
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Some((name, body, d))
}

/// The section 1 or 8 page file of a command name (`bzip2` -> man1/bzip2.1.gz).
pub(super) fn page_file(name: &str) -> Option<PathBuf> {
    for (sec, suffix) in [("man1", ".1"), ("man8", ".8")] {
        let dir = Path::new("/usr/share/man").join(sec);
        let want = format!("{name}{suffix}");
        if let Ok(rd) = std::fs::read_dir(&dir) {
            let mut hits: Vec<PathBuf> = rd
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .is_some_and(|n| {
                            // `name.1.gz`, or a section with a suffix (`name.1ssl.gz`).
                            n.strip_prefix(&want).is_some_and(|rest| {
                                rest.is_empty()
                                    || rest.starts_with('.')
                                    || rest.starts_with(|c: char| c.is_ascii_lowercase())
                            })
                        })
                })
                .collect();
            hits.sort();
            if let Some(p) = hits.into_iter().next() {
                return Some(p);
            }
        }
    }
    None
}

/// The pages of a list file in `tests/fixtures/xling` (one page file name a line, `#`
/// comments), found under `root`'s `man1` / `man8` (or the file name's section): the
/// rendered pages, and how many of the list this machine lacks or cannot render.
pub(super) fn listed_pages(list: &str, root: &Path, min_words: usize) -> (Vec<Page>, usize) {
    let text = std::fs::read_to_string(super::root().join("tests/fixtures/xling").join(list))
        .unwrap_or_default();
    let mut out = Vec::new();
    let mut missing = 0;
    for name in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let found = ["man1", "man8"]
            .iter()
            .map(|s| root.join(s).join(name))
            .find(|p| p.is_file());
        match found.and_then(|p| render_page_min_words(&p, min_words)) {
            Some(page) => out.push(page),
            None => missing += 1,
        }
    }
    (out, missing)
}
