//! Path policy: resolves a path (symlinks included) and decides by path components whether
//! the tools may touch it. Allow-list by component prefix, deny-list wins, except that a short
//! list of specific read-only files (exceptions) beats the broad top-level denies of `/proc`,
//! `/sys` and `/dev`. Never decides by string prefix and never trusts a path before it has
//! been resolved.
//!
//! Deny pattern syntax (all matching is ASCII case-insensitive, `*` and `?` are globs within
//! one component):
//! - `/abs/path`   the path itself and everything under it (`/etc/shadow`, `/etc/sudoers.d`)
//! - `**/NAME`     any component matches NAME (`**/.ssh`, `**/*secret*`)
//! - `*/A[/B...]`  the last components match (`*/.env`, `*/*.key`, `*/.git/config`)
//! - any of these followed by ` contains:TEXT`: only when the resolved file contains TEXT
//!   (`*/*.pem contains:PRIVATE KEY`: certificates stay readable, private keys do not; a file
//!   that cannot be read or is over 16 MiB counts as containing it).
//!
//! Exception syntax (case-sensitive, matched against the resolved path): an absolute path
//! whose components are globs, `<pid>` (a numeric component) or `**` (any number of
//! components, not last): `/proc/<pid>/status`, `/sys/class/net/*/statistics/*`. An exception
//! makes the file readable even outside the allowed roots and beats a top-level deny (an
//! `/abs` pattern of a single component: `/proc`, `/sys`, `/dev`); every other deny pattern
//! (`/proc/1`, `**/*secret*`, `*/.env`, ...) still wins over it.

mod rules;
#[cfg(test)]
mod tests;

use std::ffi::OsStr;
use std::io;
use std::path::{Component, Path, PathBuf};

use rules::{content_matches, normalize_lexically, Deny, Exception};

/// Longest accepted path in bytes (Linux PATH_MAX).
pub const MAX_PATH_LEN: usize = 4096;
/// Longest accepted single component in bytes (Linux NAME_MAX).
const MAX_COMPONENT_LEN: usize = 255;

/// Read roots allowed by default besides the uploads and the doc folders.
pub const DEFAULT_SYSTEM_ROOTS: &[&str] = &["/var/log", "/etc"];

/// Default deny patterns: credentials, keys, account databases, anything named secret or
/// password, and the pseudo file systems (with exceptions, see `DEFAULT_EXCEPTIONS`).
pub const DEFAULT_DENY_PATTERNS: &[&str] = &[
    // Account databases and their backups, sudo rules.
    "/etc/shadow",
    "/etc/shadow-",
    "/etc/gshadow",
    "/etc/gshadow-",
    "/etc/passwd",
    "/etc/passwd-",
    "/etc/security/opasswd",
    "/etc/sudoers",
    "/etc/sudoers.d",
    // Host keys and TLS private keys (`.pub` host keys and certificates stay readable).
    "*/ssh_host_*_key",
    "/etc/ssl/private",
    "*/*.key",
    "*/*.pem contains:PRIVATE KEY",
    "*/*.crt contains:PRIVATE KEY",
    "*/*.p12",
    "*/*.pfx",
    "*/*.jks",
    "*/*.keystore",
    "*/*.keytab",
    // Credential stores of users and services.
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
    "*/.my.cnf",
    "*/.htpasswd",
    "/etc/mysql/debian.cnf",
    "/etc/NetworkManager/system-connections",
    "/etc/wpa_supplicant",
    "*/id_rsa",
    "*/id_rsa.*",
    "*/id_dsa",
    "*/id_dsa.*",
    "*/id_ecdsa",
    "*/id_ecdsa.*",
    "*/id_ed25519",
    "*/id_ed25519.*",
    "**/*secret*",
    "**/*password*",
    "**/*credential*",
    // Pseudo file systems: broad, so the exceptions below can open single files.
    "/proc",
    "/sys",
    "/dev",
];

/// Default exceptions: read-only figures of the machine that answer incident questions.
/// Environments (`/proc/PID/environ`), command lines of other processes, memory maps and
/// everything else under `/proc` and `/sys` stay denied.
pub const DEFAULT_EXCEPTIONS: &[&str] = &[
    "/proc/loadavg",
    "/proc/meminfo",
    "/proc/cpuinfo",
    "/proc/uptime",
    "/proc/version",
    "/proc/<pid>/status",
    // Interface counters; `/sys/class/net/X` links into `/sys/devices/.../net/X`.
    "/sys/class/net/*/statistics/*",
    "/sys/devices/**/net/*/statistics/*",
    // Container limits and usage, cgroup v2 and v1.
    "/sys/fs/cgroup/**/memory.max",
    "/sys/fs/cgroup/**/memory.current",
    "/sys/fs/cgroup/**/cpu.max",
    "/sys/fs/cgroup/**/memory.limit_in_bytes",
    "/sys/fs/cgroup/**/memory.usage_in_bytes",
    // `/etc/os-release` links here.
    "/usr/lib/os-release",
];

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Configuration of the path policy (what the config file and CLI flags fill in).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PathPolicyConfig {
    /// Allowed roots: a path is allowed when it is one of these or under one (by components).
    pub allow: Vec<PathBuf>,
    /// Deny patterns (see module docs); deny wins over allow.
    pub deny: Vec<String>,
    /// Exception patterns (see module docs): specific files readable despite a top-level deny.
    #[serde(default)]
    pub exceptions: Vec<String>,
}

