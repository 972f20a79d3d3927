//! The typed arguments read what models send (aliases, numbers as strings, JSON in a
//! string) with the tools' errors, and write back the shapes the tools take.

use serde_json::json;

use super::*;

fn read(tool: ToolName, v: Value) -> ToolArgs {
    ToolArgs::from_json(tool, v).expect("valid arguments")
}

#[test]
fn args_from_json_is_lenient_like_the_tools() {
    let ToolArgs::FileRead(a) = read(
        ToolName::FileRead,
        json!({"path": "/x.log", "mode": "analyze"}),
    ) else {
        panic!("file_read")
    };
    assert_eq!(
        (a.file_path.as_str(), a.mode),
        ("/x.log", ReadMode::Analyze)
    );
    let ToolArgs::SysMonitor(m) = read(
        ToolName::SysMonitor,
        json!({"metric": "procs", "limit": "7"}),
    ) else {
        panic!("sys_monitor")
    };
    assert!(m.is_processes());
    assert_eq!(m.limit(), Ok(7));
    assert_eq!(m.sort(), Ok(ProcSort::Cpu));
    let ToolArgs::Command(c) = read(ToolName::CommandExecutor, json!("{\"command\": \"ls\"}"))
    else {
        panic!("command")
    };
    assert_eq!(c.line(), "ls");
    assert!(matches!(
        read(ToolName::FileUpload, Value::Null),
        ToolArgs::Upload(_)
    ));
}

#[test]
fn args_errors_keep_the_tools_text() {
    let e = ToolArgs::from_json(ToolName::CommandExecutor, json!({"args": []})).unwrap_err();
    assert!(
        e.starts_with("参数错误 (invalid arguments): missing field `command`"),
        "{e}"
    );
    let e = ToolArgs::from_json(ToolName::FileRead, json!("{not json")).unwrap_err();
    assert!(e.starts_with("参数不是合法的 JSON 对象"), "{e}");
    let bad = SysMonitorArgs {
        metric: Some("gpu".into()),
        sort: Some("disk".into()),
        limit: Some(json!(true)),
        name: None,
    };
    assert_eq!(
        bad.metric().unwrap_err(),
        "metric 必须是 cpu、memory、disk、processes 或 all 之一: gpu"
    );
    assert!(bad
        .sort()
        .unwrap_err()
        .starts_with("sort 必须是 cpu 或 memory: disk"));
    assert_eq!(
        bad.limit().unwrap_err(),
        "limit 必须是 1 到 50 的整数: true"
    );
    let e = ToolArgs::from_json(ToolName::RunAction, json!({"argv": []})).unwrap_err();
    assert!(e.starts_with("argv 必须是非空的字符串数组"), "{e}");
    let e = ToolArgs::from_json(
        ToolName::RunAction,
        json!({"action": "x", "params": {"a": true}}),
    )
    .unwrap_err();
    assert!(e.starts_with("参数 a 必须是字符串或数字: true"), "{e}");
    let e = ToolArgs::from_json(ToolName::RunAction, json!({})).unwrap_err();
    assert!(
        e.starts_with("run_action 需要 argv、command 或 action"),
        "{e}"
    );
}

#[test]
fn args_to_json_is_the_shape_the_tools_take() {
    let calls = [
        (
            ToolArgs::FileRead(FileReadArgs::analyze("/a.log")),
            json!({"file_path": "/a.log", "mode": "analyze"}),
        ),
        (
            ToolArgs::FileRead(FileReadArgs::page("/a", 0, 200)),
            json!({"file_path": "/a", "offset": 0, "limit": 200}),
        ),
        (
            ToolArgs::SysMonitor(SysMonitorArgs::processes(ProcSort::Memory, 5, None)),
            json!({"metric": "processes", "sort": "memory", "limit": 5}),
        ),
        (
            ToolArgs::SysMonitor(SysMonitorArgs::of(Metric::Disk)),
            json!({"metric": "disk"}),
        ),
        (
            ToolArgs::Command(CommandArgs::new("ls", vec!["-la".into()])),
            json!({"command": "ls", "args": ["-la"]}),
        ),
        (
            ToolArgs::RunAction(RunActionArgs::argv(vec!["kill".into(), "1".into()], "why")),
            json!({"argv": ["kill", "1"], "reason": "why"}),
        ),
    ];
    for (args, want) in calls {
        assert_eq!(args.to_json(), want);
        assert_eq!(ToolArgs::from_json(args.tool(), want), Ok(args));
    }
    let configured = json!({"action": "restart", "params": {"unit": "nginx", "n": 2}});
    let a = read(ToolName::RunAction, configured.clone());
    assert_eq!(a.to_json(), configured);
    let ToolArgs::RunAction(r) = a else {
        panic!("run_action")
    };
    assert_eq!(
        r.request(),
        llmops_policy::ActionRequest::Configured {
            name: "restart".into(),
            params: [
                ("n".to_string(), "2".to_string()),
                ("unit".into(), "nginx".into())
            ]
            .into_iter()
            .collect(),
        }
    );
}
