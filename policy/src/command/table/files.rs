//! Grammars of the file-reading commands: ls cat head tail du wc sort uniq cut stat file
//! md5sum/sha256sum (every file operand passes the path policy).

use super::{
    l, s, sl, Flag, Grammar, Operands, Val, FOLLOWS_LINKS, READS_NAMED_FILES, WRITES_FILE,
};

pub const LS: Grammar = Grammar {
    flags: &[
        sl('a', "all"),
        sl('A', "almost-all"),
        s('l'),
        sl('h', "human-readable"),
        s('t'),
        sl('r', "reverse"),
        s('S'),
        sl('R', "recursive"),
        s('1'),
        sl('d', "directory"),
        sl('i', "inode"),
        sl('s', "size"),
        sl('F', "classify"),
        sl('n', "numeric-uid-gid"),
        s('U'),
        s('X'),
        s('v'),
        s('c'),
        s('u'),
        s('g'),
        s('o'),
        sl('G', "no-group"),
        sl('p', "indicator-style"),
        l("full-time"),
        l("si"),
        l("color").opt(Val::OneOf(&["never", "auto", "always"])),
        l("group-directories-first"),
        l("time-style").req(Val::OneOf(&["full-iso", "long-iso", "iso", "locale"])),
        l("sort").req(Val::OneOf(&[
            "none",
            "size",
            "time",
            "version",
            "extension",
        ])),
        l("time").req(Val::OneOf(&[
            "atime", "access", "use", "ctime", "status", "birth",
        ])),
        sl('I', "ignore").req(Val::Glob),
        l("hide").req(Val::Glob),
        sl('w', "width").req(Val::Count { max: 1000 }),
        l("block-size").req(Val::Size),
    ],
    refused: &[("-L", FOLLOWS_LINKS), ("--dereference", FOLLOWS_LINKS)],
    operands: Operands::Files { max: None },
    numeric_short: None,
};

pub const CAT: Grammar = Grammar {
    flags: &[
        sl('n', "number"),
        sl('b', "number-nonblank"),
        sl('A', "show-all"),
        sl('E', "show-ends"),
        sl('T', "show-tabs"),
        sl('v', "show-nonprinting"),
        sl('s', "squeeze-blank"),
        s('e'),
        s('t'),
    ],
    refused: &[],
    operands: Operands::Files { max: None },
    numeric_short: None,
};

const AMOUNT_FLAGS_HEAD: &[Flag] = &[
    sl('n', "lines").req(Val::Amount),
    sl('c', "bytes").req(Val::Amount),
    sl('q', "quiet"),
    l("silent"),
    sl('v', "verbose"),
];

pub const HEAD: Grammar = Grammar {
    flags: AMOUNT_FLAGS_HEAD,
    refused: &[],
    operands: Operands::Files { max: None },
    numeric_short: Some('n'),
};

pub const TAIL: Grammar = Grammar {
    flags: &[
        sl('n', "lines").req(Val::Amount),
        sl('c', "bytes").req(Val::Amount),
        sl('q', "quiet"),
        l("silent"),
        sl('v', "verbose"),
        s('f'),
        s('F'),
        l("follow").opt(Val::OneOf(&["name", "descriptor"])),
        l("retry"),
        sl('s', "sleep-interval").req(Val::Secs {
            min: 0.1,
            max: 60.0,
        }),
    ],
    refused: &[("--pid", "不支持 (not supported)")],
    operands: Operands::Files { max: None },
    numeric_short: Some('n'),
};

pub const DU: Grammar = Grammar {
    flags: &[
        sl('s', "summarize"),
        sl('h', "human-readable"),
        sl('a', "all"),
        sl('c', "total"),
        sl('x', "one-file-system"),
        sl('b', "bytes"),
        s('k'),
        s('m'),
        l("si"),
        l("apparent-size"),
        l("inodes"),
        sl('S', "separate-dirs"),
        sl('d', "max-depth").req(Val::Count { max: 10 }),
        sl('t', "threshold").req(Val::Size),
        sl('B', "block-size").req(Val::Size),
        l("time"),
    ],
    refused: &[
        ("-L", FOLLOWS_LINKS),
        ("--dereference", FOLLOWS_LINKS),
        ("-X", READS_NAMED_FILES),
        ("--exclude-from", READS_NAMED_FILES),
        ("--files0-from", READS_NAMED_FILES),
    ],
    operands: Operands::Files { max: None },
    numeric_short: None,
};

