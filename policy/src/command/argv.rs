//! Interprets a GNU-style grammar from `table.rs`: splits an argv into flags (with their
//! values) and operands, validates every value by its kind, and re-emits a canonical argv
//! (one flag per argument, values separate, paths replaced by their resolved form).

use std::ffi::OsString;

use super::resolve::Resolver;
use super::table::{supported_list, Arg, Cmd, Flag, Grammar, Val};
use super::CommandError;

/// One parsed flag occurrence.
#[derive(Debug, Clone)]
pub struct Opt {
    pub flag: &'static Flag,
    pub value: Option<String>,
}

/// A parsed argv.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub opts: Vec<Opt>,
    pub operands: Vec<String>,
}

impl Parsed {
    /// Whether any of the spellings (`-f`, `--follow`) was given.
    pub fn has(&self, names: &[&str]) -> bool {
        self.opts.iter().any(|o| names.iter().any(|n| o.flag.is(n)))
    }

    /// The value of the last occurrence of any of the spellings.
    pub fn value(&self, names: &[&str]) -> Option<&str> {
        self.opts
            .iter()
            .rev()
            .find(|o| names.iter().any(|n| o.flag.is(n)))
            .and_then(|o| o.value.as_deref())
    }
}

fn unsupported(cmd: Cmd, g: &Grammar, option: &str) -> CommandError {
    CommandError::UnsupportedOption {
        command: cmd.name().to_string(),
        option: option.to_string(),
        hint: format!("（支持 / supported: {}）", supported_list(g)),
    }
}

fn refused(cmd: Cmd, g: &Grammar, spelled: &str) -> Option<CommandError> {
    g.refused
        .iter()
        .find(|(f, _)| *f == spelled)
        .map(|(f, why)| CommandError::RefusedOption {
            command: cmd.name().to_string(),
            option: f.to_string(),
            reason: why.to_string(),
        })
}

/// `--name=value` or `--name`: the option's name and its inline value (both parsers).
pub(super) fn split_long(long: &str) -> (&str, Option<String>) {
    match long.split_once('=') {
        Some((n, v)) => (n, Some(v.to_string())),
        None => (long, None),
    }
}

/// Splits `args` by grammar `g`. Values are validated; paths are not resolved yet.
pub fn parse(cmd: Cmd, g: &'static Grammar, args: &[String]) -> Result<Parsed, CommandError> {
    let mut p = Parsed::default();
    let mut only_operands = false;
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if only_operands || arg == "-" || !(arg.starts_with('-') || arg.starts_with('+')) {
            p.operands.push(arg.clone());
            continue;
        }
        if arg.starts_with('+') {
            // `+r` style (lsof) or `tail +5`: only refusals know them.
            if let Some(e) = refused(cmd, g, arg) {
                return Err(e);
            }
            p.operands.push(arg.clone());
            continue;
        }
        if arg == "--" {
            only_operands = true;
            continue;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let opt = parse_long(cmd, g, args, &mut i, long)?;
            p.opts.push(opt);
            continue;
        }
        parse_short(cmd, g, args, &mut i, arg, &mut p)?;
    }
    Ok(p)
}

/// One `--name` or `--name=value`; a separate value is taken from `args[*i]`.
fn parse_long(
    cmd: Cmd,
    g: &'static Grammar,
    args: &[String],
    i: &mut usize,
    long: &str,
) -> Result<Opt, CommandError> {
    let (name, inline) = split_long(long);
    let spelled = format!("--{name}");
    if let Some(e) = refused(cmd, g, &spelled) {
        return Err(e);
    }
    let flag = g
        .flags
        .iter()
        .find(|f| f.long == Some(name))
        .ok_or_else(|| unsupported(cmd, g, &spelled))?;
    let value = match flag.arg {
        Arg::No => {
            if inline.is_some() {
                return Err(CommandError::BadValue {
                    command: cmd.name().into(),
                    option: spelled,
                    value: inline.unwrap_or_default(),
                    expected: "无参数 (no value)".into(),
                });
            }
            None
        }
        Arg::Req(v) => {
            let val = inline_or_next(inline, args, i, &spelled)?;
            Some(check_value(cmd, &spelled, v, val)?)
        }
        Arg::OptAttached(v) => match inline {
            Some(x) => Some(check_value(cmd, &spelled, v, x)?),
            None => None,
        },
        Arg::OptNext(v) => match inline {
            Some(x) => Some(check_value(cmd, &spelled, v, x)?),
            None => take_if_valid(cmd, args, i, v),
        },
    };
    Ok(Opt { flag, value })
}

