//! Each kind of typed tool data gives exactly the JSON the tools built by hand before it was
//! typed (the ground truth below is written with `json!` the way the tools wrote it).

use std::path::PathBuf;

use serde_json::{json, Value};

use super::*;
use crate::file_read::Encoding;
use crate::follow::FollowEnd;
use crate::semantic_search::{SearchHit, SearchScope};
use crate::sys_monitor::{CpuStats, DiskStats, MemoryStats, ProcSort, ProcessInfo};
use crate::UploadRef;
use llmops_common::TransferMode;
use llmops_loganalysis::{AnalyzeMode, AnalyzeOptions, FileAnalysis};
use llmops_policy::{PathSource, ResolvedArg};

fn same(data: ToolData, truth: Value) {
    let got = data.to_value();
    assert_eq!(got, truth);
    // Byte-identical as the model and the planner receive it.
    assert_eq!(
        serde_json::to_string(&got).expect("json"),
        serde_json::to_string(&truth).expect("json")
    );
}

#[test]
fn tool_data_none_is_null() {
    same(ToolData::None, Value::Null);
    assert!(ToolData::default().is_none());
}

#[test]
fn tool_data_denied_shape() {
    same(
        ToolData::Denied(Denial {
            code: "not_allowed",
            target: "/etc/shadow".into(),
        }),
        json!({"blocked": true, "code": "not_allowed", "target": "/etc/shadow"}),
    );
}

fn cpu() -> CpuStats {
    CpuStats {
        usage_percent: 12.5,
        cores: 4,
        frequency_mhz: 2400,
        load_avg: [0.5, 0.25, 1.75],
        per_core: vec![],
    }
}

fn memory() -> MemoryStats {
    MemoryStats {
        total_bytes: 8 << 30,
        used_bytes: 3 << 30,
        available_bytes: 5 << 30,
        usage_percent: 37.5,
        free_bytes: 1 << 30,
        shared_bytes: 1 << 20,
        buff_cache_bytes: 4 << 30,
        swap_total_bytes: 2 << 30,
        swap_used_bytes: 0,
        swap_free_bytes: 2 << 30,
    }
}

fn disk() -> DiskStats {
    DiskStats {
        mount: "/".into(),
        fs: "ext4".into(),
        total_bytes: 100 << 30,
        used_bytes: 40 << 30,
        available_bytes: 55 << 30,
        usage_percent: 43.0,
    }
}

#[test]
fn tool_data_monitor_shape_per_part() {
    let all = MonitorData {
        cpu: Some(cpu()),
        memory: Some(memory()),
        disks: Some(vec![disk()]),
    };
    same(
        ToolData::Monitor(all),
        json!({"cpu": cpu(), "memory": memory(), "disks": [disk()]}),
    );
    same(
        ToolData::Monitor(MonitorData {
            cpu: Some(cpu()),
            ..MonitorData::default()
        }),
        json!({"cpu": cpu()}),
    );
    // A disk request with no real file system still has the key.
    same(
        ToolData::Monitor(MonitorData {
            disks: Some(vec![]),
            ..MonitorData::default()
        }),
        json!({"disks": []}),
    );
    // The planner reads these exact figures.
    let v = ToolData::Monitor(MonitorData {
        memory: Some(memory()),
        ..MonitorData::default()
    })
    .to_value();
    assert_eq!(v["memory"]["used_bytes"], 3u64 << 30);
    assert_eq!(v["memory"]["usage_percent"], 37.5);
}

fn proc_row(pid: u32, name: &str) -> ProcessInfo {
    ProcessInfo {
        pid,
        ppid: 1,
        user: "app".into(),
        name: name.into(),
        cpu_percent: 12.5,
        rss_bytes: 1288490189,
        mem_percent: 15.0,
        command: format!("{name} --serve"),
        program: name.into(),
    }
}

