//! Grammars of the system observation commands: ps pwd whoami df free uname uptime hostname
//! id w ss netstat lsof dmesg journalctl systemctl ping getent (read-only flags only).

use super::{l, s, sl, Grammar, Operands, Val, READS_NAMED_FILES, WRITES_FILE};

pub const PS: Grammar = Grammar {
    flags: &[
        s('e'),
        s('A'),
        s('a'),
        s('d'),
        s('N'),
        s('f'),
        s('F'),
        s('l'),
        s('y'),
        s('j'),
        s('H'),
        s('L'),
        s('T'),
        s('m'),
        s('M'),
        s('Z'),
        s('w'),
        l("forest"),
        l("no-headers"),
        l("headers"),
        sl('o', "format").req(Val::PsFields),
        s('O').req(Val::PsFields),
        l("sort").req(Val::PsSort),
        sl('p', "pid").req(Val::Pids),
        s('q').req(Val::Pids),
        l("ppid").req(Val::Pids),
        sl('C', "command").req(Val::Names),
        sl('u', "user").req(Val::Users),
        s('U').req(Val::Users),
        s('g').req(Val::Users),
        s('G').req(Val::Users),
        l("group").req(Val::Users),
        l("cols").req(Val::Count { max: 100_000 }),
        l("columns").req(Val::Count { max: 100_000 }),
        l("width").req(Val::Count { max: 100_000 }),
    ],
    refused: &[],
    operands: Operands::Custom,
    numeric_short: None,
};

pub const PWD: Grammar = Grammar {
    flags: &[sl('L', "logical"), sl('P', "physical")],
    refused: &[],
    operands: Operands::None,
    numeric_short: None,
};

pub const WHOAMI: Grammar = Grammar {
    flags: &[],
    refused: &[],
    operands: Operands::None,
    numeric_short: None,
};

const DF_FIELDS: &[&str] = &[
    "source", "fstype", "itotal", "iused", "iavail", "ipcent", "size", "used", "avail", "pcent",
    "file", "target",
];

pub const DF: Grammar = Grammar {
    flags: &[
        sl('h', "human-readable"),
        sl('H', "si"),
        sl('i', "inodes"),
        sl('T', "print-type"),
        sl('a', "all"),
        s('k'),
        sl('l', "local"),
        sl('P', "portability"),
        l("total"),
        l("no-sync"),
        sl('t', "type").req(Val::Names),
        sl('x', "exclude-type").req(Val::Names),
        l("output").opt(Val::ListOf(DF_FIELDS)),
        sl('B', "block-size").req(Val::Size),
    ],
    refused: &[],
    // df only stats file systems (never opens contents), so its operands are not
    // path-checked: `df -h /` is the common question.
    operands: Operands::Values(Val::Glob),
    numeric_short: None,
};

pub const FREE: Grammar = Grammar {
    flags: &[
        sl('b', "bytes"),
        sl('k', "kibi"),
        sl('m', "mebi"),
        sl('g', "gibi"),
        l("tebi"),
        l("kilo"),
        l("mega"),
        l("giga"),
        sl('h', "human"),
        sl('w', "wide"),
        sl('t', "total"),
        sl('l', "lohi"),
        sl('v', "committed"),
        l("si"),
        sl('s', "seconds").req(Val::Secs { min: 0.1, max: 5.0 }),
        sl('c', "count").req(Val::Count { max: 10 }),
    ],
    refused: &[],
    operands: Operands::None,
    numeric_short: None,
};

pub const UNAME: Grammar = Grammar {
    flags: &[
        sl('a', "all"),
        sl('s', "kernel-name"),
        sl('n', "nodename"),
        sl('r', "kernel-release"),
        sl('v', "kernel-version"),
        sl('m', "machine"),
        sl('p', "processor"),
        sl('i', "hardware-platform"),
        sl('o', "operating-system"),
    ],
    refused: &[],
    operands: Operands::None,
    numeric_short: None,
};

pub const UPTIME: Grammar = Grammar {
    flags: &[sl('p', "pretty"), sl('s', "since")],
    refused: &[],
    operands: Operands::None,
    numeric_short: None,
};

