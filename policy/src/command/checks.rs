//! Builds the argv of a GNU-style command from its grammar, plus what the grammar table cannot
//! say: operand meaning (ps BSD clusters, systemctl verbs and units, ss filters, journalctl
//! matches, ping/getent hosts), required flags (`ping -c`, `lsof -i`), and injected bounds
//! (`du --max-depth`, `lsof -a`).

use std::ffi::OsString;

use super::argv::{self, is_host, is_unit_name, Opt, Parsed};
use super::resolve::Resolver;
use super::table::{Cmd, Grammar, Operands, Val};
use super::{Built, CommandError};

/// Default `du` depth when neither `-s` nor a depth is given.
pub const DU_DEFAULT_DEPTH: &str = "3";

/// systemctl verbs that only read.
pub const SYSTEMCTL_VERBS: &[&str] = &[
    "status",
    "is-active",
    "is-enabled",
    "is-failed",
    "list-units",
    "list-timers",
    "list-unit-files",
    "list-sockets",
    "show",
    "cat",
];

/// ps BSD-style letters that are allowed (never `e`: it prints every process's environment).
const PS_BSD: &str = "auxfjlwrcnhsvmHSTo";

fn bad_operand(cmd: Cmd, arg: &str, expected: &str) -> CommandError {
    CommandError::BadOperand {
        command: cmd.name().to_string(),
        arg: arg.to_string(),
        expected: expected.to_string(),
    }
}

fn missing(cmd: Cmd, what: &str) -> CommandError {
    CommandError::MissingOperand {
        command: cmd.name().to_string(),
        what: what.to_string(),
    }
}

/// Adds a flag occurrence from the grammar (for injected bounds).
fn inject(p: &mut Parsed, g: &'static Grammar, short: char, value: Option<&str>) {
    if let Some(flag) = g.flags.iter().find(|f| f.short == Some(short)) {
        p.opts.push(Opt {
            flag,
            value: value.map(str::to_string),
        });
    }
}

/// Parses and checks `args` of a GNU-style command and emits its argv.
pub fn build(
    cmd: Cmd,
    g: &'static Grammar,
    args: &[String],
    res: &mut Resolver<'_>,
) -> Result<Built, CommandError> {
    let mut p = argv::parse(cmd, g, args)?;
    match g.operands {
        Operands::None => {
            if let Some(a) = p.operands.first() {
                return Err(CommandError::UnexpectedOperand {
                    command: cmd.name().to_string(),
                    arg: a.clone(),
                });
            }
        }
        Operands::Files { max: Some(max) } if p.operands.len() > max => {
            let hint = if cmd == Cmd::Uniq {
                "（第二个参数会被当作输出文件写入 / a second operand is uniq's OUTPUT file）"
            } else {
                ""
            };
            return Err(CommandError::TooManyOperands {
                command: cmd.name().to_string(),
                max,
                hint: hint.to_string(),
            });
        }
        Operands::Files { .. } => {}
        Operands::Values(v) => {
            for op in &p.operands {
                argv::check_value(cmd, "", v, op.clone())
                    .map_err(|_| bad_operand(cmd, op, "名称 (a name)"))?;
            }
        }
        Operands::Custom => {}
    }
    check_command(cmd, g, &mut p)?;
    let follow = match cmd {
        Cmd::Tail => p.has(&["-f", "-F", "--follow"]),
        Cmd::Journalctl => p.has(&["-f", "--follow"]),
        Cmd::Dmesg => p.has(&["-w", "-W", "--follow", "--follow-new"]),
        _ => false,
    };
    let recursive = match cmd {
        Cmd::Ls => p.has(&["-R", "--recursive"]),
        Cmd::Du => p.has(&["-a", "--all"]),
        _ => false,
    };
    let files = matches!(g.operands, Operands::Files { .. });
    let argv = argv::emit(&p, res, |op, res| {
        if files && op != "-" {
            Ok(res.path(op)?.into_os_string())
        } else {
            Ok(OsString::from(op))
        }
    })?;
    // A bare `ls` (or `du`) works on the working dir, which the tool layer must see too.
    if matches!(cmd, Cmd::Ls | Cmd::Du) && p.operands.is_empty() {
        let cwd = res.cwd().to_path_buf();
        res.checked.push(cwd);
    }
    Ok(Built {
        argv,
        follow,
        recursive,
        grep: None,
    })
}

