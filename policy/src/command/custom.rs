//! Commands whose syntax is not GNU getopt: `ip` (single-dash words, an object and a
//! show-only action) and `find` (an expression language; only tests and printing actions,
//! never -exec/-delete/-fprint, with a bounded -maxdepth).

use std::ffi::OsString;

use super::argv::check_value;
use super::resolve::Resolver;
use super::table::{Cmd, Val};
use super::{Built, CommandError};

/// `-maxdepth` added to `find` when none is given, and the largest one accepted.
pub const FIND_DEFAULT_MAXDEPTH: &str = "5";
pub const FIND_MAX_MAXDEPTH: u64 = 10;

const IP_FLAGS: &[(&[&str], &str)] = &[
    (&["-4"], "-4"),
    (&["-6"], "-6"),
    (&["-br", "-brief"], "-brief"),
    (&["-s", "-stats", "-statistics"], "-stats"),
    (&["-c", "-color"], "-color"),
    (&["-j", "-json"], "-json"),
    (&["-d", "-details"], "-details"),
    (&["-o", "-oneline"], "-oneline"),
    (&["-p", "-pretty"], "-pretty"),
    (&["-h", "-human", "-human-readable"], "-human"),
];

const IP_OBJECTS: &[(&[&str], &str)] = &[
    (&["addr", "a", "address"], "addr"),
    (&["link", "l"], "link"),
    (&["route", "r", "ro"], "route"),
    (&["neigh", "n", "neighbour", "neighbor"], "neigh"),
];

const IP_SHOW: &[&str] = &["show", "list", "ls", "lst", "sh"];

/// Words that change state (or stream forever); never taken for an interface name.
const IP_CHANGES: &[&str] = &[
    "add", "del", "delete", "set", "flush", "change", "replace", "append", "prepend", "monitor",
    "save", "restore", "test", "get", "help", "dev", "up",
];

fn ip_allowed() -> String {
    "ip [-4 -6 -br -s -c -j -d -o -p -h] addr|link|route|neigh [show|list] [dev IFNAME]".into()
}

fn is_ifname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 15
        && !s.starts_with('-')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '@' | '-' | ':'))
}

/// `ip`: listing of addresses, links, routes and neighbours only.
pub fn ip(args: &[String]) -> Result<Built, CommandError> {
    let mut argv: Vec<OsString> = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i).filter(|a| a.starts_with('-')) {
        let canon = IP_FLAGS
            .iter()
            .find(|(names, _)| names.contains(&a.as_str()))
            .map(|(_, c)| *c)
            .ok_or_else(|| CommandError::UnsupportedOption {
                command: "ip".into(),
                option: a.clone(),
                hint: format!("（支持 / supported: {}）", ip_allowed()),
            })?;
        argv.push(canon.into());
        i += 1;
    }
    let obj_word = args.get(i).ok_or_else(|| CommandError::MissingOperand {
        command: "ip".into(),
        what: "对象 addr|link|route|neigh (an object)".into(),
    })?;
    let obj = IP_OBJECTS
        .iter()
        .find(|(names, _)| names.contains(&obj_word.as_str()))
        .map(|(_, c)| *c)
        .ok_or_else(|| CommandError::NotReadOnly {
            command: "ip".into(),
            what: obj_word.clone(),
            allowed: ip_allowed(),
        })?;
    argv.push(obj.into());
    i += 1;
    let mut rest = &args[i..];
    if let Some((first, tail)) = rest.split_first() {
        let bare_dev = is_ifname(first) && tail.is_empty() && !IP_CHANGES.contains(&first.as_str());
        if IP_SHOW.contains(&first.as_str()) {
            rest = tail;
        } else if !(first == "dev" || first == "up" || bare_dev) {
            // Everything else is a change (add, del, set, flush, change, replace, ...).
            return Err(CommandError::NotReadOnly {
                command: "ip".into(),
                what: format!("{obj_word} {first}"),
                allowed: ip_allowed(),
            });
        }
    }
    argv.push("show".into());
    match rest {
        [] => {}
        [dev, name] if dev == "dev" && is_ifname(name) => {
            argv.push("dev".into());
            argv.push(name.into());
        }
        [name] if is_ifname(name) && name != "dev" && obj != "route" => {
            argv.push("dev".into());
            argv.push(name.into());
        }
        [up] if up == "up" && obj != "route" && obj != "neigh" => argv.push("up".into()),
        other => {
            return Err(CommandError::NotReadOnly {
                command: "ip".into(),
                what: other.join(" "),
                allowed: ip_allowed(),
            })
        }
    }
    Ok(Built {
        argv,
        follow: false,
        recursive: false,
        grep: None,
    })
}

/// find tests/actions and their value kinds.
const FIND_NO_ARG: &[&str] = &[
    "-print",
    "-print0",
    "-ls",
    "-empty",
    "-readable",
    "-writable",
    "-executable",
    "-prune",
    "-quit",
    "-true",
    "-false",
    "-xdev",
    "-mount",
    "-depth",
    "-daystart",
    "-nouser",
    "-nogroup",
    "-not",
    "!",
    "-a",
    "-and",
    "-o",
    "-or",
    "-noleaf",
    "-ignore_readdir_race",
];

