//! Operator-defined actions from `[[actions.custom]]` in server.toml: a name, a description,
//! an argv template whose placeholders (`{service}`) are typed parameters. Templates are
//! validated at load; a parameter value replaces its placeholder inside one argv element and
//! can never split it, add an element, or start an option.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde::Deserialize;

use super::{ActionConfigError, ActionError};

/// Characters never accepted in a parameter value (shell syntax, globs, quotes, braces).
const FORBIDDEN_VALUE_CHARS: &[char] = &[
    ';', '&', '|', '>', '<', '`', '$', '(', ')', '{', '}', '[', ']', '*', '?', '!', '~', '\'', '"',
    '\\', '#', '%', '=', ',',
];
const MAX_VALUE_LEN: usize = 256;

/// The type of one parameter.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum ParamKind {
    /// A systemd unit name (checked against the unit deny rules too).
    Unit,
    /// `[A-Za-z0-9_.-]`, not starting with `-` or `.`.
    Name,
    /// A decimal integer in `[min, max]`.
    Int { min: i64, max: i64 },
    /// One of the listed words.
    Enum { values: Vec<String> },
    /// An absolute path under one of `roots`, without `..`.
    Path { roots: Vec<PathBuf> },
}

/// One `[[actions.custom]]` table as written.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomActionConfig {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub argv: Vec<String>,
    #[serde(default)]
    pub params: BTreeMap<String, ParamKind>,
    /// What can go wrong, shown in the approval request.
    #[serde(default)]
    pub risk: Option<String>,
}

/// One piece of an argv template element.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    Param(String),
}

/// A validated configured action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomAction {
    pub name: String,
    pub description: String,
    pub risk: Option<String>,
    params: BTreeMap<String, ParamKind>,
    template: Vec<Vec<Piece>>,
}

impl CustomAction {
    /// Validates a configured action: name, absolute program, known placeholders, every
    /// parameter used, parameter kinds well formed, fixed text free of shell syntax.
    pub fn new(cfg: &CustomActionConfig) -> Result<CustomAction, ActionConfigError> {
        let name = cfg.name.clone();
        let name_ok = !name.is_empty()
            && name.len() <= 64
            && !name.starts_with('-')
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !name_ok {
            return Err(ActionConfigError::BadName(name));
        }
        let program = cfg
            .argv
            .first()
            .ok_or_else(|| ActionConfigError::EmptyArgv(name.clone()))?;
        if !program.starts_with('/') || program.contains('{') || program.contains("..") {
            return Err(ActionConfigError::ProgramNotAbsolute {
                action: name,
                program: program.clone(),
            });
        }
        for (p, kind) in &cfg.params {
            let p_ok = !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if !p_ok {
                return Err(ActionConfigError::BadParamName {
                    action: name,
                    param: p.clone(),
                });
            }
            check_kind(&name, p, kind)?;
        }
        let mut template = Vec::new();
        for element in &cfg.argv {
            let pieces = split_template(element).ok_or_else(|| ActionConfigError::BadTemplate {
                action: name.clone(),
                element: element.clone(),
            })?;
            for piece in &pieces {
                match piece {
                    Piece::Param(p) if !cfg.params.contains_key(p) => {
                        return Err(ActionConfigError::UnknownPlaceholder {
                            action: name,
                            element: element.clone(),
                            placeholder: p.clone(),
                        })
                    }
                    Piece::Text(t)
                        if t.chars().any(|c| c.is_control() || "`$;|&<>".contains(c)) =>
                    {
                        return Err(ActionConfigError::BadLiteral {
                            action: name,
                            element: element.clone(),
                        })
                    }
                    _ => {}
                }
            }
            template.push(pieces);
        }
        for p in cfg.params.keys() {
            let used = template
                .iter()
                .flatten()
                .any(|piece| matches!(piece, Piece::Param(q) if q == p));
            if !used {
                return Err(ActionConfigError::UnusedParam {
                    action: name,
                    param: p.clone(),
                });
            }
        }
        Ok(CustomAction {
            name,
            description: cfg.description.clone(),
            risk: cfg.risk.clone(),
            params: cfg.params.clone(),
            template,
        })
    }

