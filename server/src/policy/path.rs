//! Path policy: resolves a path (symlinks included) and decides by path components whether
//! the tools may touch it. Allow-list by component prefix, deny-list wins. Never decides by
//! string prefix and never trusts a path before it has been resolved.
//!
//! Deny pattern syntax (all matching is ASCII case-insensitive, `*` and `?` are globs within
//! one component):
//! - `/abs/path`   the path itself and everything under it (`/etc/shadow`, `/etc/sudoers.d`)
//! - `**/NAME`     any component matches NAME (`**/.ssh`, `**/*secret*`)
//! - `*/A[/B...]`  the last components match (`*/.env`, `*/*.pem`, `*/.git/config`)

use std::ffi::OsStr;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Longest accepted path in bytes (Linux PATH_MAX).
pub const MAX_PATH_LEN: usize = 4096;
/// Longest accepted single component in bytes (Linux NAME_MAX).
const MAX_COMPONENT_LEN: usize = 255;

/// Default deny patterns: credentials, keys, account databases, anything named secret.
pub const DEFAULT_DENY_PATTERNS: &[&str] = &[
    "**/.ssh",
    "**/.gnupg",
    "**/.aws",
    "**/.kube",
    "**/.docker",
    "*/.env",
    "*/.env.*",
    "*/.git/config",
    "*/.git-credentials",
    "*/.netrc",
    "*/.pgpass",
    "*/.htpasswd",
    "*/id_rsa",
    "*/id_rsa.*",
    "*/id_dsa",
    "*/id_dsa.*",
    "*/id_ecdsa",
    "*/id_ecdsa.*",
    "*/id_ed25519",
    "*/id_ed25519.*",
    "*/*.pem",
    "*/*.key",
    "*/*.p12",
    "*/*.pfx",
    "*/*.jks",
    "*/*.keystore",
    "**/*secret*",
    "**/*credential*",
    "/etc/shadow",
    "/etc/gshadow",
    "/etc/passwd",
    "/etc/sudoers",
    "/etc/sudoers.d",
    "/proc",
    "/sys",
    "/dev",
];

/// Configuration of the path policy (what the config file and CLI flags fill in).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PathPolicyConfig {
    /// Allowed roots: a path is allowed when it is one of these or under one (by components).
    pub allow: Vec<PathBuf>,
    /// Deny patterns (see module docs); deny wins over allow.
    pub deny: Vec<String>,
}

impl PathPolicyConfig {
    /// Default: `{data_dir}/uploads`, the configured doc folders and `/var/log` are allowed,
    /// with the default deny list.
    pub fn with_defaults(data_dir: &Path, doc_dirs: &[PathBuf]) -> Self {
        let mut allow = vec![data_dir.join("uploads")];
        allow.extend(doc_dirs.iter().cloned());
        allow.push(PathBuf::from("/var/log"));
        PathPolicyConfig {
            allow,
            deny: DEFAULT_DENY_PATTERNS
                .iter()
                .map(|s| s.to_string())
                .collect(),
        }
    }
}

/// Why a path was refused. Display texts are the user-facing (Chinese) messages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    #[error("路径不能为空 (empty path)")]
    Empty,
    #[error("路径包含空字节 NUL (path contains a NUL byte)")]
    NulByte,
    #[error("路径过长: {len} 字节，上限 {max} (path too long)")]
    TooLong { len: usize, max: usize },
    #[error("路径中的文件名过长: {len} 字节，上限 255 (path component too long)")]
    ComponentTooLong { len: usize },
    #[error("路径包含控制字符 (path contains a control character)")]
    ControlChar,
    #[error("路径包含可疑的 Unicode 字符: {ch} (U+{code:04X})，请使用普通的 / 和 .")]
    LookAlike { ch: char, code: u32 },
    #[error("路径不在白名单中: {input}{}", resolved_note(.input, .resolved))]
    NotAllowed { input: String, resolved: String },
    #[error("路径匹配禁止模式: {pattern}")]
    Denied {
        pattern: String,
        input: String,
        resolved: String,
    },
    #[error("路径包含无法解析的符号链接: {path} (dangling or looping symlink)")]
    BadSymlink { path: String },
    #[error("无法解析路径 {path}: {reason}")]
    Io { path: String, reason: String },
}

