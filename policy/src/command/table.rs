//! The command table: every command the policy knows (`Cmd`), and for the GNU-style ones
//! their argv grammar as data (flags, what kind of value each takes, what the operands are,
//! which flags are refused and why). `argv.rs` interprets it; commands whose syntax is not
//! GNU-style (grep, ip, find) have their own parsers.

mod files;
mod system;

pub use files::*;
pub use system::*;

/// Every command the policy knows. `Cmd::ALL` is the one command table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cmd {
    Ls,
    Cat,
    Grep,
    Head,
    Tail,
    Ps,
    Pwd,
    Whoami,
    Df,
    Free,
    Uname,
    Uptime,
    Hostname,
    Id,
    W,
    Ss,
    Netstat,
    Ip,
    Du,
    Lsof,
    Dmesg,
    Journalctl,
    Systemctl,
    Wc,
    Sort,
    Uniq,
    Cut,
    Find,
    Stat,
    File,
    Md5sum,
    Sha256sum,
    Ping,
    Getent,
}

impl Cmd {
    /// Every known command, in display order.
    pub const ALL: [Cmd; 34] = [
        Cmd::Ls,
        Cmd::Cat,
        Cmd::Grep,
        Cmd::Head,
        Cmd::Tail,
        Cmd::Ps,
        Cmd::Pwd,
        Cmd::Whoami,
        Cmd::Df,
        Cmd::Free,
        Cmd::Uname,
        Cmd::Uptime,
        Cmd::Hostname,
        Cmd::Id,
        Cmd::W,
        Cmd::Ss,
        Cmd::Netstat,
        Cmd::Ip,
        Cmd::Du,
        Cmd::Lsof,
        Cmd::Dmesg,
        Cmd::Journalctl,
        Cmd::Systemctl,
        Cmd::Wc,
        Cmd::Sort,
        Cmd::Uniq,
        Cmd::Cut,
        Cmd::Find,
        Cmd::Stat,
        Cmd::File,
        Cmd::Md5sum,
        Cmd::Sha256sum,
        Cmd::Ping,
        Cmd::Getent,
    ];

    /// The bare program name.
    pub const fn name(self) -> &'static str {
        match self {
            Cmd::Ls => "ls",
            Cmd::Cat => "cat",
            Cmd::Grep => "grep",
            Cmd::Head => "head",
            Cmd::Tail => "tail",
            Cmd::Ps => "ps",
            Cmd::Pwd => "pwd",
            Cmd::Whoami => "whoami",
            Cmd::Df => "df",
            Cmd::Free => "free",
            Cmd::Uname => "uname",
            Cmd::Uptime => "uptime",
            Cmd::Hostname => "hostname",
            Cmd::Id => "id",
            Cmd::W => "w",
            Cmd::Ss => "ss",
            Cmd::Netstat => "netstat",
            Cmd::Ip => "ip",
            Cmd::Du => "du",
            Cmd::Lsof => "lsof",
            Cmd::Dmesg => "dmesg",
            Cmd::Journalctl => "journalctl",
            Cmd::Systemctl => "systemctl",
            Cmd::Wc => "wc",
            Cmd::Sort => "sort",
            Cmd::Uniq => "uniq",
            Cmd::Cut => "cut",
            Cmd::Find => "find",
            Cmd::Stat => "stat",
            Cmd::File => "file",
            Cmd::Md5sum => "md5sum",
            Cmd::Sha256sum => "sha256sum",
            Cmd::Ping => "ping",
            Cmd::Getent => "getent",
        }
    }

    pub fn from_name(name: &str) -> Option<Cmd> {
        Cmd::ALL.iter().copied().find(|c| c.name() == name)
    }
}

/// Names of every known command (same order as `Cmd::ALL`).
pub const NAMES: [&str; Cmd::ALL.len()] = {
    let mut out = [""; Cmd::ALL.len()];
    let mut i = 0;
    while i < Cmd::ALL.len() {
        out[i] = Cmd::ALL[i].name();
        i += 1;
    }
    out
};