#[test]
fn tool_data_processes_shape() {
    let rows = vec![proc_row(4242, "java"), proc_row(900, "python3")];
    for (sort, name) in [
        (ProcSort::Memory, None),
        (ProcSort::Cpu, Some("java".to_string())),
    ] {
        let data = ToolData::Processes(ProcessesData {
            metric: ProcessesMetric::Processes,
            sort,
            name: name.clone(),
            total_processes: 5,
            matched: 2,
            memory_total_bytes: 8 << 30,
            cores: 2,
            interval_ms: 1000,
            processes: rows.clone(),
        });
        same(
            data,
            json!({
                "metric": "processes",
                "sort": sort.as_str(),
                "name": name,
                "total_processes": 5,
                "matched": 2,
                "memory_total_bytes": 8u64 << 30,
                "cores": 2,
                "interval_ms": 1000,
                "processes": rows,
            }),
        );
    }
}

#[test]
fn tool_data_command_shape() {
    let resolved = vec![ResolvedArg {
        arg: "app.log".into(),
        path: PathBuf::from("/data/uploads/id0/app.log"),
        source: PathSource::Upload,
        same_name: 2,
    }];
    for (exit_code, pid) in [(Some(0), Some(4321)), (None, None)] {
        let data = ToolData::Command(CommandData {
            command: "grep".into(),
            args: vec!["-c".into(), "ERROR".into(), "app.log".into()],
            exit_code,
            stdout: "143\n".into(),
            stderr: String::new(),
            truncated: false,
            stopped_at_cap: false,
            cwd: "/data/uploads".into(),
            timed_out: exit_code.is_none(),
            pid,
            stages: vec![
                vec!["grep".into(), "-c".into(), "ERROR".into(), "app.log".into()],
                vec!["head".into()],
            ],
            stage_exit_codes: vec![exit_code, Some(0)],
            resolved: resolved.clone(),
            follow: false,
        });
        same(
            data,
            json!({
                "command": "grep",
                "args": ["-c", "ERROR", "app.log"],
                "exit_code": exit_code,
                "stdout": "143\n",
                "stderr": "",
                "truncated": false,
                "stopped_at_cap": false,
                "cwd": "/data/uploads",
                "timed_out": exit_code.is_none(),
                "pid": pid,
                "stages": [["grep", "-c", "ERROR", "app.log"], ["head"]],
                "stage_exit_codes": [exit_code, 0],
                "resolved": resolved,
                "follow": false,
            }),
        );
    }
}

#[test]
fn tool_data_follow_shape() {
    for (end, exit) in [
        (FollowEnd::Cap, None),
        (FollowEnd::Cancelled, None),
        (FollowEnd::Exited(Some(1)), Some(1)),
    ] {
        let data = ToolData::Follow(FollowData {
            command: "tail".into(),
            args: vec!["-f".into(), "app.log".into()],
            exit_code: exit,
            stdout: "a\nb\n".into(),
            stderr: "tail: cannot open".into(),
            truncated: true,
            cwd: "/var/log".into(),
            timed_out: false,
            pid: Some(77),
            follow: FollowStats {
                ended: end,
                elapsed_ms: 1500,
                lines: 30,
                bytes: 300,
                shown_lines: 2,
                not_live: 4,
                cap_secs: 60,
            },
        });
        same(
            data,
            json!({
                "command": "tail",
                "args": ["-f", "app.log"],
                "exit_code": exit,
                "stdout": "a\nb\n",
                "stderr": "tail: cannot open",
                "truncated": true,
                "cwd": "/var/log",
                "timed_out": false,
                "pid": 77,
                "follow": {
                    "ended": end.as_str(),
                    "elapsed_ms": 1500,
                    "lines": 30,
                    "bytes": 300,
                    "shown_lines": 2,
                    "not_live": 4,
                    "cap_secs": 60,
                },
            }),
        );
    }
}

#[test]
fn tool_data_page_shapes() {
    for enc in [
        Encoding::Utf8,
        Encoding::Utf8Bom,
        Encoding::Utf16Le,
        Encoding::Utf16Be,
    ] {
        same(
            ToolData::Page(PageData {
                path: "/etc/app.yaml".into(),
                offset: 10,
                limit: 2,
                total_lines: 40,
                lines: vec!["port: 1".into(), "host: x".into()],
                more_lines: 28,
                encoding: enc,
                lossy: enc == Encoding::Utf16Be,
                cut_lines: 1,
            }),
            json!({
                "path": "/etc/app.yaml",
                "offset": 10,
                "limit": 2,
                "total_lines": 40,
                "lines": ["port: 1", "host: x"],
                "more_lines": 28,
                "encoding": enc.name(),
                "lossy": enc == Encoding::Utf16Be,
                "cut_lines": 1,
            }),
        );
    }
    same(
        ToolData::StoredPage(StoredPageData {
            output_id: "o-1".into(),
            offset: 5,
            lines: vec!["x".into()],
            total_lines: 9,
            total_bytes: 18,
            more_lines: 3,
            truncated: false,
        }),
        json!({
            "output_id": "o-1",
            "offset": 5,
            "lines": ["x"],
            "total_lines": 9,
            "total_bytes": 18,
            "more_lines": 3,
            "truncated": false,
        }),
    );
}