fn resolved_note(input: &str, resolved: &str) -> String {
    if resolved.is_empty() || input == resolved {
        String::new()
    } else {
        format!("（实际指向 {resolved}）")
    }
}

impl PathError {
    /// Short machine-readable reason for audit lines and metrics.
    pub fn code(&self) -> &'static str {
        match self {
            PathError::Empty => "empty",
            PathError::NulByte => "nul_byte",
            PathError::TooLong { .. } => "too_long",
            PathError::ComponentTooLong { .. } => "component_too_long",
            PathError::ControlChar => "control_char",
            PathError::LookAlike { .. } => "look_alike",
            PathError::NotAllowed { .. } => "not_allowed",
            PathError::Denied { .. } => "denied_pattern",
            PathError::BadSymlink { .. } => "bad_symlink",
            PathError::Io { .. } => "io",
        }
    }
}

#[derive(Debug, Clone)]
enum DenyRule {
    /// The path itself or anything under it.
    Under(PathBuf),
    /// Any component matches the glob.
    AnyComponent(String),
    /// The last components match these globs, in order.
    Tail(Vec<String>),
}

#[derive(Debug, Clone)]
struct Deny {
    pattern: String,
    rule: DenyRule,
}

impl Deny {
    fn parse(pattern: &str) -> Option<Deny> {
        let p = pattern.trim();
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
            pattern: p.to_string(),
            rule,
        })
    }

    fn matches(&self, path: &Path) -> bool {
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
}

/// Lower-cased normal components of a path.
fn names(path: &Path) -> impl Iterator<Item = String> + '_ {
    path.components().filter_map(|c| match c {
        Component::Normal(s) => Some(s.to_string_lossy().to_ascii_lowercase()),
        _ => None,
    })
}