/// What kind of value an option (or operand) takes; `argv.rs` validates each.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Val {
    /// Integer in `0..=max`.
    Count { max: u64 },
    /// head/tail amount: optional `+`/`-`, digits, optional size suffix (`5`, `+10`, `-3`, `2K`).
    Amount,
    /// Decimal seconds in `min..=max`.
    Secs { min: f64, max: f64 },
    /// One of a fixed set of words.
    OneOf(&'static [&'static str]),
    /// Comma-separated list, every item from the set.
    ListOf(&'static [&'static str]),
    /// A file or directory, checked by the path policy (this session's uploads first).
    Path,
    /// Formatting text (`stat -c`, `find -printf`, `cut --output-delimiter`): any characters
    /// the line syntax lets through; never interpreted as a path.
    Text,
    /// Process ids, comma separated.
    Pids,
    /// User / group names or ids, comma separated.
    Users,
    /// Process names (`ps -C`, `lsof -c`), comma separated.
    Names,
    /// A systemd unit name.
    Unit,
    /// A single character (delimiters).
    Char,
    /// cut ranges: `1,3-5,7-`.
    Ranges,
    /// Block size: digits and/or a unit (`1K`, `M`, `4096`).
    Size,
    /// ps output fields (`pid,user,%cpu,rss,comm,args`), never the environment.
    PsFields,
    /// ps sort keys (`-%mem,pid`).
    PsSort,
    /// journalctl / dmesg time spec (`2024-05-01 10:00`, `-1h`, `yesterday`).
    Time,
    /// journalctl priority: a level name or number, or a range `err..warning`.
    Priority,
    /// sort key definition (`-k 2,2n`).
    SortKey,
    /// lsof network spec (`-i4`, `-iTCP:443`, `-i@10.0.0.1:22`).
    LsofNet,
    /// lsof state filter (`-sTCP:LISTEN`).
    LsofState,
    /// find name glob / text for -name -path (no path meaning).
    Glob,
    /// journalctl boot: an offset (`-1`, `0`) or a 32-hex boot id.
    Boot,
}

/// How a flag takes its value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arg {
    /// No value.
    No,
    /// A required value (`-n 5`, `-n5`, `--lines 5`, `--lines=5`).
    Req(Val),
    /// An optional value attached to the flag (`-i:80`, `--follow=name`).
    OptAttached(Val),
    /// An optional value: attached, or the next argument when it is a valid value
    /// (`journalctl -b -1`).
    OptNext(Val),
}

/// One supported flag: a short letter and/or a long name.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flag {
    pub short: Option<char>,
    pub long: Option<&'static str>,
    pub arg: Arg,
}

/// `-c` and `--long` spelling the same flag without a value.
pub const fn sl(c: char, long: &'static str) -> Flag {
    Flag {
        short: Some(c),
        long: Some(long),
        arg: Arg::No,
    }
}

/// Short-only flag without a value.
pub const fn s(c: char) -> Flag {
    Flag {
        short: Some(c),
        long: None,
        arg: Arg::No,
    }
}

/// Long-only flag without a value.
pub const fn l(long: &'static str) -> Flag {
    Flag {
        short: None,
        long: Some(long),
        arg: Arg::No,
    }
}

impl Flag {
    /// The same flag taking a required value of kind `v`.
    pub const fn req(self, v: Val) -> Flag {
        Flag {
            arg: Arg::Req(v),
            ..self
        }
    }

    pub const fn opt(self, v: Val) -> Flag {
        Flag {
            arg: Arg::OptAttached(v),
            ..self
        }
    }

    pub const fn opt_next(self, v: Val) -> Flag {
        Flag {
            arg: Arg::OptNext(v),
            ..self
        }
    }

    /// Whether `spelled` (`-n` or `--lines`) names this flag.
    pub fn is(&self, spelled: &str) -> bool {
        match spelled.strip_prefix("--") {
            Some(long) => self.long == Some(long),
            None => {
                let mut c = spelled.chars();
                c.next() == Some('-') && c.next() == self.short && c.next().is_none()
            }
        }
    }