pub const WC: Grammar = Grammar {
    flags: &[
        sl('l', "lines"),
        sl('w', "words"),
        sl('c', "bytes"),
        sl('m', "chars"),
        sl('L', "max-line-length"),
    ],
    refused: &[("--files0-from", READS_NAMED_FILES)],
    operands: Operands::Files { max: None },
    numeric_short: None,
};

const COMPRESS: &str = "会执行任意程序 (would run a program)";

pub const SORT: Grammar = Grammar {
    flags: &[
        sl('n', "numeric-sort"),
        sl('r', "reverse"),
        sl('u', "unique"),
        sl('h', "human-numeric-sort"),
        sl('V', "version-sort"),
        sl('f', "ignore-case"),
        sl('b', "ignore-leading-blanks"),
        sl('M', "month-sort"),
        sl('g', "general-numeric-sort"),
        sl('s', "stable"),
        sl('d', "dictionary-order"),
        sl('i', "ignore-nonprinting"),
        sl('c', "check"),
        sl('z', "zero-terminated"),
        sl('k', "key").req(Val::SortKey),
        sl('t', "field-separator").req(Val::Char),
    ],
    refused: &[
        // Temporary files are writes, and the read policy says nothing about writing.
        ("-T", WRITES_FILE),
        ("--temporary-directory", WRITES_FILE),
        ("-o", WRITES_FILE),
        ("--output", WRITES_FILE),
        ("--compress-program", COMPRESS),
        ("--files0-from", READS_NAMED_FILES),
        ("--random-source", READS_NAMED_FILES),
        ("-S", "不允许调整内存缓冲 (no buffer size)"),
        ("--buffer-size", "不允许调整内存缓冲 (no buffer size)"),
    ],
    operands: Operands::Files { max: None },
    numeric_short: None,
};

pub const UNIQ: Grammar = Grammar {
    flags: &[
        sl('c', "count"),
        sl('d', "repeated"),
        sl('D', "all-repeated"),
        sl('u', "unique"),
        sl('i', "ignore-case"),
        sl('z', "zero-terminated"),
        sl('f', "skip-fields").req(Val::Count { max: 10_000 }),
        sl('s', "skip-chars").req(Val::Count { max: 100_000 }),
        sl('w', "check-chars").req(Val::Count { max: 100_000 }),
    ],
    refused: &[],
    // A second operand is uniq's OUTPUT file.
    operands: Operands::Files { max: Some(1) },
    numeric_short: None,
};

pub const CUT: Grammar = Grammar {
    flags: &[
        sl('f', "fields").req(Val::Ranges),
        sl('c', "characters").req(Val::Ranges),
        sl('b', "bytes").req(Val::Ranges),
        sl('d', "delimiter").req(Val::Char),
        sl('s', "only-delimited"),
        s('n'),
        l("complement"),
        l("output-delimiter").req(Val::Text),
        sl('z', "zero-terminated"),
    ],
    refused: &[],
    operands: Operands::Files { max: None },
    numeric_short: None,
};

pub const STAT: Grammar = Grammar {
    flags: &[
        sl('c', "format").req(Val::Text),
        l("printf").req(Val::Text),
        sl('t', "terse"),
        sl('f', "file-system"),
        sl('L', "dereference"),
    ],
    refused: &[],
    operands: Operands::Files { max: None },
    numeric_short: None,
};

pub const FILE: Grammar = Grammar {
    flags: &[
        sl('b', "brief"),
        sl('i', "mime"),
        l("mime-type"),
        l("mime-encoding"),
        sl('z', "uncompress"),
        sl('k', "keep-going"),
        sl('E', "no-such-file-error"),
        sl('h', "no-dereference"),
    ],
    refused: &[
        ("-f", READS_NAMED_FILES),
        ("--files-from", READS_NAMED_FILES),
        ("-m", READS_NAMED_FILES),
        ("--magic-file", READS_NAMED_FILES),
        ("-C", WRITES_FILE),
        ("--compile", WRITES_FILE),
        ("-L", FOLLOWS_LINKS),
        ("--dereference", FOLLOWS_LINKS),
    ],
    operands: Operands::Files { max: None },
    numeric_short: None,
};

const CHECK: &str =
    "-c 会读取校验文件中列出的任意文件 (reads arbitrary files listed in the check file)";

pub const SUM: Grammar = Grammar {
    flags: &[
        sl('b', "binary"),
        sl('t', "text"),
        l("tag"),
        sl('z', "zero"),
    ],
    refused: &[("-c", CHECK), ("--check", CHECK)],
    operands: Operands::Files { max: None },
    numeric_short: None,
};