fn starts_with_ci(path: &Path, root: &Path) -> bool {
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

/// Glob with `*` (any run) and `?` (one char) over an already lower-cased name.
fn glob_match(glob: &str, name: &str) -> bool {
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
fn normalize_lexically(path: &Path) -> PathBuf {
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

/// Characters that render like `/`, `\` or `.` and could fool a reader (or a model) about
/// where a path points.
fn look_alike(c: char) -> bool {
    matches!(
        c,
        '\u{FF0F}' // FULLWIDTH SOLIDUS
            | '\u{2044}' // FRACTION SLASH
            | '\u{2215}' // DIVISION SLASH
            | '\u{29F8}' // BIG SOLIDUS
            | '\u{FE68}' // SMALL REVERSE SOLIDUS
            | '\u{FF3C}' // FULLWIDTH REVERSE SOLIDUS
            | '\u{2216}' // SET MINUS
            | '\u{FF0E}' // FULLWIDTH FULL STOP
            | '\u{2024}' // ONE DOT LEADER
            | '\u{2025}' // TWO DOT LEADER
            | '\u{2026}' // HORIZONTAL ELLIPSIS
            | '\u{FE52}' // SMALL FULL STOP
            | '\u{3002}' // IDEOGRAPHIC FULL STOP
            | '\u{200B}' // ZERO WIDTH SPACE
            | '\u{200C}'
            | '\u{200D}'
            | '\u{2060}'
            | '\u{FEFF}'
            | '\u{202E}' // RIGHT-TO-LEFT OVERRIDE
            | '\u{202D}'
    )
}

/// Resolves symlinks in every existing component. For a path that does not exist yet, the
/// deepest existing ancestor is canonicalised and the rest appended lexically (nothing below
/// a missing component can be a symlink). A dangling symlink is an error: writing through it
/// would land wherever it points.
pub fn resolve(path: &Path) -> Result<PathBuf, PathError> {
    match std::fs::canonicalize(path) {
        Ok(p) => return Ok(p),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) if e.raw_os_error() == Some(40) => {
            // ELOOP: symlink loop.
            return Err(PathError::BadSymlink {
                path: path.display().to_string(),
            });
        }
        // ENOTDIR: a file used as a directory (`a.txt/../x`); resolve what exists below.
        Err(e) if e.raw_os_error() == Some(20) => {}
        Err(e) => {
            return Err(PathError::Io {
                path: path.display().to_string(),
                reason: e.to_string(),
            })
        }
    }
    // Walk up to the deepest ancestor that exists (as any directory entry, symlinks included).
    let comps: Vec<Component<'_>> = path.components().collect();
    for split in (0..comps.len()).rev() {
        let ancestor: PathBuf = comps[..=split].iter().collect();
        let Ok(meta) = std::fs::symlink_metadata(&ancestor) else {
            continue;
        };
        let rest: PathBuf = comps[split + 1..].iter().collect();
        let base = if meta.file_type().is_symlink() {
            match std::fs::canonicalize(&ancestor) {
                Ok(p) => p,
                Err(_) => {
                    // Dangling (or looping) link: whatever it names does not exist, and
                    // creating it would write wherever the link points. Refuse.
                    return Err(PathError::BadSymlink {
                        path: ancestor.display().to_string(),
                    });
                }
            }
        } else {
            std::fs::canonicalize(&ancestor).map_err(|e| PathError::Io {
                path: ancestor.display().to_string(),
                reason: e.to_string(),
            })?
        };
        return Ok(normalize_lexically(&base.join(rest)));
    }
    // Nothing exists at all (a relative path under a missing cwd, say): lexical only.
    Ok(normalize_lexically(path))
}

/// The path policy: allowed roots and deny rules.
#[derive(Debug, Clone)]
pub struct PathPolicy {
    allow: Vec<PathBuf>,
    deny: Vec<Deny>,
}

impl PathPolicy {
    /// Builds the policy. Invalid deny patterns are skipped with a warning (a typo must not
    /// make the server refuse to start, and the defaults still apply when configured).
    pub fn new(config: &PathPolicyConfig) -> Self {
        let deny = config
            .deny
            .iter()
            .filter_map(|p| {
                let d = Deny::parse(p);
                if d.is_none() {
                    tracing::warn!(pattern = %p, "ignoring invalid deny pattern");
                }
                d
            })
            .collect();
        PathPolicy {
            allow: config.allow.clone(),
            deny,
        }
    }

    /// The configured allowed roots (as configured, not resolved).
    pub fn allowed_roots(&self) -> &[PathBuf] {
        &self.allow
    }

    /// Checks a path given by a user or model. Relative paths resolve against `base`.
    /// Returns the resolved (canonical) path to use for the actual I/O.
    pub fn check_str(&self, raw: &str, base: &Path) -> Result<PathBuf, PathError> {
        validate_raw(raw)?;
        let p = Path::new(raw);
        let joined = if p.is_absolute() {
            p.to_path_buf()
        } else {
            base.join(p)
        };
        self.check_resolved_from(raw, &joined)
    }

    /// Checks an absolute path (or one relative to the process cwd, which the server never
    /// relies on). Returns the resolved path.
    pub fn check(&self, path: &Path) -> Result<PathBuf, PathError> {
        let raw = path.to_string_lossy();
        validate_raw(&raw)?;
        self.check_resolved_from(&raw, path)
    }

    /// Whether `path` is allowed (convenience for filters).
    pub fn is_allowed(&self, path: &Path) -> bool {
        self.check(path).is_ok()
    }

    fn check_resolved_from(&self, raw: &str, joined: &Path) -> Result<PathBuf, PathError> {
        let lexical = normalize_lexically(joined);
        let resolved = resolve(joined)?;
        let resolved_s = resolved.display().to_string();
        // Deny wins, and is checked on what was asked for as well as what it resolves to, so
        // a `.env` link is refused even if it points at something harmless.
        for d in &self.deny {
            if d.matches(joined) || d.matches(&lexical) || d.matches(&resolved) {
                return Err(PathError::Denied {
                    pattern: d.pattern.clone(),
                    input: raw.to_string(),
                    resolved: resolved_s,
                });
            }
        }
        let allowed = self.allow.iter().any(|root| match resolve(root) {
            Ok(r) => resolved.starts_with(&r),
            Err(_) => false,
        });
        if !allowed {
            return Err(PathError::NotAllowed {
                input: raw.to_string(),
                resolved: resolved_s,
            });
        }
        Ok(resolved)
    }
}

/// Cheap syntactic checks before touching the file system.
fn validate_raw(raw: &str) -> Result<(), PathError> {
    if raw.trim().is_empty() {
        return Err(PathError::Empty);
    }
    if raw.contains('\0') {
        return Err(PathError::NulByte);
    }
    if raw.len() > MAX_PATH_LEN {
        return Err(PathError::TooLong {
            len: raw.len(),
            max: MAX_PATH_LEN,
        });
    }
    if let Some(c) = raw.chars().find(|c| look_alike(*c)) {
        return Err(PathError::LookAlike {
            ch: c,
            code: c as u32,
        });
    }
    if raw.chars().any(|c| c.is_control()) {
        return Err(PathError::ControlChar);
    }
    if let Some(len) = Path::new(raw)
        .components()
        .map(|c| c.as_os_str().len())
        .find(|l| *l > MAX_COMPONENT_LEN)
    {
        return Err(PathError::ComponentTooLong { len });
    }
    Ok(())
}

/// File name of a path as UTF-8 (lossy), for messages.
pub fn display_name(path: &Path) -> String {
    path.file_name()
        .map(OsStr::to_string_lossy)
        .map(|s| s.into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::symlink;

    struct Fixture {
        _tmp: tempfile::TempDir,
        root: PathBuf,
        uploads: PathBuf,
        docs: PathBuf,
        outside: PathBuf,
        policy: PathPolicy,
    }

    fn fixture() -> Fixture {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = fs::canonicalize(tmp.path()).expect("canon");
        let data = root.join("data");
        let uploads = data.join("uploads");
        let docs = root.join("docs");
        let outside = root.join("outside");
        for d in [&uploads, &docs, &outside] {
            fs::create_dir_all(d).expect("mkdir");
        }
        fs::write(uploads.join("a.txt"), "hello").expect("write");
        fs::write(docs.join("guide.md"), "# guide").expect("write");
        fs::write(outside.join("secret_plans.txt"), "x").expect("write");
        fs::write(outside.join("plain.txt"), "x").expect("write");
        let policy = PathPolicy::new(&PathPolicyConfig::with_defaults(
            &data,
            std::slice::from_ref(&docs),
        ));
        Fixture {
            _tmp: tmp,
            root,
            uploads,
            docs,
            outside,
            policy,
        }
    }

    fn err(f: &Fixture, raw: &str) -> PathError {
        f.policy
            .check_str(raw, &f.uploads)
            .expect_err(&format!("{raw} must be refused"))
    }

    #[test]
    fn policy_path_allows_files_under_roots() {
        let f = fixture();
        let ok = f.policy.check_str("a.txt", &f.uploads).expect("allowed");
        assert_eq!(ok, f.uploads.join("a.txt"));
        let abs = f.docs.join("guide.md");
        assert_eq!(f.policy.check(&abs).expect("doc allowed"), abs);
        // Not existing yet (an upload target): allowed and resolved.
        let new = f
            .policy
            .check_str("sub/new.txt", &f.uploads)
            .expect("new file");
        assert_eq!(new, f.uploads.join("sub/new.txt"));
        // The root itself is allowed (bare `ls` in the working dir).
        assert!(f.policy.check(&f.uploads).is_ok());
    }

    #[test]
    fn policy_path_dotdot_in_every_position_cannot_escape() {
        let f = fixture();
        let attacks = [
            "../../outside/plain.txt",
            "../../../../../../../../etc/hostname",
            "./../../outside/plain.txt",
            "sub/../../../outside/plain.txt",
            "a.txt/../../../outside/plain.txt",
            "nonexist/../../../outside/plain.txt",
            "..",
            "../",
            "../..",
            "./../.",
        ];
        for a in attacks {
            let e = err(&f, a);
            assert!(matches!(e, PathError::NotAllowed { .. }), "{a}: {e:?}");
            assert!(e.to_string().starts_with("路径不在白名单中: "), "{e}");
        }
        // `..` that stays inside is fine.
        assert_eq!(
            f.policy
                .check_str("sub/../a.txt", &f.uploads)
                .expect("inside"),
            f.uploads.join("a.txt")
        );
    }

    #[test]
    fn policy_path_absolute_paths_outside_are_refused() {
        let f = fixture();
        for a in [
            "/",
            "/etc/hostname",
            "/root",
            "/tmp",
            "/usr/bin/ls",
            "//etc//hostname",
        ] {
            assert!(matches!(err(&f, a), PathError::NotAllowed { .. }), "{a}");
        }
        assert_eq!(
            err(&f, "/etc/hostname").to_string(),
            "路径不在白名单中: /etc/hostname"
        );
    }

    #[test]
    fn policy_path_sibling_prefix_never_matches() {
        let f = fixture();
        let evil = f.root.join("data").join("uploads_evil");
        fs::create_dir_all(&evil).expect("mkdir");
        fs::write(evil.join("x.txt"), "x").expect("write");
        let e = f.policy.check(&evil.join("x.txt")).expect_err("sibling");
        assert!(matches!(e, PathError::NotAllowed { .. }));
        assert!(f.policy.check(&evil).is_err());
    }

    #[test]
    fn policy_path_deny_list_wins_inside_allowed_roots() {
        let f = fixture();
        let cases = [
            (".env", "*/.env"),
            (".env.production", "*/.env.*"),
            ("proj/.git/config", "*/.git/config"),
            ("home/.ssh/authorized_keys", "**/.ssh"),
            ("home/.SSH/known_hosts", "**/.ssh"),
            ("id_rsa", "*/id_rsa"),
            ("id_ed25519", "*/id_ed25519"),
            ("id_ed25519.pub", "*/id_ed25519.*"),
            ("server.pem", "*/*.pem"),
            ("tls/server.KEY", "*/*.key"),
            ("my_secret_notes.txt", "**/*secret*"),
            ("Secrets/readme.md", "**/*secret*"),
            ("aws_credentials.json", "**/*credential*"),
        ];
        for (p, pattern) in cases {
            let e = err(&f, p);
            assert_eq!(e.to_string(), format!("路径匹配禁止模式: {pattern}"), "{p}");
            assert_eq!(e.code(), "denied_pattern");
        }
    }

    #[test]
    fn policy_path_system_files_denied_with_pattern() {
        let policy = PathPolicy::new(&PathPolicyConfig {
            allow: vec![PathBuf::from("/")],
            deny: DEFAULT_DENY_PATTERNS
                .iter()
                .map(|s| s.to_string())
                .collect(),
        });
        for (p, pattern) in [
            ("/etc/shadow", "/etc/shadow"),
            ("/etc/passwd", "/etc/passwd"),
            ("/etc/sudoers", "/etc/sudoers"),
            ("/etc/sudoers.d/README", "/etc/sudoers.d"),
            ("/etc/../etc/shadow", "/etc/shadow"),
            ("/proc/self/environ", "/proc"),
            ("/root/.ssh/id_rsa", "**/.ssh"),
        ] {
            let e = policy.check_str(p, Path::new("/")).expect_err(p);
            assert_eq!(e.to_string(), format!("路径匹配禁止模式: {pattern}"), "{p}");
        }
        // Even with `/` allowed, the deny list protects these; with defaults they are also
        // outside the allow-list, and the deny message is the more specific one.
        let f = fixture();
        assert_eq!(
            err(&f, "/etc/shadow").to_string(),
            "路径匹配禁止模式: /etc/shadow"
        );
    }

    #[test]
    fn policy_path_symlink_out_of_allow_list_is_refused() {
        let f = fixture();
        symlink(f.outside.join("plain.txt"), f.uploads.join("link.txt")).expect("symlink");
        let e = err(&f, "link.txt");
        assert!(matches!(e, PathError::NotAllowed { .. }), "{e:?}");
        assert!(e.to_string().contains("实际指向"), "{e}");
        // A link to /etc/shadow is refused by the deny list on its resolved target.
        symlink("/etc/shadow", f.uploads.join("innocent.txt")).expect("symlink");
        assert_eq!(
            err(&f, "innocent.txt").to_string(),
            "路径匹配禁止模式: /etc/shadow"
        );
    }

    #[test]
    fn policy_path_symlinked_parent_out_of_allow_list_is_refused() {
        let f = fixture();
        symlink(&f.outside, f.uploads.join("dir")).expect("symlink");
        assert!(matches!(
            err(&f, "dir/plain.txt"),
            PathError::NotAllowed { .. }
        ));
        // Also for files that do not exist yet below the linked directory.
        assert!(matches!(
            err(&f, "dir/new.txt"),
            PathError::NotAllowed { .. }
        ));
        // `dir/..` resolves physically to outside's parent, never lexically back to uploads.
        assert!(matches!(
            err(&f, "dir/../a.txt"),
            PathError::NotAllowed { .. }
        ));
    }

    #[test]
    fn policy_path_symlink_inside_allow_list_is_followed() {
        let f = fixture();
        symlink(f.uploads.join("a.txt"), f.uploads.join("alias.txt")).expect("symlink");
        assert_eq!(
            f.policy.check_str("alias.txt", &f.uploads).expect("ok"),
            f.uploads.join("a.txt")
        );
    }

    #[test]
    fn policy_path_dangling_and_looping_symlinks_are_refused() {
        let f = fixture();
        symlink(f.outside.join("missing.txt"), f.uploads.join("dangling")).expect("symlink");
        assert!(matches!(err(&f, "dangling"), PathError::BadSymlink { .. }));
        symlink(f.uploads.join("loop_b"), f.uploads.join("loop_a")).expect("symlink");
        symlink(f.uploads.join("loop_a"), f.uploads.join("loop_b")).expect("symlink");
        assert!(matches!(err(&f, "loop_a"), PathError::BadSymlink { .. }));
    }

    #[test]
    fn policy_path_unicode_look_alikes_are_refused() {
        let f = fixture();
        for a in [
            "／etc／passwd",
            "..／..／outside／plain.txt",
            "．．/．．/outside/plain.txt",
            "a\u{2215}b",
            "x\u{202E}txt.exe",
            "a\u{200B}.txt",
        ] {
            assert!(matches!(err(&f, a), PathError::LookAlike { .. }), "{a}");
        }
        assert!(err(&f, "／etc／passwd").to_string().contains("U+FF0F"));
    }

    #[test]
    fn policy_path_nul_empty_control_and_long_are_refused() {
        let f = fixture();
        assert_eq!(err(&f, ""), PathError::Empty);
        assert_eq!(err(&f, "   "), PathError::Empty);
        assert_eq!(err(&f, "a.txt\0/etc/passwd"), PathError::NulByte);
        assert_eq!(err(&f, "a\nb"), PathError::ControlChar);
        let long = "a/".repeat(2100);
        assert!(matches!(err(&f, &long), PathError::TooLong { .. }));
        assert!(err(&f, &long).to_string().starts_with("路径过长"));
        let long_name = "x".repeat(300);
        assert!(matches!(
            err(&f, &long_name),
            PathError::ComponentTooLong { len: 300 }
        ));
    }

    #[test]
    fn policy_path_invalid_deny_patterns_are_skipped() {
        let p = PathPolicy::new(&PathPolicyConfig {
            allow: vec![PathBuf::from("/tmp")],
            deny: vec!["**/".into(), "a/b".into(), "*/".into(), "x".into()],
        });
        assert_eq!(p.deny.len(), 1);
    }

    #[test]
    fn policy_path_glob_matcher() {
        assert!(glob_match("*.pem", "server.pem"));
        assert!(!glob_match("*.pem", "server.pem.txt"));
        assert!(glob_match("*secret*", "secret"));
        assert!(glob_match("id_rsa.*", "id_rsa.pub"));
        assert!(!glob_match("id_rsa.*", "id_rsa"));
        assert!(glob_match("a?c", "abc"));
        assert!(glob_match("*a*b*c*", "xxaxxbxxcxx"));
        assert!(!glob_match("*a*b*c*", "xxaxxcxxbxx"));
    }

    proptest::proptest! {
        /// Any relative path built from hostile pieces either resolves inside an allowed root
        /// or is refused: never allowed outside.
        #[test]
        fn policy_path_prop_never_escapes(pieces in proptest::collection::vec(
            proptest::sample::select(vec!["..", ".", "a.txt", "sub", "outside", "/", "//", "etc", "passwd", "x y"]),
            0..12,
        )) {
            let f = fixture();
            let raw = pieces.join("/");
            if let Ok(p) = f.policy.check_str(&raw, &f.uploads) {
                proptest::prop_assert!(
                    p.starts_with(&f.uploads) || p.starts_with(&f.docs) || p.starts_with("/var/log"),
                    "{raw} -> {}", p.display()
                );
            }
        }
    }
}