/// Short cluster: `-la`, `-n5`, `-n 5`, or `-20` where numbers mean a count. Pushes one
/// `Opt` per flag to `p`.
fn parse_short(
    cmd: Cmd,
    g: &'static Grammar,
    args: &[String],
    i: &mut usize,
    arg: &str,
    p: &mut Parsed,
) -> Result<(), CommandError> {
    let body = &arg[1..];
    if let Some(c) = g.numeric_short {
        if body.bytes().all(|b| b.is_ascii_digit()) {
            let flag = g
                .flags
                .iter()
                .find(|f| f.short == Some(c))
                .ok_or_else(|| unsupported(cmd, g, arg))?;
            p.opts.push(Opt {
                flag,
                value: Some(body.to_string()),
            });
            return Ok(());
        }
    }
    let chars: Vec<(usize, char)> = body.char_indices().collect();
    let mut k = 0;
    while k < chars.len() {
        let (pos, c) = chars[k];
        k += 1;
        let spelled = format!("-{c}");
        if let Some(e) = refused(cmd, g, &spelled) {
            return Err(e);
        }
        let flag = g
            .flags
            .iter()
            .find(|f| f.short == Some(c))
            .ok_or_else(|| unsupported(cmd, g, &spelled))?;
        let rest = &body[pos + c.len_utf8()..];
        let value = match flag.arg {
            Arg::No => None,
            Arg::Req(v) => {
                let val = if rest.is_empty() {
                    take(args, i, &spelled)?
                } else {
                    rest.to_string()
                };
                k = chars.len();
                Some(check_value(cmd, &spelled, v, val)?)
            }
            Arg::OptAttached(v) => {
                k = chars.len();
                if rest.is_empty() {
                    None
                } else {
                    Some(check_value(cmd, &spelled, v, rest.to_string())?)
                }
            }
            Arg::OptNext(v) => {
                k = chars.len();
                if rest.is_empty() {
                    take_if_valid(cmd, args, i, v)
                } else {
                    Some(check_value(cmd, &spelled, v, rest.to_string())?)
                }
            }
        };
        p.opts.push(Opt { flag, value });
    }
    Ok(())
}

/// An option's value: written with it (`--max-count=5`), else the next argument.
pub(super) fn inline_or_next(
    inline: Option<String>,
    args: &[String],
    i: &mut usize,
    option: &str,
) -> Result<String, CommandError> {
    match inline {
        Some(v) => Ok(v),
        None => take(args, i, option),
    }
}

/// The value of an option written apart from it (`-e PATTERN`): the next argument.
pub(super) fn take(args: &[String], i: &mut usize, option: &str) -> Result<String, CommandError> {
    let v = args
        .get(*i)
        .ok_or_else(|| CommandError::MissingOptionValue {
            option: option.to_string(),
        })?;
    *i += 1;
    Ok(v.clone())
}

fn take_if_valid(cmd: Cmd, args: &[String], i: &mut usize, v: Val) -> Option<String> {
    let next = args.get(*i)?;
    let ok = check_value(cmd, "", v, next.clone()).ok()?;
    *i += 1;
    Some(ok)
}

/// Emits the canonical argv: `-x VALUE` or `--long=VALUE` per flag, then the operands as
/// `operand` returns them. Path values are resolved through `res`.
pub fn emit(
    p: &Parsed,
    res: &mut Resolver<'_>,
    mut operand: impl FnMut(&str, &mut Resolver<'_>) -> Result<OsString, CommandError>,
) -> Result<Vec<OsString>, CommandError> {
    let mut argv: Vec<OsString> = Vec::with_capacity(p.opts.len() * 2 + p.operands.len());
    for o in &p.opts {
        let val_kind = match o.flag.arg {
            Arg::No => None,
            Arg::Req(v) | Arg::OptAttached(v) | Arg::OptNext(v) => Some(v),
        };
        let value: Option<OsString> = match (&o.value, val_kind) {
            (Some(v), Some(Val::Path)) => Some(res.path(v)?.into_os_string()),
            (Some(v), _) => Some(v.into()),
            (None, _) => None,
        };
        let attached = matches!(o.flag.arg, Arg::OptAttached(_));
        match (o.flag.short, o.flag.long, value) {
            (Some(c), _, None) => argv.push(format!("-{c}").into()),
            (Some(c), _, Some(v)) if attached => {
                let mut s = OsString::from(format!("-{c}"));
                s.push(v);
                argv.push(s);
            }
            (Some(c), _, Some(v)) => {
                argv.push(format!("-{c}").into());
                argv.push(v);
            }
            (None, Some(l), None) => argv.push(format!("--{l}").into()),
            (None, Some(l), Some(v)) => {
                let mut s = OsString::from(format!("--{l}="));
                s.push(v);
                argv.push(s);
            }
            (None, None, _) => {}
        }
    }
    for op in &p.operands {
        argv.push(operand(op, res)?);
    }
    Ok(argv)
}

fn bad(cmd: Cmd, option: &str, value: &str, expected: &str) -> CommandError {
    CommandError::BadValue {
        command: cmd.name().to_string(),
        option: option.to_string(),
        value: value.to_string(),
        expected: expected.to_string(),
    }
}

fn all_chars(s: &str, ok: impl Fn(char) -> bool) -> bool {
    !s.is_empty() && s.chars().all(ok)
}

fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '@' | ':' | '+')
}

