//! The local file browser used to pick a file to upload: directories first, filter as you
//! type, hidden-file toggle, sizes. Reads the local directory synchronously (a directory
//! listing is quick and this keeps `update` simple to test).

use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    pub name: String,
    pub is_dir: bool,
    pub size: u64,
}

#[derive(Debug, Clone)]
pub struct Browser {
    pub dir: PathBuf,
    entries: Vec<DirEntry>,
    pub filter: String,
    pub show_hidden: bool,
    pub selected: usize,
    pub error: Option<String>,
}

impl Browser {
    pub fn open(dir: &Path) -> Browser {
        let mut b = Browser {
            dir: dir.to_path_buf(),
            entries: Vec::new(),
            filter: String::new(),
            show_hidden: false,
            selected: 0,
            error: None,
        };
        b.reload();
        b
    }

    fn reload(&mut self) {
        self.entries.clear();
        self.selected = 0;
        self.error = None;
        match std::fs::read_dir(&self.dir) {
            Ok(rd) => {
                for e in rd.flatten() {
                    let name = e.file_name().to_string_lossy().into_owned();
                    // Follow symlinks so a link to a directory opens like one.
                    let meta = std::fs::metadata(e.path()).ok();
                    self.entries.push(DirEntry {
                        name,
                        is_dir: meta.as_ref().is_some_and(|m| m.is_dir()),
                        size: meta.as_ref().map_or(0, |m| m.len()),
                    });
                }
                self.entries.sort_by(|a, b| {
                    b.is_dir
                        .cmp(&a.is_dir)
                        .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
                });
            }
            Err(e) => self.error = Some(format!("{}: {e}", self.dir.display())),
        }
    }

    /// Entries shown: `..` first (unless at the root), then matches of the filter.
    pub fn visible(&self) -> Vec<DirEntry> {
        let f = self.filter.to_lowercase();
        let mut v = Vec::new();
        if self.dir.parent().is_some() && f.is_empty() {
            v.push(DirEntry {
                name: "..".into(),
                is_dir: true,
                size: 0,
            });
        }
        v.extend(
            self.entries
                .iter()
                .filter(|e| self.show_hidden || !e.name.starts_with('.'))
                .filter(|e| f.is_empty() || e.name.to_lowercase().contains(&f))
                .cloned(),
        );
        v
    }

    pub fn up(&mut self) {
        self.selected = self.selected.saturating_sub(1);
    }

    pub fn down(&mut self) {
        let n = self.visible().len();
        if self.selected + 1 < n {
            self.selected += 1;
        }
    }

    pub fn parent(&mut self) {
        if let Some(p) = self.dir.parent() {
            let from = self
                .dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned());
            self.dir = p.to_path_buf();
            self.filter.clear();
            self.reload();
            // Keep the directory we came from selected.
            if let Some(from) = from {
                if let Some(i) = self.visible().iter().position(|e| e.name == from) {
                    self.selected = i;
                }
            }
        }
    }

    /// Enter: opens a directory, or returns the chosen file.
    pub fn enter(&mut self) -> Option<PathBuf> {
        let e = self.visible().get(self.selected)?.clone();
        if e.name == ".." {
            self.parent();
            None
        } else if e.is_dir {
            self.dir = self.dir.join(&e.name);
            self.filter.clear();
            self.reload();
            None
        } else {
            Some(self.dir.join(&e.name))
        }
    }

    pub fn type_char(&mut self, c: char) {
        self.filter.push(c);
        self.selected = 0;
    }

    /// Backspace edits the filter, or goes up when the filter is empty.
    pub fn backspace(&mut self) {
        if self.filter.pop().is_none() {
            self.parent();
        }
        self.selected = 0;
    }

    pub fn toggle_hidden(&mut self) {
        self.show_hidden = !self.show_hidden;
        self.selected = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dirs_first_filter_hidden_and_navigation() {
        let t = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(t.path().join("zdir")).expect("mkdir");
        std::fs::write(t.path().join("a.log"), "hello").expect("write");
        std::fs::write(t.path().join(".secret"), "x").expect("write");
        std::fs::write(t.path().join("zdir").join("inner.txt"), "x").expect("write");
        let mut b = Browser::open(t.path());
        let names: Vec<String> = b.visible().into_iter().map(|e| e.name).collect();
        assert_eq!(names, vec!["..", "zdir", "a.log"]);
        assert_eq!(b.visible()[2].size, 5);
        b.toggle_hidden();
        assert_eq!(b.visible().len(), 4);
        b.toggle_hidden();
        b.type_char('L');
        b.type_char('o');
        let names: Vec<String> = b.visible().into_iter().map(|e| e.name).collect();
        assert_eq!(names, vec!["a.log"]);
        assert_eq!(b.enter(), Some(t.path().join("a.log")));
        b.backspace();
        b.backspace();
        b.down();
        assert_eq!(b.enter(), None);
        assert!(b.dir.ends_with("zdir"));
        b.parent();
        assert_eq!(b.dir, t.path());
        assert_eq!(b.visible()[b.selected].name, "zdir");
    }
}