const SETS_HOSTNAME: &str = "会修改主机名 (would change the host name)";

pub const HOSTNAME: Grammar = Grammar {
    flags: &[
        sl('s', "short"),
        sl('f', "fqdn"),
        l("long"),
        sl('d', "domain"),
        sl('i', "ip-address"),
        sl('I', "all-ip-addresses"),
        sl('A', "all-fqdns"),
        sl('a', "alias"),
    ],
    refused: &[
        ("-F", SETS_HOSTNAME),
        ("--file", SETS_HOSTNAME),
        ("-b", SETS_HOSTNAME),
        ("--boot", SETS_HOSTNAME),
        ("-y", SETS_HOSTNAME),
        ("--yp", SETS_HOSTNAME),
        ("--nis", SETS_HOSTNAME),
        ("-Y", SETS_HOSTNAME),
    ],
    // An operand would set the host name.
    operands: Operands::None,
    numeric_short: None,
};

pub const ID: Grammar = Grammar {
    flags: &[
        sl('u', "user"),
        sl('g', "group"),
        sl('G', "groups"),
        sl('n', "name"),
        sl('r', "real"),
        sl('z', "zero"),
    ],
    refused: &[],
    operands: Operands::Values(Val::Users),
    numeric_short: None,
};

pub const W: Grammar = Grammar {
    flags: &[
        sl('h', "no-header"),
        sl('s', "short"),
        sl('i', "ip-addr"),
        sl('f', "from"),
        sl('o', "old-style"),
        sl('u', "no-current"),
    ],
    refused: &[],
    operands: Operands::Values(Val::Users),
    numeric_short: None,
};

pub const SS: Grammar = Grammar {
    flags: &[
        sl('t', "tcp"),
        sl('u', "udp"),
        sl('w', "raw"),
        sl('x', "unix"),
        l("sctp"),
        sl('l', "listening"),
        sl('a', "all"),
        sl('n', "numeric"),
        sl('r', "resolve"),
        sl('p', "processes"),
        sl('e', "extended"),
        sl('m', "memory"),
        sl('o', "options"),
        sl('i', "info"),
        sl('s', "summary"),
        sl('4', "ipv4"),
        sl('6', "ipv6"),
        sl('H', "no-header"),
        sl('O', "oneline"),
        sl('Z', "context"),
        sl('b', "bpf"),
        sl('E', "events"),
        sl('f', "family").req(Val::OneOf(&[
            "inet", "inet6", "unix", "link", "netlink", "vsock",
        ])),
        sl('A', "query").req(Val::ListOf(&[
            "all",
            "inet",
            "tcp",
            "udp",
            "raw",
            "unix",
            "packet",
            "netlink",
            "unix_dgram",
            "unix_stream",
            "unix_seqpacket",
            "packet_raw",
            "packet_dgram",
        ])),
    ],
    refused: &[
        ("-K", "会关闭连接 (would kill sockets)"),
        ("--kill", "会关闭连接 (would kill sockets)"),
        ("-D", WRITES_FILE),
        ("--diag", WRITES_FILE),
        ("-F", READS_NAMED_FILES),
        ("--filter", READS_NAMED_FILES),
        ("-N", "不允许切换网络命名空间 (no network namespace switch)"),
        (
            "--net",
            "不允许切换网络命名空间 (no network namespace switch)",
        ),
    ],
    // Filter expressions: `state listening`, `sport = :80`, `dst 10.0.0.1`.
    operands: Operands::Custom,
    numeric_short: None,
};

pub const NETSTAT: Grammar = Grammar {
    flags: &[
        sl('t', "tcp"),
        sl('u', "udp"),
        sl('w', "raw"),
        sl('x', "unix"),
        sl('l', "listening"),
        sl('a', "all"),
        sl('n', "numeric"),
        sl('p', "program"),
        sl('e', "extend"),
        sl('r', "route"),
        sl('i', "interfaces"),
        sl('s', "statistics"),
        sl('g', "groups"),
        sl('W', "wide"),
        sl('o', "timers"),
        s('4'),
        s('6'),
        l("numeric-hosts"),
        l("numeric-ports"),
        l("numeric-users"),
    ],
    refused: &[
        ("-c", "持续输出不会结束 (never ends)"),
        ("--continuous", "持续输出不会结束 (never ends)"),
    ],
    operands: Operands::None,
    numeric_short: None,
};