/// The `[path_policy]` table of `server.toml`. Lists that are set replace the defaults;
/// `extra_*` lists add to them. Uploads, doc folders and `allow_paths` are always allowed.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathPolicyOverrides {
    /// Replaces `DEFAULT_SYSTEM_ROOTS` (`/var/log`, `/etc`).
    pub roots: Option<Vec<PathBuf>>,
    /// Replaces `DEFAULT_DENY_PATTERNS` (think twice: the defaults protect credentials).
    pub deny: Option<Vec<String>>,
    /// Added to the deny patterns.
    #[serde(default)]
    pub extra_deny: Vec<String>,
    /// Replaces `DEFAULT_EXCEPTIONS` (`[]` turns them all off).
    pub exceptions: Option<Vec<String>>,
    /// Added to the exceptions.
    #[serde(default)]
    pub extra_exceptions: Vec<String>,
}

impl PathPolicyConfig {
    /// Default: `{data_dir}/uploads`, the configured doc folders, `/var/log` and `/etc` are
    /// allowed, with the default deny list and exceptions.
    pub fn with_defaults(data_dir: &Path, doc_dirs: &[PathBuf]) -> Self {
        Self::with_overrides(data_dir, doc_dirs, &PathPolicyOverrides::default())
    }

    /// The defaults with the `[path_policy]` table of the config file applied.
    pub fn with_overrides(
        data_dir: &Path,
        doc_dirs: &[PathBuf],
        overrides: &PathPolicyOverrides,
    ) -> Self {
        let mut allow = vec![data_dir.join("uploads")];
        allow.extend(doc_dirs.iter().cloned());
        match &overrides.roots {
            Some(roots) => allow.extend(roots.iter().cloned()),
            None => allow.extend(DEFAULT_SYSTEM_ROOTS.iter().map(PathBuf::from)),
        }
        let mut deny = overrides
            .deny
            .clone()
            .unwrap_or_else(|| strings(DEFAULT_DENY_PATTERNS));
        deny.extend(overrides.extra_deny.iter().cloned());
        let mut exceptions = overrides
            .exceptions
            .clone()
            .unwrap_or_else(|| strings(DEFAULT_EXCEPTIONS));
        exceptions.extend(overrides.extra_exceptions.iter().cloned());
        PathPolicyConfig {
            allow,
            deny,
            exceptions,
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
    exceptions: Vec<Exception>,
}

impl PathPolicy {
    /// Builds the policy. Invalid deny and exception patterns are skipped with a warning (a
    /// typo must not make the server refuse to start, and the defaults still apply when
    /// configured).
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
        let exceptions = config
            .exceptions
            .iter()
            .filter_map(|p| {
                let e = Exception::parse(p);
                if e.is_none() {
                    tracing::warn!(pattern = %p, "ignoring invalid path exception");
                }
                e
            })
            .collect();
        PathPolicy {
            allow: config.allow.clone(),
            deny,
            exceptions,
        }
    }

    /// The exception patterns in force (after skipping invalid ones).
    pub fn exceptions(&self) -> impl Iterator<Item = &str> {
        self.exceptions.iter().map(|e| e.pattern.as_str())
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
        // An exception names the file actually read, so it is matched on the resolved path.
        let excepted = self.exceptions.iter().any(|e| e.matches(&resolved));
        // Deny wins, and is checked on what was asked for as well as what it resolves to, so
        // a `.env` link is refused even if it points at something harmless. Only a top-level
        // deny (`/proc`) yields to an exception; a content condition is checked on the file
        // actually read.
        for d in &self.deny {
            if d.matches(joined) || d.matches(&lexical) || d.matches(&resolved) {
                if excepted && d.is_top_level() {
                    continue;
                }
                if let Some(text) = &d.contains {
                    if !content_matches(&resolved, text) {
                        continue;
                    }
                }
                return Err(PathError::Denied {
                    pattern: d.pattern.clone(),
                    input: raw.to_string(),
                    resolved: resolved_s,
                });
            }
        }
        let allowed = excepted
            || self.allow.iter().any(|root| match resolve(root) {
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