/// Whether `s` is a valid systemd unit name: `[A-Za-z0-9:_.@-]`, no leading `-`, no `/`, no
/// globs, not `.`/`..`.
pub fn is_unit_name(s: &str) -> bool {
    s.len() <= 256
        && !s.starts_with('-')
        && !s.starts_with('.')
        && all_chars(s, |c| {
            c.is_ascii_alphanumeric() || matches!(c, ':' | '_' | '.' | '@' | '-')
        })
}

/// Whether `s` is a host name (RFC 1123 labels) or an IPv4/IPv6 literal.
pub fn is_host(s: &str) -> bool {
    if s.parse::<std::net::IpAddr>().is_ok() {
        return true;
    }
    s.len() <= 253
        && !s.is_empty()
        && s.trim_end_matches('.').split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

const PS_ENV_FIELDS: &[&str] = &["environ", "env", "e"];

/// Validates one value; returns it unchanged when valid.
pub fn check_value(cmd: Cmd, option: &str, v: Val, value: String) -> Result<String, CommandError> {
    let ok = value_ok(cmd, option, v, &value)?;
    if ok {
        Ok(value)
    } else {
        Err(bad(cmd, option, &value, expected(v)))
    }
}

/// Whether `value` is of kind `v`; `Err` where a kind has a more precise refusal than
/// "expected ...".
fn value_ok(cmd: Cmd, option: &str, v: Val, value: &str) -> Result<bool, CommandError> {
    let ok = match v {
        Val::Count { max } => match value.parse::<u64>() {
            Ok(n) if n <= max => true,
            Ok(_) => return Err(bad(cmd, option, value, &format!("0..={max} 的整数"))),
            Err(_) => false,
        },
        Val::Amount => is_amount(value),
        Val::Secs { min, max } => match value.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= min && x <= max => true,
            Ok(_) => {
                return Err(bad(
                    cmd,
                    option,
                    value,
                    &format!("{min} 到 {max} 秒 (seconds)"),
                ))
            }
            Err(_) => false,
        },
        Val::OneOf(set) => set.contains(&value),
        Val::ListOf(set) => value.split(',').all(|x| set.contains(&x)),
        // Paths are checked by the path policy when emitted.
        Val::Path => !value.is_empty(),
        Val::Text => !value.is_empty(),
        Val::Pids => value
            .split(',')
            .all(|x| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit())),
        Val::Users => value.split(',').all(|x| {
            !x.starts_with('-')
                && all_chars(x, |c| {
                    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
                })
        }),
        Val::Names => value
            .split(',')
            .all(|x| !x.starts_with('-') && all_chars(x, name_char)),
        Val::Unit => is_unit_name(value),
        Val::Char => value.chars().count() == 1,
        Val::Ranges => all_chars(value, |c| c.is_ascii_digit() || c == ',' || c == '-'),
        Val::Size => all_chars(value, |c| c.is_ascii_alphanumeric()) && value.len() <= 16,
        Val::PsFields => ps_fields_ok(option, value)?,
        Val::PsSort => value.split(',').all(|k| {
            let k = k.strip_prefix(['+', '-']).unwrap_or(k);
            !PS_ENV_FIELDS.contains(&k)
                && all_chars(k, |c| c.is_ascii_alphanumeric() || matches!(c, '_' | '%'))
        }),
        Val::Time => {
            value.len() <= 64
                && all_chars(value, |c| {
                    c.is_ascii_alphanumeric() || matches!(c, ' ' | ':' | '.' | '+' | '-' | '_')
                })
        }
        Val::Priority => is_priority(value),
        Val::SortKey => all_chars(value, |c| {
            c.is_ascii_digit() || matches!(c, ',' | '.') || "bdfgiMhnRrV".contains(c)
        }),
        Val::LsofNet => is_lsof_net(value),
        Val::LsofState => all_chars(value, |c| {
            c.is_ascii_alphanumeric() || matches!(c, ':' | ',' | '^' | '_')
        }),
        Val::Glob => !value.is_empty() && !value.starts_with('-'),
        Val::Boot => is_boot(value),
    };
    Ok(ok)
}