    /// `-n/--lines` for messages.
    pub fn display(&self) -> String {
        match (self.short, self.long) {
            (Some(c), Some(l)) => format!("-{c}/--{l}"),
            (Some(c), None) => format!("-{c}"),
            (None, Some(l)) => format!("--{l}"),
            (None, None) => String::new(),
        }
    }
}

/// What the non-option arguments of a command are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Operands {
    /// No operands at all.
    None,
    /// Files read by the command (path policy; `-` is standard input).
    Files { max: Option<usize> },
    /// Operands whose meaning the command's own check decides (`ps aux`, `systemctl status x`).
    Custom,
    /// Every operand is a value of this kind (`id USER`, `df /`).
    Values(Val),
}

/// A GNU-style argv grammar.
#[derive(Debug, Clone, Copy)]
pub struct Grammar {
    pub flags: &'static [Flag],
    /// Flags refused with a specific reason (checked before "unsupported").
    pub refused: &'static [(&'static str, &'static str)],
    pub operands: Operands,
    /// `head -20` means `head -n 20`.
    pub numeric_short: Option<char>,
}

pub(super) const WRITES_FILE: &str = "会写文件 (would write a file)";
pub(super) const READS_NAMED_FILES: &str =
    "会读取其中列出的任意文件 (reads arbitrary files named inside)";
pub(super) const FOLLOWS_LINKS: &str =
    "会跟随符号链接离开允许的目录 (follows symlinks out of the allowed roots)";

/// Whether `cmd`'s operands name files or directories, so that a bare name among them can
/// mean an upload (`cat app.log`); a unit, a user or a pattern never does
/// (`journalctl -u nginx` keeps the unit after an upload named `nginx.conf`).
pub fn operands_are_paths(cmd: Cmd) -> bool {
    match cmd {
        Cmd::Grep | Cmd::Find => true,
        _ => matches!(
            grammar(cmd).map(|g| g.operands),
            Some(Operands::Files { .. } | Operands::Values(Val::Path))
        ),
    }
}

/// The GNU-style grammar of `cmd` (None for grep, ip and find, which parse themselves).
pub fn grammar(cmd: Cmd) -> Option<&'static Grammar> {
    Some(match cmd {
        Cmd::Ls => &LS,
        Cmd::Cat => &CAT,
        Cmd::Head => &HEAD,
        Cmd::Tail => &TAIL,
        Cmd::Ps => &PS,
        Cmd::Pwd => &PWD,
        Cmd::Whoami => &WHOAMI,
        Cmd::Df => &DF,
        Cmd::Free => &FREE,
        Cmd::Uname => &UNAME,
        Cmd::Uptime => &UPTIME,
        Cmd::Hostname => &HOSTNAME,
        Cmd::Id => &ID,
        Cmd::W => &W,
        Cmd::Ss => &SS,
        Cmd::Netstat => &NETSTAT,
        Cmd::Du => &DU,
        Cmd::Lsof => &LSOF,
        Cmd::Dmesg => &DMESG,
        Cmd::Journalctl => &JOURNALCTL,
        Cmd::Systemctl => &SYSTEMCTL,
        Cmd::Wc => &WC,
        Cmd::Sort => &SORT,
        Cmd::Uniq => &UNIQ,
        Cmd::Cut => &CUT,
        Cmd::Stat => &STAT,
        Cmd::File => &FILE,
        Cmd::Md5sum | Cmd::Sha256sum => &SUM,
        Cmd::Ping => &PING,
        Cmd::Getent => &GETENT,
        Cmd::Grep | Cmd::Ip | Cmd::Find => return None,
    })
}

/// "-a -b --long ..." list of a grammar's flags for "unsupported option" hints.
pub fn supported_list(g: &Grammar) -> String {
    let mut out: Vec<String> = Vec::with_capacity(g.flags.len());
    for f in g.flags {
        let mut d = f.display();
        if matches!(f.arg, Arg::Req(_)) {
            d.push_str(" X");
        }
        out.push(d);
    }
    if out.is_empty() {
        "无选项 / none".to_string()
    } else {
        out.join(" ")
    }
}
