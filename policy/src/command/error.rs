//! Why the command policy refused a command line: one typed error per reason, with the
//! user-facing message (Chinese first, English after) and a short audit code.

use super::super::path::PathError;

/// Why a command was refused. Display texts are the user-facing messages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("命令不能为空 (empty command)")]
    Empty,
    #[error("参数包含非法字符: {}", show_char(*.ch))]
    IllegalChar { ch: char, arg: String },
    #[error("不支持的 shell 操作符: {op}（命令不经过 shell，只支持单个 | 管道 / only plain `|` pipes are supported）")]
    ShellOperator { op: String },
    #[error("引号未闭合: {quote} (unterminated quote)")]
    UnterminatedQuote { quote: char },
    #[error("管道中有空的命令段 (empty pipeline stage)")]
    EmptyStage,
    #[error("管道段数过多: {count} 段，上限 {max} (too many pipeline stages)")]
    TooManyStages { count: usize, max: usize },
    #[error("此处只能执行单个命令，不能使用管道 (a single command is expected here)")]
    NotSingle,
    #[error("命令必须是不带路径的命令名: {command}（例如 ls 而不是 /bin/ls）")]
    NotBare { command: String },
    #[error("命令不在白名单中: {command}")]
    NotWhitelisted { command: String },
    #[error("参数过多: {count} 个，上限 {max}")]
    TooManyArgs { count: usize, max: usize },
    #[error("参数过长: {len} 字节，上限 {max}")]
    ArgTooLong { len: usize, max: usize },
    #[error("{command} 不支持的选项: {option}{hint}")]
    UnsupportedOption {
        command: String,
        option: String,
        hint: String,
    },
    #[error("{command} 禁止使用 {option}: {reason}")]
    RefusedOption {
        command: String,
        option: String,
        reason: String,
    },
    #[error("{command} 只允许只读操作，不允许: {what}（允许 / allowed: {allowed}）")]
    NotReadOnly {
        command: String,
        what: String,
        allowed: String,
    },
    #[error("不允许通过选项读取文件: {option}（{command} 的该选项已禁用）")]
    FileOption { command: String, option: String },
    #[error("选项缺少参数: {option}")]
    MissingOptionValue { option: String },
    #[error("{command} 选项 {option} 的值无效: {value}（需要 / expects {expected}）")]
    BadValue {
        command: String,
        option: String,
        value: String,
        expected: String,
    },
    #[error("{command} 不接受参数: {arg}")]
    UnexpectedOperand { command: String, arg: String },
    #[error("{command} 的参数无效: {arg}（需要 / expects {expected}）")]
    BadOperand {
        command: String,
        arg: String,
        expected: String,
    },
    #[error("{command} 参数过多: 最多 {max} 个{hint}")]
    TooManyOperands {
        command: String,
        max: usize,
        hint: String,
    },
    #[error("{command} 缺少参数: {what}")]
    MissingOperand { command: String, what: String },
    #[error("ps 不允许显示进程环境变量: {arg}（可能泄露密钥 / may leak secrets）")]
    PsEnvironment { arg: String },
    #[error("grep 需要一个匹配模式 (missing pattern)")]
    GrepMissingPattern,
    #[error("grep 需要至少一个文件参数（不读取标准输入）/ grep needs at least one file")]
    GrepMissingFile,
    #[error("grep 模式无效: {pattern}（{reason}）")]
    GrepInvalidPattern { pattern: String, reason: String },
    #[error("{command} 不能递归遍历共享的上传目录 {path}（会列出其他会话的文件 / would list other sessions' uploads），请指定本会话的文件或目录")]
    SharedUploadsRoot { command: String, path: String },
    #[error("工作目录不可用: {0}")]
    WorkingDir(PathError),
    #[error(transparent)]
    Path(#[from] PathError),
}

fn show_char(c: char) -> String {
    match c {
        '\n' => "\\n (换行)".to_string(),
        '\r' => "\\r".to_string(),
        '\0' => "\\0 (NUL)".to_string(),
        c => c.to_string(),
    }
}

impl CommandError {
    /// Short machine-readable reason for audit lines.
    pub fn code(&self) -> &'static str {
        match self {
            CommandError::Empty => "empty",
            CommandError::IllegalChar { .. } => "illegal_char",
            CommandError::ShellOperator { .. } => "shell_operator",
            CommandError::UnterminatedQuote { .. } => "unterminated_quote",
            CommandError::EmptyStage => "empty_stage",
            CommandError::TooManyStages { .. } => "too_many_stages",
            CommandError::NotSingle => "not_single",
            CommandError::NotBare { .. } => "not_bare",
            CommandError::NotWhitelisted { .. } => "not_whitelisted",
            CommandError::TooManyArgs { .. } => "too_many_args",
            CommandError::ArgTooLong { .. } => "arg_too_long",
            CommandError::UnsupportedOption { .. } => "unsupported_option",
            CommandError::RefusedOption { .. } => "refused_option",
            CommandError::NotReadOnly { .. } => "not_read_only",
            CommandError::FileOption { .. } => "file_option",
            CommandError::MissingOptionValue { .. } => "missing_option_value",
            CommandError::BadValue { .. } => "bad_value",
            CommandError::UnexpectedOperand { .. } => "unexpected_operand",
            CommandError::BadOperand { .. } => "bad_operand",
            CommandError::TooManyOperands { .. } => "too_many_operands",
            CommandError::MissingOperand { .. } => "missing_operand",
            CommandError::PsEnvironment { .. } => "ps_environment",
            CommandError::GrepMissingPattern => "grep_missing_pattern",
            CommandError::GrepMissingFile => "grep_missing_file",
            CommandError::GrepInvalidPattern { .. } => "grep_invalid_pattern",
            CommandError::SharedUploadsRoot { .. } => "shared_uploads_root",
            CommandError::WorkingDir(_) => "working_dir",
            CommandError::Path(p) => p.code(),
        }
    }
}