/// What the grammar table cannot say about `cmd`: operand meaning, required flags and
/// injected bounds (see the module doc).
fn check_command(cmd: Cmd, g: &'static Grammar, p: &mut Parsed) -> Result<(), CommandError> {
    match cmd {
        Cmd::Ps => check_ps(p),
        Cmd::Ss => check_ss(cmd, p),
        Cmd::Journalctl => check_journalctl(cmd, p),
        Cmd::Systemctl => check_systemctl(p),
        Cmd::Ping => check_ping(cmd, p),
        Cmd::Getent => check_getent(cmd, p),
        Cmd::Lsof => check_lsof(cmd, g, p),
        Cmd::Du => {
            if !p.has(&["-s", "--summarize", "-d", "--max-depth"]) {
                inject(p, g, 'd', Some(DU_DEFAULT_DEPTH));
            }
            Ok(())
        }
        Cmd::Free => {
            if p.has(&["-s", "--seconds"]) && !p.has(&["-c", "--count"]) {
                return Err(missing(
                    cmd,
                    "-c N（与 -s 一起使用，否则不会结束 / -s needs -c）",
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `ss` operands are a filter expression; only its plain characters pass.
fn check_ss(cmd: Cmd, p: &Parsed) -> Result<(), CommandError> {
    for op in &p.operands {
        let ok = !op.starts_with('-')
            && op.chars().all(|c| {
                c.is_ascii_alphanumeric()
                    || matches!(c, ':' | '.' | '*' | '=' | '!' | '[' | ']' | '_' | '-' | '/')
            });
        if !ok {
            return Err(bad_operand(
                cmd,
                op,
                "过滤条件，如 state listening、sport = :80 (a filter)",
            ));
        }
    }
    Ok(())
}

/// `journalctl` operands are `FIELD=value` matches or `+`.
fn check_journalctl(cmd: Cmd, p: &Parsed) -> Result<(), CommandError> {
    for op in &p.operands {
        let field_match = op.split_once('=').is_some_and(|(f, _)| {
            !f.is_empty()
                && f.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        });
        if op != "+" && !field_match {
            return Err(bad_operand(
                cmd,
                op,
                "字段匹配，如 _PID=123 (a FIELD=value match)",
            ));
        }
    }
    Ok(())
}

/// `ping` must end by itself (`-c N`, not 0) and names exactly one host.
fn check_ping(cmd: Cmd, p: &Parsed) -> Result<(), CommandError> {
    let count = p.value(&["-c"]);
    if count.is_none() || count == Some("0") {
        return Err(missing(
            cmd,
            "-c N（1..=5，必须指定次数 / a count is required）",
        ));
    }
    match p.operands.as_slice() {
        [host] if is_host(host) => Ok(()),
        [host] => Err(bad_operand(
            cmd,
            host,
            "主机名或 IP 地址 (a host name or IP)",
        )),
        [] => Err(missing(cmd, "主机 (a host)")),
        _ => Err(CommandError::TooManyOperands {
            command: cmd.name().into(),
            max: 1,
            hint: String::new(),
        }),
    }
}

/// `getent` reads the hosts databases only, keyed by host names or addresses.
fn check_getent(cmd: Cmd, p: &Parsed) -> Result<(), CommandError> {
    let Some((db, keys)) = p.operands.split_first() else {
        return Err(missing(cmd, "数据库 hosts (the hosts database)"));
    };
    if !matches!(db.as_str(), "hosts" | "ahosts" | "ahostsv4" | "ahostsv6") {
        return Err(CommandError::NotReadOnly {
            command: cmd.name().into(),
            what: db.clone(),
            allowed: "hosts ahosts ahostsv4 ahostsv6".into(),
        });
    }
    match keys.iter().find(|k| !is_host(k)) {
        Some(k) => Err(bad_operand(cmd, k, "主机名或 IP 地址 (a host name or IP)")),
        None => Ok(()),
    }
}

/// `lsof` lists network files only.
fn check_lsof(cmd: Cmd, g: &'static Grammar, p: &mut Parsed) -> Result<(), CommandError> {
    // Without `-i` lsof lists every open file on the host, and `-p/-u/-c` without `-a`
    // would OR with `-i` and list all of a process's files.
    if !p.has(&["-i"]) {
        return Err(missing(
            cmd,
            "-i（只允许查看网络连接，如 lsof -i :80、lsof -p PID -i / network files only）",
        ));
    }
    if p.has(&["-p", "-u", "-c"]) && !p.has(&["-a"]) {
        inject(p, g, 'a', None);
    }
    Ok(())
}

fn check_ps(p: &Parsed) -> Result<(), CommandError> {
    let mut i = 0;
    while i < p.operands.len() {
        let op = &p.operands[i];
        i += 1;
        if op.bytes().all(|b| b.is_ascii_digit() || b == b',') {
            continue;
        }
        if op.contains('e') {
            // BSD-style `ps e` / `ps aeux` prints every process's environment.
            return Err(CommandError::PsEnvironment { arg: op.clone() });
        }
        if op.find('o').is_some_and(|k| k + 1 != op.len()) {
            return Err(CommandError::UnsupportedOption {
                command: "ps".into(),
                option: op.clone(),
                hint:
                    "（BSD 的 o 必须在最后，后跟字段列表 / BSD `o` goes last, then a field list）"
                        .into(),
            });
        }
        if let Some(c) = op.chars().find(|c| !PS_BSD.contains(*c)) {
            return Err(CommandError::UnsupportedOption {
                command: "ps".into(),
                option: c.to_string(),
                hint: format!("（BSD 风格支持 / BSD letters: {PS_BSD}）"),
            });
        }
        if op.ends_with('o') {
            // BSD `o FIELDS`: the next operand is a field list.
            let fields = p
                .operands
                .get(i)
                .ok_or_else(|| CommandError::MissingOptionValue { option: "o".into() })?;
            argv::check_value(Cmd::Ps, "o", Val::PsFields, fields.clone())?;
            i += 1;
        }
    }
    Ok(())
}

fn check_systemctl(p: &Parsed) -> Result<(), CommandError> {
    let Some((verb, units)) = p.operands.split_first() else {
        return Ok(()); // bare `systemctl` = list-units
    };
    if !SYSTEMCTL_VERBS.contains(&verb.as_str()) {
        return Err(CommandError::NotReadOnly {
            command: "systemctl".into(),
            what: verb.clone(),
            allowed: SYSTEMCTL_VERBS.join("|"),
        });
    }
    if let Some(u) = units.iter().find(|u| !is_unit_name(u)) {
        return Err(bad_operand(
            Cmd::Systemctl,
            u,
            "单元名 [A-Za-z0-9:_.@-]，不以 - 开头，不含 / 和通配符 (a unit name)",
        ));
    }
    if units.is_empty()
        && matches!(
            verb.as_str(),
            "is-active" | "is-enabled" | "is-failed" | "cat"
        )
    {
        return Err(missing(Cmd::Systemctl, "单元名 (a unit name)"));
    }
    Ok(())
}