fn find_value(test: &str) -> Option<Val> {
    Some(match test {
        "-name" | "-iname" | "-path" | "-ipath" | "-wholename" | "-iwholename" | "-lname"
        | "-ilname" => Val::Glob,
        "-type" | "-xtype" => Val::ListOf(&["f", "d", "l", "b", "c", "p", "s"]),
        "-size" | "-mtime" | "-atime" | "-ctime" | "-mmin" | "-amin" | "-cmin" | "-uid"
        | "-gid" | "-links" | "-inum" | "-used" => Val::Amount,
        "-newer" | "-anewer" | "-cnewer" | "-samefile" => Val::Path,
        "-user" | "-group" => Val::Users,
        "-perm" => Val::Names,
        "-maxdepth" => Val::Count {
            max: FIND_MAX_MAXDEPTH,
        },
        "-mindepth" => Val::Count { max: 100 },
        "-printf" => Val::Text,
        _ => return None,
    })
}

const FIND_REFUSED: &[(&str, &str)] = &[
    ("-exec", "会执行程序 (would run a program)"),
    ("-execdir", "会执行程序 (would run a program)"),
    ("-ok", "会执行程序 (would run a program)"),
    ("-okdir", "会执行程序 (would run a program)"),
    ("-delete", "会删除文件 (would delete files)"),
    ("-fprint", "会写文件 (would write a file)"),
    ("-fprint0", "会写文件 (would write a file)"),
    ("-fprintf", "会写文件 (would write a file)"),
    ("-fls", "会写文件 (would write a file)"),
    (
        "-L",
        "会跟随符号链接离开允许的目录 (follows symlinks out of the allowed roots)",
    ),
    (
        "-follow",
        "会跟随符号链接离开允许的目录 (follows symlinks out of the allowed roots)",
    ),
    (
        "-regex",
        "使用回溯正则，请用 -name/-path (backtracking regex; use -name/-path)",
    ),
    (
        "-iregex",
        "使用回溯正则，请用 -name/-path (backtracking regex; use -name/-path)",
    ),
    ("--", "find 不接受 -- (not supported)"),
];

fn find_refused(tok: &str) -> Option<CommandError> {
    FIND_REFUSED
        .iter()
        .find(|(t, _)| *t == tok)
        .map(|(t, why)| CommandError::RefusedOption {
            command: "find".into(),
            option: t.to_string(),
            reason: why.to_string(),
        })
}

/// `find [-P|-H] [PATH...] [EXPRESSION]`.
pub fn find(args: &[String], res: &mut Resolver<'_>) -> Result<Built, CommandError> {
    let mut i = 0;
    let mut argv: Vec<OsString> = Vec::new();
    while let Some(a) = args
        .get(i)
        .filter(|a| matches!(a.as_str(), "-P" | "-H" | "-L"))
    {
        if let Some(e) = find_refused(a) {
            return Err(e);
        }
        argv.push(a.into());
        i += 1;
    }
    let mut starts = Vec::new();
    while let Some(a) = args
        .get(i)
        .filter(|a| !a.starts_with('-') && a.as_str() != "!")
    {
        starts.push(a.clone());
        i += 1;
    }
    if starts.is_empty() {
        starts.push(".".to_string());
    }
    for s in &starts {
        argv.push(res.path(s)?.into_os_string());
    }
    let tail = find_expression(args, i, res)?;
    if !tail.has_maxdepth {
        argv.push("-maxdepth".into());
        argv.push(FIND_DEFAULT_MAXDEPTH.into());
    }
    argv.extend(tail.depth);
    argv.extend(tail.expr);
    Ok(Built {
        argv,
        follow: false,
        recursive: true,
        grep: None,
    })
}

/// find's expression after the start paths, checked token by token.
struct FindExpr {
    /// `-maxdepth`/`-mindepth` and their values.
    depth: Vec<OsString>,
    expr: Vec<OsString>,
    has_maxdepth: bool,
}

/// Checks the expression `args[i..]`: refused actions fail, every test's value is
/// validated, and path values are resolved through `res`.
fn find_expression(
    args: &[String],
    mut i: usize,
    res: &mut Resolver<'_>,
) -> Result<FindExpr, CommandError> {
    let mut depth: Vec<OsString> = Vec::new();
    let mut expr: Vec<OsString> = Vec::new();
    let mut has_maxdepth = false;
    while i < args.len() {
        let tok = &args[i];
        i += 1;
        if let Some(e) = find_refused(tok) {
            return Err(e);
        }
        if FIND_NO_ARG.contains(&tok.as_str()) {
            expr.push(tok.into());
            continue;
        }
        let Some(kind) = find_value(tok) else {
            return Err(find_unknown(tok));
        };
        let raw = super::argv::take(args, &mut i, tok)?;
        let value = check_value(Cmd::Find, tok, kind, raw)?;
        let value: OsString = if kind == Val::Path {
            res.path(&value)?.into_os_string()
        } else {
            value.into()
        };
        // Global options go right after the start paths (find warns otherwise).
        let target = if tok == "-maxdepth" || tok == "-mindepth" {
            &mut depth
        } else {
            &mut expr
        };
        has_maxdepth |= tok == "-maxdepth";
        target.push(tok.into());
        target.push(value);
    }
    Ok(FindExpr {
        depth,
        expr,
        has_maxdepth,
    })
}

/// The refusal for an expression token that is neither a known test nor an action: an
/// unsupported option, or a start path written after the expression began.
fn find_unknown(tok: &str) -> CommandError {
    if tok.starts_with('-') {
        return CommandError::UnsupportedOption {
            command: "find".into(),
            option: tok.to_string(),
            hint: "（支持 / supported: -name -iname -path -type -size -mtime -mmin -newer -user -perm -maxdepth -mindepth -empty -print -print0 -printf -ls -not -a -o）".into(),
        };
    }
    CommandError::BadOperand {
        command: "find".into(),
        arg: tok.to_string(),
        expected: "起始目录必须写在表达式之前 (start paths come before the expression)".into(),
    }
}