/// A count such as `20`, `+5`, `-3` or `10M`.
fn is_amount(value: &str) -> bool {
    let body = value.strip_prefix(['+', '-']).unwrap_or(value);
    let digits = body.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &body[digits.len()..];
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && matches!(
            suffix,
            "" | "b" | "K" | "KB" | "k" | "M" | "MB" | "G" | "GB"
        )
}

/// A ps field list; any environment field is refused outright.
fn ps_fields_ok(option: &str, value: &str) -> Result<bool, CommandError> {
    // Each field may carry a header: `pid,comm=COMMAND`.
    let fields: Vec<&str> = value
        .split([',', ' '])
        .filter(|f| !f.is_empty())
        .map(|f| f.split_once('=').map(|(n, _)| n).unwrap_or(f))
        .collect();
    if let Some(f) = fields
        .iter()
        .find(|f| PS_ENV_FIELDS.contains(&f.to_ascii_lowercase().as_str()))
    {
        return Err(CommandError::PsEnvironment {
            arg: format!("{option} {f}"),
        });
    }
    Ok(!fields.is_empty()
        && fields
            .iter()
            .all(|f| all_chars(f, |c| c.is_ascii_alphanumeric() || matches!(c, '_' | '%'))))
}

/// A syslog priority or a range of them (`err..warning`).
fn is_priority(value: &str) -> bool {
    const P: &[&str] = &[
        "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug", "0", "1", "2", "3",
        "4", "5", "6", "7",
    ];
    match value.split_once("..") {
        Some((a, b)) => P.contains(&a) && P.contains(&b),
        None => P.contains(&value),
    }
}

/// An lsof `-i` network spec such as `:80` or `TCP@host:443`.
fn is_lsof_net(value: &str) -> bool {
    value.len() <= 128
        && !value.starts_with('-')
        && all_chars(value, |c| {
            c.is_ascii_alphanumeric() || matches!(c, '@' | ':' | '.' | ',' | '[' | ']' | '-')
        })
}

/// A journal boot: an offset, a 32-hex-digit boot id, or `all`.
fn is_boot(value: &str) -> bool {
    let body = value.strip_prefix(['+', '-']).unwrap_or(value);
    (!body.is_empty() && body.len() <= 4 && body.bytes().all(|b| b.is_ascii_digit()))
        || (value.len() == 32 && value.bytes().all(|b| b.is_ascii_hexdigit()))
        || value == "all"
}

fn expected(v: Val) -> &'static str {
    match v {
        Val::Count { .. } => "非负整数 (a number)",
        Val::Amount => "数量，如 20、+5、-3 (a count)",
        Val::Secs { .. } => "秒数 (seconds)",
        Val::OneOf(_) | Val::ListOf(_) => "受支持的取值之一 (one of the supported values)",
        Val::Path | Val::Text | Val::Glob => "非空文本 (non-empty text)",
        Val::Pids => "进程号，逗号分隔 (pids)",
        Val::Users => "用户名或 ID (user names)",
        Val::Names => "名称 [A-Za-z0-9._:@+-] (names)",
        Val::Unit => "单元名 [A-Za-z0-9:_.@-]，不以 - 开头，不含 / 和通配符 (a unit name)",
        Val::Char => "单个字符 (one character)",
        Val::Ranges => "范围，如 1,3-5 (ranges)",
        Val::Size => "大小，如 1K、M (a size)",
        Val::PsFields => "ps 字段，如 pid,user,%cpu,rss,comm (ps fields)",
        Val::PsSort => "ps 排序键，如 -%mem (sort keys)",
        Val::Time => "时间，如 \"2024-05-01 10:00\"、-1h、today (a time)",
        Val::Priority => "级别 emerg..debug 或 0..7 (a priority)",
        Val::SortKey => "排序键，如 2,2n (a sort key)",
        Val::LsofNet => "网络地址，如 :80、TCP:443 (a network spec)",
        Val::LsofState => "状态，如 TCP:LISTEN (a state)",
        Val::Boot => "启动偏移如 -1 或 32 位启动 ID (a boot)",
    }
}
