//! Clause splitting and file-reference markers of `understand`.

use super::*;

#[test]
fn splits_clauses() {
    assert_eq!(
        clauses("先列出文件,再查看README内容"),
        vec!["列出文件", "查看README内容"]
    );
    assert_eq!(
        clauses("找一下配置文件然后发给我"),
        vec!["找一下配置文件", "发给我"]
    );
    assert_eq!(clauses("我需要配置文件,同时也想看看系统状态").len(), 2);
    // A Chinese question mark ends a sentence with no space after it.
    assert_eq!(
        clauses(&crate::text::normalize(
            "mysqld 什么时候第一次崩溃？nginx 里最后一个 500 是几点？"
        )),
        vec!["mysqld 什么时候第一次崩溃", "nginx 里最后一个 500 是几点"]
    );
    assert_eq!(clauses("GET /api?x=1 count").len(), 1);
    assert_eq!(clauses("诊断系统状态:CPU,磁盘和日志").len(), 1);
    assert_eq!(clauses("再见"), vec!["再见"]);
    assert_eq!(
        clauses("find the nginx config and then send it to me").len(),
        2
    );
}

#[test]
fn strips_file_refs() {
    let (t, ids) = strip_file_refs("分析这个文件\n\n[file_ref:abc-123]");
    assert_eq!(t, "分析这个文件");
    assert_eq!(ids, vec!["abc-123".to_string()]);
}

#[test]
fn a_bare_measure_joins_the_clause_before_and_a_second_question_splits() {
    assert_eq!(
        clauses("any errors in app.log? how many"),
        vec!["any errors in app.log, how many"]
    );
    assert_eq!(clauses("app.log 里有 WARN 吗? 多少条").len(), 1);
    // "first" opens a sequence only when one follows.
    assert_eq!(
        clauses("first 502 in gateway.log"),
        ["first 502 in gateway.log"]
    );
    assert_eq!(
        clauses("first check the disk, then the memory")[0],
        "check the disk"
    );
    assert_eq!(
        clauses("when did the cache start failing, and which host logged it first?").len(),
        2
    );
}

#[test]
fn two_logs_set_side_by_side_are_a_query_each() {
    let ups = crate::tests::uploads(&["gateway.log", "billing.log"]);
    for text in [
        "the first timeout in gateway.log vs the first OutOfMemoryError in billing.log, which came first",
        "gateway.log 第一次超时和 billing.log 第一次 OutOfMemoryError，哪个在前",
        "the first timeout in gateway.log vs the first OutOfMemoryError in billing.log - when?",
    ] {
        let plan = crate::TurnPlan::new(&crate::PlannerInput {
            text,
            referenced_files: &[],
            uploads: &ups,
            history: &[],
            conversation: &crate::Conversation::default(),
            steps: &[],
        });
        let files: Vec<Vec<String>> = plan
            .tasks
            .iter()
            .filter_map(|t| match t {
                Task::Query(f) => Some(f.query.files.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(files.len(), 2, "{text}: {:?}", plan.tasks);
        assert_ne!(files[0], files[1], "{text}");
    }
}
