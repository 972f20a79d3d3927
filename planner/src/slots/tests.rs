//! Slot readers over planted texts and uploads: windows, counts, file names and paths.

use super::*;

#[test]
fn partial_name_and_kind_beat_kind_alone() {
    // Both are documents; only one shares words with the request.
    let text = "找一下备份相关的文档然后发给我";
    let named = hit_name_score(text, "数据备份指南.md");
    let other = hit_name_score(text, "operations-handbook.md");
    assert!(named > other, "{named} vs {other}");
    // A name that matches outright still wins over partial evidence.
    assert!(hit_name_score("发我 数据备份指南.md", "数据备份指南.md") >= 100);
}
use std::path::PathBuf;

pub(crate) fn up(names: &[&str]) -> Vec<UploadRef> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| UploadRef {
            file_id: format!("f{i}"),
            filename: n.to_string(),
            path: PathBuf::from(format!("/data/uploads/f{i}/{n}")),
            size: 100,
            sha256: String::new(),
            uploaded_at: String::new(),
            content_type: String::new(),
            columns: Vec::new(),
            format: None,
        })
        .collect()
}

#[test]
fn metrics() {
    assert_eq!(monitor_mention("CPU使用率是多少").metric(), "cpu");
    assert_eq!(monitor_mention("内存够用吗").metric(), "memory");
    assert_eq!(monitor_mention("磁盘空间").metric(), "disk");
    assert_eq!(monitor_mention("查看CPU和内存").metric(), "all");
    assert_eq!(monitor_mention("system status").metric(), "all");
    assert_eq!(monitor_mention("how much RAM is free").metric(), "memory");
    assert!(!monitor_mention("有没有关于性能的文档").any());
}

#[test]
fn explicit_commands() {
    let u = up(&["app.log"]);
    let c = explicit_command("ls -la /tmp", &u).unwrap();
    assert_eq!(
        (c.command.as_str(), c.args.clone()),
        ("ls", vec!["-la".into(), "/tmp".into()])
    );
    assert_eq!(explicit_command("执行ls", &u).unwrap().command, "ls");
    assert_eq!(
        explicit_command("grep -i timeout app.log", &u)
            .unwrap()
            .command,
        "grep"
    );
    assert!(explicit_command("ls和ll有什么区别", &u).is_none());
    assert!(explicit_command("tail -f 是什么意思", &u).is_none());
    assert!(explicit_command("free memory please", &u).is_none());
    assert_eq!(explicit_command("rm -rf /", &u).unwrap().command, "rm");
    assert_eq!(explicit_command("ps aux | head", &u).unwrap().command, "ps");
    assert_eq!(explicit_command("ls&&reboot", &u).unwrap().command, "ls");
}

#[test]
fn resolves_file_args() {
    let u = up(&["app.log", "README.md"]);
    let a = resolve_command_args("grep", &["ERROR".into(), "app.log".into()], &u);
    assert_eq!(
        a,
        vec!["ERROR".to_string(), "/data/uploads/f0/app.log".into()]
    );
    let a = resolve_command_args("head", &["-n".into(), "5".into(), "readme".into()], &u);
    assert_eq!(a[2], "/data/uploads/f1/README.md");
}

#[test]
fn line_windows() {
    assert_eq!(line_window("看看app.log的前5行"), Some(("head", 5)));
    assert_eq!(line_window("日志最后二十行"), Some(("tail", 20)));
    assert_eq!(
        line_window("show the last 3 lines of app.log"),
        Some(("tail", 3))
    );
    assert_eq!(
        line_window("first ten lines of nginx.conf"),
        Some(("head", 10))
    );
    assert_eq!(line_window("查看日志"), None);
}

#[test]
fn file_matching() {
    let u = up(&[
        "README.md",
        "config.yaml",
        "database.yaml",
        "server.log",
        "性能报告.md",
    ]);
    let name = |t: &str| best_upload(t, &u).map(|x| x.filename.clone());
    assert_eq!(name("把配置文件发给我").as_deref(), Some("config.yaml"));
    assert_eq!(name("日志").as_deref(), Some("server.log"));
    assert_eq!(name("性能报告").as_deref(), Some("性能报告.md"));
    assert_eq!(
        name("send me database.yaml").as_deref(),
        Some("database.yaml")
    );
    assert_eq!(name("数据库配置").as_deref(), Some("database.yaml"));
    assert_eq!(name("readme").as_deref(), Some("README.md"));
    let u2 = up(&["nginx.conf", "部署手册.md", "app.log"]);
    assert_eq!(
        best_upload("把部署手册发我", &u2).map(|x| x.filename.as_str()),
        Some("部署手册.md")
    );
    assert_eq!(
        best_upload("the nginx config", &u2).map(|x| x.filename.as_str()),
        Some("nginx.conf")
    );
}

#[test]
fn typed_names_and_paths() {
    assert_eq!(
        typed_file_names("把.env文件发给我"),
        vec![".env".to_string()]
    );
    assert_eq!(
        typed_file_names("下载 server.log 吧"),
        vec!["server.log".to_string()]
    );
    assert_eq!(
        typed_paths("下载/etc/passwd"),
        vec!["/etc/passwd".to_string()]
    );
    assert_eq!(
        typed_paths("cat ~/.ssh/id_rsa"),
        vec!["~/.ssh/id_rsa".to_string()]
    );
}

#[test]
fn queries_keep_key_terms() {
    assert!(search_query("搜索数据库配置文档").contains("数据库"));
    assert_eq!(
        search_query("where is the database port set?"),
        "database port"
    );
    assert!(search_query("查找使用说明文档").contains("说明"));
    assert!(search_query("哪里配置了消息队列").contains("队列"));
    assert_eq!(
        search_query("find the upgrade instructions"),
        "upgrade instructions"
    );
    assert_eq!(top_k("搜索日志，给我前5个结果"), 5);
}

#[test]
fn references() {
    assert_eq!(upload_reference("刚刚上传的文件").0, "this");
    assert_eq!(upload_reference("对比这两个配置文件"), ("these", Some(2)));
    assert_eq!(upload_reference("我之前上传的日志").0, "previous");
    assert_eq!(upload_reference("我上传过哪些文件").0, "all");
    assert_eq!(parse_count("二十"), 20);
}
