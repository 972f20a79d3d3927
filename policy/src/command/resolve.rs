//! File operands of commands: a relative name resolves to this session's upload of that name
//! first (the newest when several share it), then to the working dir, then to the allowed
//! roots where it exists; every result passes the path policy and is recorded, so the tool
//! can say which file was used.

use std::path::{Component, Path, PathBuf};

use super::super::path::PathPolicy;
use super::CommandError;

/// One of this session's uploads, as the command policy needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadFile {
    /// The name the user uploaded it as (`app.log`).
    pub filename: String,
    /// Where it is stored.
    pub path: PathBuf,
}

/// Where a file operand was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PathSource {
    /// One of this session's uploads.
    Upload,
    /// The working dir or an allowed root.
    Root,
}

/// A relative file operand and the file it resolved to.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ResolvedArg {
    pub arg: String,
    pub path: PathBuf,
    pub source: PathSource,
    /// How many of this session's uploads share the name (the newest is used); 1 if unique.
    #[serde(skip_serializing_if = "is_one")]
    pub same_name: usize,
}

fn is_one(n: &usize) -> bool {
    *n == 1
}

impl ResolvedArg {
    /// One line for the transcript: `文件 app.log → 本会话上传 (upload) /…/app.log`.
    pub fn describe(&self) -> String {
        let mut line = match self.source {
            PathSource::Upload => format!(
                "文件 {} → 本会话上传 (upload) {}",
                self.arg,
                self.path.display()
            ),
            PathSource::Root => format!(
                "文件 {} → 允许目录中的文件 (allowed root) {}",
                self.arg,
                self.path.display()
            ),
        };
        if self.same_name > 1 {
            line.push_str(&format!(
                "（本会话有 {} 个同名上传，使用最新的 / {} uploads share this name, using the newest）",
                self.same_name, self.same_name
            ));
        }
        line
    }
}

/// Resolves and records the file operands of one pipeline stage.
pub struct Resolver<'a> {
    paths: &'a PathPolicy,
    cwd: &'a Path,
    uploads: &'a [UploadFile],
    /// Every checked path (for session isolation in the tool layer).
    pub checked: Vec<PathBuf>,
    /// Relative operands and what they resolved to.
    pub resolved: Vec<ResolvedArg>,
}

impl<'a> Resolver<'a> {
    pub fn new(paths: &'a PathPolicy, cwd: &'a Path, uploads: &'a [UploadFile]) -> Self {
        Resolver {
            paths,
            cwd,
            uploads,
            checked: Vec::new(),
            resolved: Vec::new(),
        }
    }

    pub fn cwd(&self) -> &Path {
        self.cwd
    }

    /// Resolves one file operand as written by the user and records it.
    pub fn path(&mut self, raw: &str) -> Result<PathBuf, CommandError> {
        let p = Path::new(raw);
        if p.is_absolute() {
            let r = self.paths.check_str(raw, self.cwd)?;
            self.checked.push(r.clone());
            return Ok(r);
        }
        // This session's uploads, by file name (newest wins) or by the tail of the stored path.
        let by_name: Vec<&UploadFile> = self.uploads.iter().filter(|u| u.filename == raw).collect();
        let upload = by_name.last().copied().or_else(|| {
            let tail_ok =
                !raw.is_empty() && p.components().all(|c| matches!(c, Component::Normal(_)));
            self.uploads
                .iter()
                .rev()
                .find(|u| tail_ok && u.path.ends_with(p))
        });
        if let Some(u) = upload {
            let r = self.paths.check(&u.path)?;
            self.checked.push(r.clone());
            self.resolved.push(ResolvedArg {
                arg: raw.to_string(),
                path: r.clone(),
                source: PathSource::Upload,
                same_name: by_name.len().max(1),
            });
            return Ok(r);
        }
        // The working dir; a name that does not exist there may exist under an allowed root.
        let in_cwd = self.paths.check_str(raw, self.cwd)?;
        let chosen = if in_cwd.exists() {
            in_cwd
        } else {
            self.paths
                .allowed_roots()
                .iter()
                .filter_map(|root| self.paths.check_str(raw, root).ok())
                .find(|r| r.exists())
                .unwrap_or(in_cwd)
        };
        self.checked.push(chosen.clone());
        if raw != "." {
            self.resolved.push(ResolvedArg {
                arg: raw.to_string(),
                path: chosen.clone(),
                source: PathSource::Root,
                same_name: 1,
            });
        }
        Ok(chosen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::PathPolicyConfig;
    use std::fs;

    #[test]
    fn policy_resolve_uploads_first_then_cwd_then_roots() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = fs::canonicalize(tmp.path()).expect("canon");
        let data = root.join("data");
        let uploads = data.join("uploads");
        let docs = root.join("docs");
        fs::create_dir_all(uploads.join("u1")).expect("mkdir");
        fs::create_dir_all(uploads.join("u2")).expect("mkdir");
        fs::create_dir_all(&docs).expect("mkdir");
        fs::write(uploads.join("u1/app.log"), "old").expect("write");
        fs::write(uploads.join("u2/app.log"), "new").expect("write");
        fs::write(uploads.join("app.log"), "cwd").expect("write");
        fs::write(docs.join("guide.md"), "doc").expect("write");
        let paths = PathPolicy::new(&PathPolicyConfig::with_defaults(
            &data,
            std::slice::from_ref(&docs),
        ));
        let ups = vec![
            UploadFile {
                filename: "app.log".into(),
                path: uploads.join("u1/app.log"),
            },
            UploadFile {
                filename: "app.log".into(),
                path: uploads.join("u2/app.log"),
            },
        ];
        let mut r = Resolver::new(&paths, &uploads, &ups);
        assert_eq!(
            r.path("app.log").expect("upload"),
            uploads.join("u2/app.log")
        );
        assert_eq!(r.resolved[0].source, PathSource::Upload);
        assert_eq!(r.resolved[0].same_name, 2);
        assert!(
            r.resolved[0].describe().contains("使用最新的"),
            "{}",
            r.resolved[0].describe()
        );
        assert!(r.resolved[0].describe().starts_with(&format!(
            "文件 app.log → 本会话上传 (upload) {}",
            uploads.join("u2/app.log").display()
        )));
        // Not an upload: found under another allowed root.
        assert_eq!(r.path("guide.md").expect("root"), docs.join("guide.md"));
        assert_eq!(r.resolved[1].source, PathSource::Root);
        // Missing everywhere: the working-dir path (the command reports it missing).
        assert_eq!(r.path("nope.txt").expect("cwd"), uploads.join("nope.txt"));
        // Without uploads the working dir wins.
        let mut r = Resolver::new(&paths, &uploads, &[]);
        assert_eq!(r.path("app.log").expect("cwd"), uploads.join("app.log"));
        // The path policy still decides.
        assert!(r.path("../../etc/shadow").is_err());
        assert!(r.path("/etc/shadow").is_err());
    }
}
