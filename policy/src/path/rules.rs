//! The matching rules of the path policy: deny patterns (with an optional content condition,
//! for `*.pem` files holding a private key) and exception patterns (specific read-only files
//! under `/proc` and `/sys`), plus the component-wise glob they share.

use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

/// Longest file a content condition reads; a larger file that matches the name pattern is
/// refused without reading (a key file is never that big, so this only costs odd cases).
pub(super) const SNIFF_CAP: u64 = 16 << 20;

#[derive(Debug, Clone)]
pub(super) enum DenyRule {
    /// The path itself or anything under it.
    Under(PathBuf),
    /// Any component matches the glob.
    AnyComponent(String),
    /// The last components match these globs, in order.
    Tail(Vec<String>),
}

#[derive(Debug, Clone)]
pub(super) struct Deny {
    pub pattern: String,
    pub rule: DenyRule,
    /// Only deny when the (resolved) file's content contains this text.
    pub contains: Option<String>,
}

impl Deny {
    pub fn parse(pattern: &str) -> Option<Deny> {
        let full = pattern.trim();
        let (p, contains) = match full.split_once(" contains:") {
            Some((p, text)) if !text.is_empty() => (p.trim(), Some(text.to_string())),
            Some(_) => return None,
            None => (full, None),
        };
        let rule = if let Some(rest) = p.strip_prefix("**/") {
            if rest.is_empty() || rest.contains('/') {
                return None;
            }
            DenyRule::AnyComponent(rest.to_ascii_lowercase())
        } else if let Some(rest) = p.strip_prefix("*/") {
            let parts: Vec<String> = rest
                .split('/')
                .filter(|s| !s.is_empty())
                .map(|s| s.to_ascii_lowercase())
                .collect();
            if parts.is_empty() {
                return None;
            }
            DenyRule::Tail(parts)
        } else if p.starts_with('/') {
            DenyRule::Under(normalize_lexically(Path::new(p)))
        } else if !p.is_empty() && !p.contains('/') {
            // A bare name is the friendliest reading: any component with that name.
            DenyRule::AnyComponent(p.to_ascii_lowercase())
        } else {
            return None;
        };
        Some(Deny {
            pattern: full.to_string(),
            rule,
            contains,
        })
    }

    /// Whether the path matches by name (the content condition is checked separately).
    pub fn matches(&self, path: &Path) -> bool {
        match &self.rule {
            DenyRule::Under(root) => starts_with_ci(path, root),
            DenyRule::AnyComponent(glob) => names(path).any(|n| glob_match(glob, &n)),
            DenyRule::Tail(globs) => {
                let all: Vec<String> = names(path).collect();
                if all.len() < globs.len() {
                    return false;
                }
                all[all.len() - globs.len()..]
                    .iter()
                    .zip(globs)
                    .all(|(n, g)| glob_match(g, n))
            }
        }
    }

    /// A top-level deny (`/proc`, `/sys`, `/dev`: an absolute pattern of one component) is
    /// the only kind an exception may beat.
    pub fn is_top_level(&self) -> bool {
        match &self.rule {
            DenyRule::Under(root) => {
                root.components()
                    .filter(|c| matches!(c, Component::Normal(_)))
                    .count()
                    == 1
            }
            _ => false,
        }
    }
}

/// Whether the content condition of a deny holds for the resolved `path`: true when the file
/// contains `needle`, or cannot be checked (unreadable, larger than `SNIFF_CAP`). A path that
/// does not exist or is not a regular file holds nothing and does not match.
pub(super) fn content_matches(path: &Path, needle: &str) -> bool {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return false,
        Err(_) => return true,
    };
    if !meta.is_file() {
        return false;
    }
    if meta.len() > SNIFF_CAP {
        return true;
    }
    // A read error counts as a match: refuse what cannot be checked.
    file_contains(path, needle.as_bytes()).unwrap_or(true)
}

/// Streams the file looking for `needle` (chunks overlap so a match across a boundary counts).
fn file_contains(path: &Path, needle: &[u8]) -> io::Result<bool> {
    if needle.is_empty() {
        return Ok(true);
    }
    let mut f = std::fs::File::open(path)?.take(SNIFF_CAP);
    let mut buf = vec![0u8; 64 * 1024];
    let keep = needle.len() - 1;
    let mut filled = 0usize;
    loop {
        let n = f.read(&mut buf[filled..])?;
        if n == 0 {
            return Ok(false);
        }
        filled += n;
        if buf[..filled].windows(needle.len()).any(|w| w == needle) {
            return Ok(true);
        }
        // Keep the last `keep` bytes for a match that straddles the chunks.
        let tail = filled.saturating_sub(keep);
        buf.copy_within(tail..filled, 0);
        filled -= tail;
    }
}

