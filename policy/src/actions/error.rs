//! Why a proposed mutating action was refused (grammar, deny rule, configured-action
//! parameter) and why an `[actions]` configuration could not be loaded. Chinese first,
//! English after; each names the offending argument.

/// A refusal of a proposed action. `Denied` is a deny rule (never offered for approval);
/// every other variant is a malformed or unknown action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    #[error("操作为空 / empty action")]
    Empty,
    #[error("不支持的操作: {0} (可用: systemctl restart|reload|start|stop|reset-failed, kill, journalctl --vacuum-*, 已配置的操作) / unsupported action: {0}")]
    UnknownProgram(String),
    #[error("不支持的 systemctl 子命令: {0} (可用: restart, reload, start, stop, reset-failed) / unsupported systemctl verb: {0}")]
    UnknownVerb(String),
    #[error("缺少服务单元名 / missing unit name: systemctl {0} UNIT")]
    MissingUnit(String),
    #[error("非法的服务单元名: {0:?} (只允许字母、数字和 :_.@-，不能以 - 或 . 开头，不允许通配符) / invalid unit name: {0:?}")]
    BadUnit(String),
    #[error("不允许的选项: {0} (操作不接受额外选项) / option not allowed: {0}")]
    OptionNotAllowed(String),
    #[error("不支持的信号: {0} (可用: TERM, HUP, INT, KILL) / unsupported signal: {0}")]
    BadSignal(String),
    #[error("只能指定一个信号: {0} / only one signal may be given: {0}")]
    SecondSignal(String),
    #[error("缺少进程号 / missing process id: kill [-TERM|-HUP|-INT|-KILL] PID...")]
    MissingPid,
    #[error("非法的进程号: {0:?} (必须是十进制正整数) / invalid process id: {0:?}")]
    BadPid(String),
    #[error("不允许向进程组发送信号: {0} (0 和负数表示进程组或所有进程) / signalling a process group is not allowed: {0}")]
    ProcessGroup(String),
    #[error("没有这个进程: {0} / no such process: {0}")]
    NoSuchProcess(u32),
    #[error("非法的 journalctl 清理参数: {0:?} (--vacuum-size=N[K|M|G] 或 --vacuum-time=N[s|min|h|d|weeks|months]) / invalid journal vacuum argument: {0:?}")]
    BadVacuum(String),
    #[error("参数包含不允许的字符: {0:?} / argument contains a forbidden character: {0:?}")]
    Injection(String),
    #[error("复合操作的步骤过多 ({0}，最多 {max}) / too many stages in one request ({0}, at most {max})", max = super::MAX_STAGES)]
    TooManyStages(usize),
    #[error("复合操作中有空步骤 / a compound request has an empty stage")]
    EmptyStage,
    #[error("未配置的操作: {0} / no such configured action: {0}")]
    UnknownAction(String),
    #[error("操作 {action} 没有参数 {param} / action {action} has no parameter {param}")]
    UnknownParam { action: String, param: String },
    #[error("操作 {action} 缺少参数 {param} / action {action} needs parameter {param}")]
    MissingParam { action: String, param: String },
    #[error("参数 {param} 的值 {value:?} 不合法: {why} / invalid value for {param}: {value:?}")]
    BadParam {
        param: String,
        value: String,
        why: String,
    },
    /// A deny rule refuses it: it cannot be approved.
    #[error("禁止的操作目标: {target} ({rule}) / denied target: {target} ({rule})")]
    Denied { target: String, rule: String },
}

impl ActionError {
    /// Machine-readable reason for the audit log and tool data.
    pub fn code(&self) -> &'static str {
        match self {
            ActionError::Empty | ActionError::EmptyStage => "empty",
            ActionError::UnknownProgram(_) | ActionError::UnknownVerb(_) => "unknown_action",
            ActionError::MissingUnit(_) | ActionError::BadUnit(_) => "bad_unit",
            ActionError::OptionNotAllowed(_) => "option_not_allowed",
            ActionError::BadSignal(_) | ActionError::SecondSignal(_) => "bad_signal",
            ActionError::MissingPid | ActionError::BadPid(_) => "bad_pid",
            ActionError::ProcessGroup(_) => "process_group",
            ActionError::NoSuchProcess(_) => "no_such_process",
            ActionError::BadVacuum(_) => "bad_vacuum",
            ActionError::Injection(_) => "injection",
            ActionError::TooManyStages(_) => "too_many_stages",
            ActionError::UnknownAction(_) => "unknown_configured_action",
            ActionError::UnknownParam { .. }
            | ActionError::MissingParam { .. }
            | ActionError::BadParam { .. } => "bad_param",
            ActionError::Denied { .. } => "denied",
        }
    }

    /// Whether a deny rule refused it (reported as denied, never offered for approval).
    pub fn is_denied(&self) -> bool {
        matches!(self, ActionError::Denied { .. })
    }
}

/// Why `[actions]` in server.toml cannot be used (found at load, before the server starts).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionConfigError {
    #[error(
        "[[actions.custom]] 名称不合法: {0:?} (小写字母、数字和 -) / invalid action name: {0:?}"
    )]
    BadName(String),
    #[error("[[actions.custom]] 名称重复: {0} / duplicate action name: {0}")]
    Duplicate(String),
    #[error("操作 {0} 的 argv 为空 / action {0} has an empty argv")]
    EmptyArgv(String),
    #[error("操作 {action} 的程序必须是绝对路径: {program} / the program of action {action} must be an absolute path: {program}")]
    ProgramNotAbsolute { action: String, program: String },
    #[error("操作 {action} 的 argv 元素 {element:?} 有未知占位符 {{{placeholder}}} / unknown placeholder in action {action}")]
    UnknownPlaceholder {
        action: String,
        element: String,
        placeholder: String,
    },
    #[error("操作 {action} 的 argv 元素 {element:?} 的花括号不成对 / unbalanced braces in action {action}")]
    BadTemplate { action: String, element: String },
    #[error("操作 {action} 的参数 {param} 未在 argv 中使用 / parameter {param} of action {action} is not used in argv")]
    UnusedParam { action: String, param: String },
    #[error("操作 {action} 的参数名不合法: {param:?} / invalid parameter name in action {action}: {param:?}")]
    BadParamName { action: String, param: String },
    #[error("操作 {action} 的参数 {param} 定义不合法: {why} / invalid definition of parameter {param} of action {action}: {why}")]
    BadParamKind {
        action: String,
        param: String,
        why: String,
    },
    #[error("操作 {action} 的固定参数包含不允许的字符: {element:?} / a fixed argument of action {action} has a forbidden character: {element:?}")]
    BadLiteral { action: String, element: String },
    #[error("[actions] deny_units 中的单元名不合法: {0:?} / invalid unit in deny_units: {0:?}")]
    BadDenyUnit(String),
}
