//! Why a query could not run: specific, bilingual messages.

use std::path::PathBuf;

/// A query's failure. Messages are Chinese first, then English.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QueryError {
    #[error("未知字段 `{field}`（{table} 的字段: {available}）/ unknown field `{field}` (the fields of {table}: {available})")]
    UnknownField {
        field: String,
        table: String,
        available: String,
    },
    #[error(
        "字段 `{field}` 不是数值，无法计算{what} / field `{field}` is not numeric: no {what} of it"
    )]
    NotNumeric { field: String, what: String },
    #[error("单位不匹配: 字段 `{field}` 以 {field_unit} 计，条件用 {unit} / unit mismatch: `{field}` is in {field_unit}, the filter in {unit}")]
    UnitMismatch {
        field: String,
        field_unit: String,
        unit: String,
    },
    #[error("正则表达式无效 `{pattern}`: {message} / bad regex `{pattern}`: {message}")]
    BadRegex { pattern: String, message: String },
    #[error("时间点无效 `{point}`（应为 HH:MM[:SS] 或 YYYY-MM-DD HH:MM[:SS]）/ bad time point `{point}` (use HH:MM[:SS] or YYYY-MM-DD HH:MM[:SS])")]
    BadTimePoint { point: String },
    #[error("条件无效: {0} / bad filter: {0}")]
    BadFilter(String),
    #[error("未知标签 `{tag}`（{format} 格式的标签: {available}）/ unknown tag `{tag}` (tags of format {format}: {available})")]
    UnknownTag {
        tag: String,
        format: String,
        available: String,
    },
    #[error("未知日志格式 `{0}` / unknown log format `{0}`")]
    UnknownFormat(String),
    #[error("{file} 中没有可识别的时间戳，无法按时间窗口或时间桶统计 / {file} has no timestamps: no time window or buckets")]
    NoTimestamps { file: String },
    #[error("文件不存在: {} / file not found", .0.display())]
    NotFound(PathBuf),
    #[error("路径是目录而不是文件: {} / is a directory", .0.display())]
    IsDir(PathBuf),
    #[error("不是普通文件: {} / not a regular file", .0.display())]
    NotRegular(PathBuf),
    #[error("权限不足，无法读取: {} / permission denied", .0.display())]
    PermissionDenied(PathBuf),
    #[error("二进制文件，无法按日志查询: {} / binary file (NUL bytes): not a log", .0.display())]
    Binary(PathBuf),
    #[error("UTF-16 编码的文件不支持查询: {} / UTF-16 files are not queried", .0.display())]
    Utf16(PathBuf),
    #[error("读取文件失败 {}: {} / read failed", .0.display(), .1)]
    Io(PathBuf, String),
    #[error("格式定义错误 {file} 第 {line} 行: {message} / bad format definition {file} line {line}: {message}")]
    BadFormat {
        file: String,
        line: usize,
        message: String,
    },
    #[error("查询需要至少一个日志文件 / the query names no log file")]
    NoFiles,
    #[error("{0}")]
    Unsupported(String),
    #[error("操作已取消 / cancelled")]
    Cancelled,
}

impl QueryError {
    pub(crate) fn io(path: &std::path::Path, e: &std::io::Error) -> QueryError {
        match e.kind() {
            std::io::ErrorKind::NotFound => QueryError::NotFound(path.to_path_buf()),
            std::io::ErrorKind::PermissionDenied => {
                QueryError::PermissionDenied(path.to_path_buf())
            }
            _ => QueryError::Io(path.to_path_buf(), e.to_string()),
        }
    }
}