#[test]
fn tool_data_analysis_is_the_file_analysis() {
    let log = b"2024-05-01 10:00:00 ERROR db down\n2024-05-01 10:00:01 INFO ok\nno level\n";
    let analysis = FileAnalysis {
        mode: AnalyzeMode::Analyze,
        path: "/var/log/app.log".into(),
        file: "app.log".into(),
        report: llmops_loganalysis::analyze_bytes(log, AnalyzeOptions::default()),
    };
    let truth = serde_json::to_value(&analysis).expect("json");
    assert_eq!(truth["mode"], "analyze");
    assert_eq!(truth["lines"], 3);
    same(ToolData::Analysis(Box::new(analysis)), truth);
}

#[test]
fn tool_data_uploads_shape() {
    let files = vec![UploadRef {
        file_id: "id0".into(),
        filename: "app.log".into(),
        path: PathBuf::from("/data/uploads/id0/app.log"),
        size: 12,
        sha256: "0".repeat(64),
        uploaded_at: "2025-01-01T00:00:00Z".into(),
        content_type: "text/plain".into(),
        columns: Vec::new(),
        format: None,
    }];
    same(ToolData::Uploads(files.clone()), json!({ "files": files }));
    same(ToolData::Uploads(Vec::new()), json!({"files": []}));
}

#[test]
fn tool_data_search_shape_and_frame() {
    let hits = vec![
        SearchHit {
            filename: "app.log".into(),
            filepath: "/data/uploads/id0/app.log".into(),
            similarity: 0.75,
            chunk: "disk full".into(),
            position: "lines 2-2".into(),
            match_type: "lexical".into(),
            file_id: Some("id0".into()),
            answer: None,
        },
        SearchHit {
            filename: "ops.md".into(),
            filepath: "docs/ops.md".into(),
            similarity: 0.5,
            chunk: "df -h".into(),
            position: "lines 1-3".into(),
            match_type: "hybrid".into(),
            file_id: None,
            answer: None,
        },
    ];
    for scope in [SearchScope::All, SearchScope::System, SearchScope::Uploads] {
        let data = SearchData {
            query: "disk full".into(),
            scope,
            results: hits.clone(),
        };
        same(
            ToolData::Search(data.clone()),
            json!({"query": "disk full", "scope": scope.as_str(), "results": hits}),
        );
        // The frame carries the same hits as the JSON did through serde.
        let frame = ToolData::Search(data)
            .as_search()
            .expect("search")
            .to_wire(Some(7));
        let via_json: Vec<protocol::SearchHit> = hits
            .iter()
            .map(|h| serde_json::from_value(json!(h)).expect("hit"))
            .collect();
        assert_eq!(frame.results, via_json);
        assert_eq!(frame.request_id, Some(7));
        assert_eq!(frame.scope, scope.as_str());
        assert_eq!(frame.query, "disk full");
    }
}

#[test]
fn tool_data_offer_shape() {
    for mode in TransferMode::ALL {
        let offer = DownloadOffer {
            file_path: "/data/uploads/id0/config.yaml".into(),
            filename: "config.yaml".into(),
            size: 23,
            sha256: "ab".repeat(32),
            transport_mode: mode,
        };
        let data = ToolData::Offer(offer.clone());
        assert_eq!(data.as_offer(), Some(&offer));
        assert!(data.as_search().is_none());
        same(
            data,
            json!({
                "offer": {
                    "file_path": "/data/uploads/id0/config.yaml",
                    "filename": "config.yaml",
                    "size": 23,
                    "sha256": "ab".repeat(32),
                    "transport_mode": mode.as_str(),
                }
            }),
        );
    }
}
