//! Whole tool outputs, kept per session on disk (`{data_dir}/outputs/{session}/{id}.txt` with
//! a `.json` sidecar), so a client can page through an output the transcript folds and the
//! model only saw the head and tail of. Each step is bounded by a per-step cap (8 MiB by
//! default); a cut copy ends with a line saying how much was not kept. Blocking file I/O:
//! call from `spawn_blocking`.

use std::io::Write;
use std::path::{Path, PathBuf};

use protocol::OutputRef;
use serde::{Deserialize, Serialize};

/// Largest stored copy of one step's output.
pub const STEP_CAP: usize = 8 * 1024 * 1024;
/// Largest page a reply carries (bytes of line text); a page holds at least one line.
pub const PAGE_MAX_BYTES: usize = 1024 * 1024;
/// Most lines one page request may ask for.
pub const PAGE_MAX_LINES: u32 = 5000;
/// A single line longer than this is cut in pages (the stored copy keeps it whole).
pub const PAGE_LINE_MAX: usize = 16 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("无效的输出编号: {0} (invalid output id)")]
    BadId(String),
    #[error("本会话没有该输出: {0} (no such output in this session)")]
    NotFound(String),
    #[error("无法读写输出 {path}: {err}")]
    Io { path: PathBuf, err: std::io::Error },
}

impl OutputError {
    /// Stable code for ERROR frames.
    pub fn code(&self) -> &'static str {
        match self {
            OutputError::BadId(_) => "bad_request",
            OutputError::NotFound(_) => "not_found",
            OutputError::Io { .. } => "io",
        }
    }
}

/// What the sidecar records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Meta {
    /// Lines stored.
    lines: u64,
    /// Bytes the tool produced.
    bytes: u64,
    truncated: bool,
}

/// Lines `[offset, offset + lines.len())` of a stored output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub offset: u64,
    pub lines: Vec<String>,
    pub total_lines: u64,
    pub total_bytes: u64,
    pub truncated: bool,
}

#[derive(Debug, Clone)]
pub struct OutputStore {
    root: PathBuf,
    cap: usize,
}

/// Ids and session ids are generated here or by the store: short, `[A-Za-z0-9_-]` only, so
/// a requested id can never name a path outside its session's folder.
fn valid_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |err| OutputError::Io {
        path: path.to_path_buf(),
        err,
    }
}

/// `text` cut to at most `cap` bytes at a line end when one is in reach (else at a
/// character boundary), with a closing line saying how much was not kept.
fn cut_to_cap(text: &str, produced: u64, cap: usize) -> (String, bool) {
    if text.len() <= cap && produced <= text.len() as u64 {
        return (text.to_string(), false);
    }
    let mut end = text.len().min(cap);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    if let Some(nl) = text[..end].rfind('\n') {
        end = nl + 1;
    }
    let mut kept = text[..end].to_string();
    if !kept.is_empty() && !kept.ends_with('\n') {
        kept.push('\n');
    }
    let rest = produced.max(text.len() as u64) - end as u64;
    let cap_h = crate::human_size(cap as u64);
    let rest_h = crate::human_size(rest);
    kept.push_str(&format!(
        "[输出超过 {cap_h} 上限，其余 {rest_h} 未保存 / output over the {cap_h} cap, {rest_h} more not kept]\n"
    ));
    (kept, true)
}

impl OutputStore {
    pub fn new(data_dir: &Path) -> Self {
        Self::with_cap(data_dir, STEP_CAP)
    }

    pub fn with_cap(data_dir: &Path, cap: usize) -> Self {
        OutputStore {
            root: data_dir.join("outputs"),
            cap,
        }
    }

    fn dir(&self, session_id: &str) -> Result<PathBuf, OutputError> {
        if !valid_id(session_id) {
            return Err(OutputError::BadId(session_id.to_string()));
        }
        Ok(self.root.join(session_id))
    }