    /// The template as configured (`/usr/sbin/logrotate -f /etc/logrotate.d/{service}`).
    pub fn template_text(&self) -> String {
        self.template
            .iter()
            .map(|pieces| {
                pieces
                    .iter()
                    .map(|p| match p {
                        Piece::Text(t) => t.clone(),
                        Piece::Param(n) => format!("{{{n}}}"),
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The parameters with their kinds.
    pub fn params(&self) -> &BTreeMap<String, ParamKind> {
        &self.params
    }

    /// The argv for these parameter values, and the unit-kind values (for the deny rules).
    pub fn build(
        &self,
        values: &BTreeMap<String, String>,
    ) -> Result<(Vec<String>, Vec<String>), ActionError> {
        if let Some(k) = values.keys().find(|k| !self.params.contains_key(*k)) {
            return Err(ActionError::UnknownParam {
                action: self.name.clone(),
                param: k.clone(),
            });
        }
        let mut units = Vec::new();
        for (p, kind) in &self.params {
            let v = values.get(p).ok_or_else(|| ActionError::MissingParam {
                action: self.name.clone(),
                param: p.clone(),
            })?;
            check_value(p, v, kind)?;
            if *kind == ParamKind::Unit {
                units.push(v.clone());
            }
        }
        let argv = self
            .template
            .iter()
            .map(|pieces| {
                pieces
                    .iter()
                    .map(|piece| match piece {
                        Piece::Text(t) => t.as_str(),
                        // Present: every parameter was looked up above.
                        Piece::Param(p) => values.get(p).map_or("", String::as_str),
                    })
                    .collect::<String>()
            })
            .collect();
        Ok((argv, units))
    }
}

/// `a{x}b{y}` → [Text a, Param x, Text b, Param y]; None on unbalanced or nested braces.
fn split_template(element: &str) -> Option<Vec<Piece>> {
    let mut out = Vec::new();
    let mut rest = element;
    while let Some(i) = rest.find(['{', '}']) {
        if rest[i..].starts_with('}') {
            return None;
        }
        let after = &rest[i + 1..];
        let j = after.find('}')?;
        let name = &after[..j];
        if name.is_empty() || name.contains('{') {
            return None;
        }
        if i > 0 {
            out.push(Piece::Text(rest[..i].to_string()));
        }
        out.push(Piece::Param(name.to_string()));
        rest = &after[j + 1..];
    }
    if !rest.is_empty() || out.is_empty() {
        out.push(Piece::Text(rest.to_string()));
    }
    Some(out)
}

fn check_kind(action: &str, param: &str, kind: &ParamKind) -> Result<(), ActionConfigError> {
    let bad = |why: &str| ActionConfigError::BadParamKind {
        action: action.to_string(),
        param: param.to_string(),
        why: why.to_string(),
    };
    match kind {
        ParamKind::Int { min, max } if min > max => Err(bad("min > max")),
        ParamKind::Enum { values } if values.is_empty() => Err(bad("empty enum")),
        ParamKind::Enum { values } => match values.iter().find(|v| generic_value(v).is_err()) {
            Some(v) => Err(bad(&format!("enum value {v:?} has forbidden characters"))),
            None => Ok(()),
        },
        ParamKind::Path { roots } if roots.is_empty() => Err(bad("no roots")),
        ParamKind::Path { roots } => match roots.iter().find(|r| !clean_absolute(r)) {
            Some(r) => Err(bad(&format!(
                "root {} must be absolute without ..",
                r.display()
            ))),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

/// Rules every value obeys whatever its kind.
fn generic_value(v: &str) -> Result<(), &'static str> {
    if v.is_empty() {
        return Err("为空 / empty");
    }
    if v.len() > MAX_VALUE_LEN {
        return Err("过长 / too long");
    }
    if v.starts_with('-') {
        return Err("不能以 - 开头 (选项) / starts with - (an option)");
    }
    if v.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("包含空白或控制字符 / contains whitespace or control characters");
    }
    if !v.is_ascii() {
        return Err("只允许 ASCII / ASCII only");
    }
    if v.contains(FORBIDDEN_VALUE_CHARS) {
        return Err("包含 shell 元字符、通配符或引号 / contains shell syntax, globs or quotes");
    }
    if v.split('/').any(|c| c == "..") {
        return Err("包含 .. / contains ..");
    }
    Ok(())
}

fn check_value(param: &str, v: &str, kind: &ParamKind) -> Result<(), ActionError> {
    let bad = |why: &str| ActionError::BadParam {
        param: param.to_string(),
        value: v.to_string(),
        why: why.to_string(),
    };
    generic_value(v).map_err(bad)?;
    match kind {
        ParamKind::Unit => {
            super::grammar::check_unit(v).map_err(|_| bad("不是服务单元名 / not a unit name"))
        }
        ParamKind::Name => {
            let ok = !v.starts_with('.')
                && v.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
            if ok {
                Ok(())
            } else {
                Err(bad("只允许 [A-Za-z0-9_.-]，不能以 . 开头 / only [A-Za-z0-9_.-], not starting with ."))
            }
        }
        ParamKind::Int { min, max } => {
            // Digits only (a value never starts with `-`, so the range is what is ≥ 0).
            let n = v
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| v.parse::<i64>().ok())
                .flatten()
                .ok_or_else(|| bad("不是整数 / not an integer"))?;
            if n < *min || n > *max {
                return Err(bad(&format!(
                    "超出范围 [{min}, {max}] / out of range [{min}, {max}]"
                )));
            }
            Ok(())
        }
        ParamKind::Enum { values } => {
            if values.iter().any(|x| x == v) {
                Ok(())
            } else {
                Err(bad(&format!(
                    "只能是 {} / must be one of {}",
                    values.join("|"),
                    values.join("|")
                )))
            }
        }
        ParamKind::Path { roots } => {
            let p = Path::new(v);
            if !clean_absolute(p) {
                return Err(bad(
                    "必须是不含 .. 的绝对路径 / must be absolute without ..",
                ));
            }
            if roots.iter().any(|r| p.starts_with(r) && p != r) {
                Ok(())
            } else {
                let list: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
                Err(bad(&format!(
                    "不在允许的目录下 ({}) / not under an allowed root ({})",
                    list.join(", "),
                    list.join(", ")
                )))
            }
        }
    }
}

fn clean_absolute(p: &Path) -> bool {
    p.is_absolute()
        && p.components()
            .all(|c| matches!(c, Component::RootDir | Component::Normal(_)))
}