pub const LSOF: Grammar = Grammar {
    flags: &[
        s('i').opt_next(Val::LsofNet),
        s('p').req(Val::Pids),
        s('u').req(Val::Users),
        s('c').req(Val::Names),
        s('s').opt(Val::LsofState),
        s('n'),
        s('P'),
        s('a'),
        s('t'),
        s('l'),
        s('w'),
        s('V'),
    ],
    refused: &[
        ("-r", "持续输出不会结束 (never ends)"),
        ("+r", "持续输出不会结束 (never ends)"),
        ("-d", "只允许网络连接 (network files only)"),
        ("-D", WRITES_FILE),
        ("-F", "不支持 (not supported)"),
    ],
    operands: Operands::None,
    numeric_short: None,
};

const LEVELS: &[&str] = &[
    "emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
];

const FACILITIES: &[&str] = &[
    "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news",
];

const CLEARS_RING: &str = "会修改内核日志或控制台 (would change the kernel log or console)";

pub const DMESG: Grammar = Grammar {
    flags: &[
        sl('T', "ctime"),
        sl('H', "human"),
        sl('k', "kernel"),
        sl('u', "userspace"),
        sl('x', "decode"),
        sl('t', "notime"),
        sl('r', "raw"),
        sl('d', "show-delta"),
        sl('e', "reltime"),
        sl('P', "nopager"),
        sl('S', "syslog"),
        sl('w', "follow"),
        sl('W', "follow-new"),
        sl('L', "color").opt(Val::OneOf(&["never", "auto", "always"])),
        sl('l', "level").req(Val::ListOf(LEVELS)),
        sl('f', "facility").req(Val::ListOf(FACILITIES)),
        l("since").req(Val::Time),
        l("until").req(Val::Time),
        l("time-format").req(Val::OneOf(&["delta", "reltime", "ctime", "notime", "iso"])),
    ],
    refused: &[
        ("-c", CLEARS_RING),
        ("--read-clear", CLEARS_RING),
        ("-C", CLEARS_RING),
        ("--clear", CLEARS_RING),
        ("-D", CLEARS_RING),
        ("--console-off", CLEARS_RING),
        ("-E", CLEARS_RING),
        ("--console-on", CLEARS_RING),
        ("-n", CLEARS_RING),
        ("--console-level", CLEARS_RING),
        ("-F", READS_NAMED_FILES),
        ("--file", READS_NAMED_FILES),
    ],
    operands: Operands::None,
    numeric_short: None,
};

const MAINTENANCE: &str = "会修改日志存储 (journal maintenance changes state)";

pub const JOURNALCTL: Grammar = Grammar {
    flags: &[
        sl('u', "unit").req(Val::Unit),
        sl('p', "priority").req(Val::Priority),
        sl('n', "lines").req(Val::Count { max: 100_000 }),
        sl('S', "since").req(Val::Time),
        sl('U', "until").req(Val::Time),
        sl('b', "boot").opt_next(Val::Boot),
        sl('o', "output").req(Val::OneOf(&[
            "short", "short-full", "short-iso", "short-iso-precise", "short-precise",
            "short-monotonic", "short-unix", "verbose", "json", "json-pretty", "json-sse",
            "json-seq", "cat", "with-unit", "export",
        ])),
        sl('t', "identifier").req(Val::Names),
        l("no-pager"),
        sl('k', "dmesg"),
        sl('r', "reverse"),
        sl('q', "quiet"),
        sl('x', "catalog"),
        sl('a', "all"),
        sl('e', "pager-end"),
        sl('f', "follow"),
        l("no-hostname"),
        l("no-full"),
        l("utc"),
        l("system"),
        l("list-boots"),
        l("disk-usage"),
        sl('D', "directory").req(Val::Path),
        l("file").req(Val::Path),
        l("root").req(Val::Path),
    ],
    refused: &[
        ("--vacuum-size", MAINTENANCE),
        ("--vacuum-time", MAINTENANCE),
        ("--vacuum-files", MAINTENANCE),
        ("--rotate", MAINTENANCE),
        ("--flush", MAINTENANCE),
        ("--sync", MAINTENANCE),
        ("--relinquish-var", MAINTENANCE),
        ("--smart-relinquish-var", MAINTENANCE),
        ("--setup-keys", MAINTENANCE),
        ("--update-catalog", MAINTENANCE),
        ("--cursor-file", WRITES_FILE),
        (
            "-g",
            "journalctl 的 --grep 使用回溯正则，请改用管道 `journalctl ... | grep 模式` (use a pipe into grep)",
        ),
        (
            "--grep",
            "journalctl 的 --grep 使用回溯正则，请改用管道 `journalctl ... | grep 模式` (use a pipe into grep)",
        ),
        ("-M", "不允许访问其他机器或容器 (no other machines)"),
        ("--machine", "不允许访问其他机器或容器 (no other machines)"),
    ],
    // Field matches: `_PID=123`, `_SYSTEMD_UNIT=nginx.service`.
    operands: Operands::Custom,
    numeric_short: None,
};