    /// Stores one step's output. `produced` is what the tool produced in bytes (more than
    /// `text.len()` when the tool already capped it); the copy is cut to the cap.
    pub fn save(
        &self,
        session_id: &str,
        text: &str,
        produced: u64,
    ) -> Result<OutputRef, OutputError> {
        let dir = self.dir(session_id)?;
        std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        let id = uuid::Uuid::new_v4().simple().to_string();
        let (kept, truncated) = cut_to_cap(text, produced, self.cap);
        let meta = Meta {
            lines: kept.lines().count() as u64,
            bytes: produced.max(text.len() as u64),
            truncated,
        };
        let txt = dir.join(format!("{id}.txt"));
        write_atomic(&txt, kept.as_bytes())?;
        let json = serde_json::to_vec(&meta).expect("Meta always serialises");
        write_atomic(&dir.join(format!("{id}.json")), &json)?;
        Ok(OutputRef {
            output_id: id,
            lines: meta.lines,
            bytes: meta.bytes,
            truncated,
        })
    }

    /// Lines `[offset, offset + count)` (count at most `PAGE_MAX_LINES`, the page at most
    /// `PAGE_MAX_BYTES`); an offset past the end gives an empty page.
    pub fn page(
        &self,
        session_id: &str,
        output_id: &str,
        offset: u64,
        count: u32,
    ) -> Result<Page, OutputError> {
        if !valid_id(output_id) {
            return Err(OutputError::BadId(output_id.to_string()));
        }
        let dir = self.dir(session_id)?;
        let json = dir.join(format!("{output_id}.json"));
        let meta: Meta = match std::fs::read(&json) {
            Ok(b) => serde_json::from_slice(&b).map_err(|e| OutputError::Io {
                path: json.clone(),
                err: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(OutputError::NotFound(output_id.to_string()))
            }
            Err(e) => return Err(io_err(&json)(e)),
        };
        let txt = dir.join(format!("{output_id}.txt"));
        let text = std::fs::read(&txt).map_err(io_err(&txt))?;
        let text = String::from_utf8_lossy(&text);
        let count = count.min(PAGE_MAX_LINES) as usize;
        let mut lines = Vec::new();
        let mut used = 0usize;
        for line in text
            .lines()
            .skip(usize::try_from(offset).unwrap_or(usize::MAX))
            .take(count)
        {
            let line = if line.len() > PAGE_LINE_MAX {
                let mut end = PAGE_LINE_MAX;
                while !line.is_char_boundary(end) {
                    end -= 1;
                }
                format!("{} …[+{} B]", &line[..end], line.len() - end)
            } else {
                line.to_string()
            };
            if !lines.is_empty() && used + line.len() > PAGE_MAX_BYTES {
                break;
            }
            used += line.len();
            lines.push(line);
        }
        Ok(Page {
            offset,
            lines,
            total_lines: meta.lines,
            total_bytes: meta.bytes,
            truncated: meta.truncated,
        })
    }

    /// Removes a session's outputs (its deletion).
    pub fn delete_session(&self, session_id: &str) -> Result<(), OutputError> {
        let dir = self.dir(session_id)?;
        match std::fs::remove_dir_all(&dir) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io_err(&dir)(e)),
        }
    }
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::File::create(&tmp).map_err(io_err(&tmp))?;
    f.write_all(bytes).map_err(io_err(&tmp))?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(io_err(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(n: usize) -> String {
        (1..=n).map(|i| format!("line {i}\n")).collect()
    }

    #[test]
    fn outputs_pages_are_exact() {
        let d = tempfile::tempdir().expect("tempdir");
        let s = OutputStore::new(d.path());
        let text = numbered(1000);
        let r = s.save("sess-1", &text, text.len() as u64).expect("save");
        assert_eq!(r.lines, 1000);
        assert_eq!(r.bytes, text.len() as u64);
        assert!(!r.truncated);
        let p = s.page("sess-1", &r.output_id, 0, 10).expect("page");
        assert_eq!(p.lines.first().map(String::as_str), Some("line 1"));
        assert_eq!(p.lines.len(), 10);
        assert_eq!(p.total_lines, 1000);
        let p = s.page("sess-1", &r.output_id, 990, 50).expect("page");
        assert_eq!(p.offset, 990);
        let want: Vec<String> = (991..=1000).map(|i| format!("line {i}")).collect();
        assert_eq!(p.lines, want);
        let p = s.page("sess-1", &r.output_id, 5000, 10).expect("past end");
        assert!(p.lines.is_empty());
        // Walking the pages returns every line exactly once, in order.
        let mut all = Vec::new();
        let mut at = 0;
        loop {
            let p = s.page("sess-1", &r.output_id, at, 333).expect("page");
            if p.lines.is_empty() {
                break;
            }
            at += p.lines.len() as u64;
            all.extend(p.lines);
        }
        assert_eq!(all.len(), 1000);
        assert_eq!(all.join("\n") + "\n", text);
    }

    #[test]
    fn outputs_cap_cuts_at_a_line_and_says_so() {
        let d = tempfile::tempdir().expect("tempdir");
        let s = OutputStore::with_cap(d.path(), 100);
        let text = numbered(50); // 7..8 bytes a line, ~390 bytes
        let r = s.save("s", &text, text.len() as u64).expect("save");
        assert!(r.truncated);
        assert_eq!(r.bytes, text.len() as u64);
        let p = s.page("s", &r.output_id, 0, 100).expect("page");
        // 100 bytes hold lines 1..=13 (9 lines of 7 bytes + 4 of 8 = 95).
        assert_eq!(p.lines.len(), 14);
        assert_eq!(p.lines[12], "line 13");
        let note = &p.lines[13];
        assert!(note.contains("output over the 100 B cap"), "{note}");
        let rest = text.len() - 95;
        assert!(note.contains(&format!("{rest} B more not kept")), "{note}");
        assert!(p.truncated);
        // A tool that capped its own copy reports what it produced.
        let r = s.save("s", "a\nb\n", 10_000).expect("save");
        assert!(r.truncated);
        assert_eq!(r.bytes, 10_000);
    }

    #[test]
    fn outputs_refuse_bad_ids_and_isolate_sessions() {
        let d = tempfile::tempdir().expect("tempdir");
        let s = OutputStore::new(d.path());
        let r = s.save("mine", "x\n", 2).expect("save");
        for bad in ["../mine", "a/b", "", "x.txt"] {
            assert!(matches!(
                s.page("mine", bad, 0, 1),
                Err(OutputError::BadId(_))
            ));
        }
        let e = s
            .page("theirs", &r.output_id, 0, 1)
            .expect_err("other session");
        assert_eq!(e.code(), "not_found");
        assert!(s.save("../x", "y", 1).is_err());
        s.delete_session("mine").expect("delete");
        assert!(s.page("mine", &r.output_id, 0, 1).is_err());
    }

    #[test]
    fn outputs_page_byte_cap_and_long_lines() {
        let d = tempfile::tempdir().expect("tempdir");
        let s = OutputStore::new(d.path());
        let long = "y".repeat(PAGE_LINE_MAX + 10);
        let text = format!("{long}\nshort\n");
        let r = s.save("s", &text, text.len() as u64).expect("save");
        let p = s.page("s", &r.output_id, 0, 2).expect("page");
        assert_eq!(p.lines.len(), 2);
        assert!(p.lines[0].ends_with(" …[+10 B]"));
        let line = "z".repeat(PAGE_LINE_MAX);
        let text: String = (0..100).map(|_| format!("{line}\n")).collect();
        let r = s.save("s", &text, text.len() as u64).expect("save");
        let p = s.page("s", &r.output_id, 0, 100).expect("page");
        assert_eq!(p.lines.len(), PAGE_MAX_BYTES / PAGE_LINE_MAX);
    }
}
