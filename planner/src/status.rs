//! The status line shown while the offline planner's call runs ("Reading app.log…"), from
//! the call's typed arguments.

use llmops_tooldata::{ReadMode, ToolArgs};

use super::text::Lang;

fn base(p: &str) -> String {
    p.rsplit('/').next().unwrap_or(p).to_string()
}

/// The status line of a call.
pub fn status(args: &ToolArgs, lang: Lang) -> String {
    match (args, lang) {
        (ToolArgs::SysMonitor(a), Lang::Zh) if a.is_processes() => "正在查看进程…".into(),
        (ToolArgs::SysMonitor(a), Lang::En) if a.is_processes() => "Looking at processes…".into(),
        (ToolArgs::FileRead(a), Lang::Zh) if a.mode == ReadMode::Analyze => {
            format!("正在分析整个 {}…", base(&a.file_path))
        }
        (ToolArgs::FileRead(a), Lang::En) if a.mode == ReadMode::Analyze => {
            format!("Analysing all of {}…", base(&a.file_path))
        }
        (ToolArgs::SysMonitor(_), Lang::Zh) => "正在查询系统资源…".into(),
        (ToolArgs::SysMonitor(_), Lang::En) => "Checking system resources…".into(),
        (ToolArgs::Command(a), _) => {
            format!("{}`{}`…", lang.pick("正在执行 ", "Running "), a.line())
        }
        (ToolArgs::Search(a), Lang::Zh) => format!("正在搜索“{}”…", a.query),
        (ToolArgs::Search(a), Lang::En) => format!("Searching for \"{}\"…", a.query),
        (ToolArgs::FileRead(a), Lang::Zh) => format!("正在读取 {}…", base(&a.file_path)),
        (ToolArgs::FileRead(a), Lang::En) => format!("Reading {}…", base(&a.file_path)),
        (ToolArgs::Upload(_), Lang::Zh) => "正在查看本会话的上传文件…".into(),
        (ToolArgs::Upload(_), Lang::En) => "Looking up this session's uploads…".into(),
        (ToolArgs::Download(a), Lang::Zh) => format!("正在准备下载 {}…", base(&a.file_path)),
        (ToolArgs::Download(a), Lang::En) => {
            format!("Preparing download of {}…", base(&a.file_path))
        }
        (ToolArgs::LogQuery(q), _) => {
            let files: Vec<String> = q.query.files.iter().map(|f| base(f)).collect();
            match lang {
                Lang::Zh => format!("正在查询 {}…", files.join("、")),
                Lang::En => format!("Querying {}…", files.join(", ")),
            }
        }
        (ToolArgs::SystemQuery(_), Lang::Zh) => "正在查询系统表…".into(),
        (ToolArgs::SystemQuery(_), Lang::En) => "Querying the system tables…".into(),
        (ToolArgs::RunAction(_), Lang::Zh) => "正在提交操作审批…".into(),
        (ToolArgs::RunAction(_), Lang::En) => "Asking for approval of an action…".into(),
    }
}