/// One component of an exception pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    /// A glob within one component (case-sensitive: `/proc` names are exact).
    Glob(String),
    /// `<pid>`: a numeric component.
    Pid,
    /// `**`: zero or more components.
    Any,
}

/// An exception: a specific file readable although a top-level deny covers it (and even
/// outside the allowed roots). Syntax: an absolute path whose components are globs (`*`,
/// `?`), `<pid>` (digits only) or `**` (any number of components). Matched against the
/// resolved path, case-sensitively.
#[derive(Debug, Clone)]
pub(super) struct Exception {
    pub pattern: String,
    pieces: Vec<Piece>,
}

impl Exception {
    pub fn parse(pattern: &str) -> Option<Exception> {
        let p = pattern.trim();
        if !p.starts_with('/') || p.split('/').any(|c| c == "." || c == "..") {
            return None;
        }
        let pieces: Vec<Piece> = p
            .split('/')
            .filter(|c| !c.is_empty())
            .map(|c| match c {
                "**" => Piece::Any,
                "<pid>" => Piece::Pid,
                other => Piece::Glob(other.to_string()),
            })
            .collect();
        // At least one literal component, and it must not end in `**` (that would open
        // whole trees, which is what allowed roots are for).
        if pieces.is_empty() || pieces.last() == Some(&Piece::Any) {
            return None;
        }
        Some(Exception {
            pattern: p.to_string(),
            pieces,
        })
    }

    pub fn matches(&self, path: &Path) -> bool {
        let mut comps = Vec::new();
        for c in path.components() {
            match c {
                Component::RootDir => {}
                Component::Normal(s) => match s.to_str() {
                    Some(s) => comps.push(s),
                    None => return false,
                },
                // Only resolved, absolute paths are checked.
                _ => return false,
            }
        }
        match_pieces(&self.pieces, &comps)
    }
}

fn match_pieces(pieces: &[Piece], comps: &[&str]) -> bool {
    match pieces.split_first() {
        None => comps.is_empty(),
        Some((Piece::Any, rest)) => {
            (0..=comps.len()).any(|skip| match_pieces(rest, &comps[skip..]))
        }
        Some((piece, rest)) => match comps.split_first() {
            None => false,
            Some((c, more)) => {
                let ok = match piece {
                    Piece::Pid => !c.is_empty() && c.bytes().all(|b| b.is_ascii_digit()),
                    Piece::Glob(g) => glob_match(g, c),
                    Piece::Any => false,
                };
                ok && match_pieces(rest, more)
            }
        },
    }
}

/// Lower-cased normal components of a path.
pub(super) fn names(path: &Path) -> impl Iterator<Item = String> + '_ {
    path.components().filter_map(|c| match c {
        Component::Normal(s) => Some(s.to_string_lossy().to_ascii_lowercase()),
        _ => None,
    })
}

pub(super) fn starts_with_ci(path: &Path, root: &Path) -> bool {
    let mut p = path.components();
    for r in root.components() {
        match p.next() {
            Some(c)
                if c.as_os_str().to_string_lossy().to_ascii_lowercase()
                    == r.as_os_str().to_string_lossy().to_ascii_lowercase() => {}
            _ => return false,
        }
    }
    true
}

/// Glob with `*` (any run) and `?` (one char); callers lower-case both sides when matching
/// case-insensitively.
pub(super) fn glob_match(glob: &str, name: &str) -> bool {
    let g: Vec<char> = glob.chars().collect();
    let n: Vec<char> = name.chars().collect();
    // Iterative matcher with single backtrack point: linear-ish, no recursion blow-up.
    let (mut gi, mut ni) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if gi < g.len() && (g[gi] == '?' || g[gi] == n[ni]) {
            gi += 1;
            ni += 1;
        } else if gi < g.len() && g[gi] == '*' {
            star = Some((gi, ni));
            gi += 1;
        } else if let Some((sg, sn)) = star {
            gi = sg + 1;
            ni = sn + 1;
            star = Some((sg, sn + 1));
        } else {
            return false;
        }
    }
    while gi < g.len() && g[gi] == '*' {
        gi += 1;
    }
    gi == g.len()
}

/// Removes `.` and resolves `..` textually. Only used where no symlink can be involved
/// (components below the deepest existing ancestor, and config patterns).
pub(super) fn normalize_lexically(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                // `pop` on the root keeps the root: `/..` is `/`.
                if !out.pop() && !path.is_absolute() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}