pub const SYSTEMCTL: Grammar = Grammar {
    flags: &[
        l("no-pager"),
        sl('l', "full"),
        sl('a', "all"),
        sl('t', "type").req(Val::ListOf(&[
            "service",
            "socket",
            "target",
            "device",
            "mount",
            "automount",
            "swap",
            "timer",
            "path",
            "slice",
            "scope",
        ])),
        l("state").req(Val::ListOf(&[
            "active",
            "inactive",
            "failed",
            "running",
            "exited",
            "dead",
            "enabled",
            "disabled",
            "static",
            "masked",
            "loaded",
            "not-found",
            "activating",
            "deactivating",
            "listening",
            "waiting",
            "generated",
            "indirect",
            "alias",
        ])),
        l("failed"),
        sl('p', "property").req(Val::Names),
        sl('P', "value"),
        l("value"),
        sl('n', "lines").req(Val::Count { max: 10_000 }),
        sl('o', "output").req(Val::OneOf(&[
            "short",
            "short-iso",
            "short-precise",
            "short-monotonic",
            "verbose",
            "json",
            "cat",
            "with-unit",
        ])),
        l("no-legend"),
        l("plain"),
        sl('q', "quiet"),
        l("system"),
    ],
    refused: &[
        ("-H", "不允许访问其他主机 (no remote hosts)"),
        ("--host", "不允许访问其他主机 (no remote hosts)"),
        ("-M", "不允许访问其他机器或容器 (no other machines)"),
        ("--machine", "不允许访问其他机器或容器 (no other machines)"),
        ("--root", "不支持 (not supported)"),
    ],
    operands: Operands::Custom,
    numeric_short: None,
};

const FLOOD: &str = "泛洪/预加载会压垮网络 (flood/preload)";

pub const PING: Grammar = Grammar {
    flags: &[
        s('c').req(Val::Count { max: 5 }),
        s('W').req(Val::Secs { min: 0.0, max: 5.0 }),
        s('w').req(Val::Secs {
            min: 0.0,
            max: 10.0,
        }),
        s('i').req(Val::Secs { min: 0.2, max: 5.0 }),
        s('s').req(Val::Count { max: 1472 }),
        s('t').req(Val::Count { max: 255 }),
        s('n'),
        s('q'),
        s('4'),
        s('6'),
        s('D'),
        s('O'),
    ],
    refused: &[
        ("-f", FLOOD),
        ("-F", FLOOD),
        ("-l", FLOOD),
        ("-p", "不支持 (not supported)"),
        ("-I", "不支持 (not supported)"),
    ],
    operands: Operands::Custom,
    numeric_short: None,
};

pub const GETENT: Grammar = Grammar {
    flags: &[],
    refused: &[
        ("-s", "不支持 (not supported)"),
        ("--service", "不支持 (not supported)"),
    ],
    operands: Operands::Custom,
    numeric_short: None,
};
