//! Message tests: every message round-trips, the type table matches the docs, old
//! payloads still decode.

use super::*;
use proptest::prelude::*;

#[test]
fn a_monitor_snapshot_without_processes_still_decodes() {
    let old = r#"{"ts_ms":5,"cpu":{"usage_percent":1.0,"cores":2,"frequency_mhz":0,"load_avg":[0.0,0.0,0.0]},"memory":{"total_bytes":1,"used_bytes":0,"available_bytes":1,"usage_percent":0.0},"disks":[]}"#;
    let s: MonitorSnapshot = serde_json::from_str(old).expect("old payload");
    assert!(s.top_processes.is_empty());
    assert_eq!(s.process_count, None);
    // And a new one carries them.
    let mut n = s.clone();
    n.process_count = Some(212);
    n.top_processes.push(ProcessStats {
        pid: 42,
        ppid: 1,
        user: "www".into(),
        name: "nginx".into(),
        cpu_percent: 87.5,
        rss_bytes: 1 << 20,
        mem_percent: 0.1,
        command: "nginx: worker process".into(),
    });
    let back: MonitorSnapshot =
        serde_json::from_str(&serde_json::to_string(&n).expect("ser")).expect("de");
    assert_eq!(back, n);
}

#[test]
fn codes_are_unique_and_legacy_codes_exact() {
    let mut seen = std::collections::HashSet::new();
    for t in MsgType::ALL {
        assert!(seen.insert(t.code()), "duplicate code {:#x}", t.code());
        assert_ne!(t.code(), FRAGMENT_TYPE);
    }
    let legacy: Vec<(u8, &str)> = MsgType::ALL
        .iter()
        .filter(|t| t.is_legacy())
        .map(|t| (t.code(), t.wire_name()))
        .collect();
    assert_eq!(
        legacy,
        vec![
            (0x01, "CHAT_TEXT"),
            (0x0A, "AGENT_THOUGHT"),
            (0x0C, "DOWNLOAD_OFFER"),
            (0x0D, "FILE_DATA"),
            (0x0E, "FILE_METADATA"),
            (0x0F, "MODEL_SWITCH"),
            (0x10, "HISTORY_REQUEST"),
            (0x11, "CLEAR_REQUEST"),
            (0x14, "SESSION_LIST"),
            (0x15, "SESSION_SWITCH"),
            (0x16, "SESSION_NEW"),
            (0x17, "SESSION_DELETE"),
            (0x18, "CLIENT_UDP_PORT"),
        ]
    );
}

#[test]
fn legacy_payload_shapes() {
    let m = Message::AgentThought(AgentThought {
        kind: "stream_start".into(),
        content: None,
    });
    assert_eq!(
        m.encode_payload().expect("encodes").as_ref(),
        br#"{"type":"stream_start"}"#
    );
    let m = Message::decode(0x0E, br#"{"filename":"a.txt","size":3}"#).expect("decodes");
    assert_eq!(
        m,
        Message::FileMetadata(FileMetadata {
            filename: "a.txt".into(),
            size: 3
        })
    );
    // Legacy empty requests tolerate junk bodies.
    assert_eq!(
        Message::decode(0x10, b"whatever").expect("decodes"),
        Message::HistoryRequest(Empty)
    );
}

#[test]
fn docs_protocol_md_has_the_generated_table() {
    let doc = include_str!("../../../docs/protocol.md");
    let table = type_table_markdown();
    assert!(
        doc.contains(&table),
        "docs/protocol.md is out of date; regenerate the type table with \
         `cargo run -p llmops-protocol --example type_table`"
    );
}

#[test]
fn bad_json_is_a_specific_error() {
    let e = Message::decode(0x24, b"{not json").expect_err("bad json");
    assert_eq!(e.code(), "bad_payload");
    assert!(e.to_string().contains("CHAT"));
    assert_eq!(
        Message::decode(0x99, b"").expect_err("unknown"),
        DecodeError::UnknownType(0x99)
    );
}

#[test]
fn tool_output_and_output_pages_have_stable_shapes() {
    let m = Message::ToolOutput(ToolOutput {
        request_id: 7,
        step: 2,
        tool: "command_executor".into(),
        lines: vec!["a".into(), "b".into()],
        dropped: 3,
        total: 5,
    });
    assert_eq!(m.msg_type().code(), 0x2A);
    assert_eq!(
        m.encode_payload().expect("encodes").as_ref(),
        br#"{"request_id":7,"step":2,"tool":"command_executor","lines":["a","b"],"dropped":3,"total":5}"#
    );
    let get = Message::decode(
        0x2B,
        br#"{"request_id":8,"output_id":"ab12","offset":100,"count":50}"#,
    )
    .expect("decodes");
    assert_eq!(
        get,
        Message::OutputGet(OutputGet {
            request_id: 8,
            output_id: "ab12".into(),
            offset: 100,
            count: 50
        })
    );
    let page = Message::OutputPage(OutputPage {
        request_id: 8,
        output_id: "ab12".into(),
        offset: 100,
        lines: vec!["x".into()],
        total_lines: 101,
        total_bytes: 4000,
        truncated: false,
    });
    let back = Message::decode(0x2C, &page.encode_payload().expect("encodes")).expect("ok");
    assert_eq!(back, page);
    // A tool result without an output ref is the old shape (older clients decode it),
    // and an older server's result decodes with `output: None`.
    let old = br#"{"request_id":1,"event":{"kind":"tool_result","step":1,"tool":"t","ok":true,"duration_ms":3,"summary":"s"}}"#;
    let ev = Message::decode(0x28, old).expect("decodes");
    assert_eq!(ev.encode_payload().expect("encodes").as_ref(), old);
    let with = Message::AgentEvent(AgentEvent {
        request_id: 1,
        event: AgentEventKind::ToolResult {
            step: 1,
            tool: "t".into(),
            ok: true,
            duration_ms: 3,
            summary: "s".into(),
            output: Some(OutputRef {
                output_id: "o1".into(),
                lines: 80,
                bytes: 1234,
                truncated: false,
            }),
        },
    });
    let text = String::from_utf8(with.encode_payload().expect("encodes").to_vec()).expect("utf8");
    assert!(
        text.ends_with(
            r#""output":{"output_id":"o1","lines":80,"bytes":1234,"truncated":false}}}"#
        ),
        "{text}"
    );
}

#[test]
fn file_regions_have_stable_shapes() {
    let get = Message::decode(
        0x2D,
        br#"{"request_id":4,"target":"ab12","first_line":90,"last_line":150}"#,
    )
    .expect("decodes");
    assert_eq!(
        get,
        Message::FileRegion(FileRegion {
            request_id: 4,
            target: "ab12".into(),
            first_line: 90,
            last_line: 150,
        })
    );
    let reply = Message::FileRegionReply(FileRegionReply {
        request_id: 4,
        path: "/var/log/app.log".into(),
        first_line: 90,
        lines: vec!["a".into(), "b".into()],
        total_lines: 91,
    });
    assert_eq!(reply.msg_type().code(), 0x2E);
    assert_eq!(
        reply.encode_payload().expect("encodes").as_ref(),
        br#"{"request_id":4,"path":"/var/log/app.log","first_line":90,"lines":["a","b"],"total_lines":91}"#
    );
    assert_eq!(MsgType::FileRegion.wire_name(), "FILE_REGION");
}

#[test]
fn welcome_commands_are_optional_both_ways() {
    let w = Welcome {
        proto: 1,
        session_id: "s".into(),
        session_name: "n".into(),
        resumed: false,
        server_version: "0.1.0".into(),
        heartbeat_secs: 15,
        model: "offline".into(),
        models: vec![],
        features: vec![],
        planner: "offline".into(),
        egress: "none".into(),
        motd: String::new(),
        commands: vec![],
    };
    // No commands: the old shape, which an older client reads.
    let old = Message::Welcome(Box::new(w.clone()))
        .encode_payload()
        .expect("encodes");
    let text = String::from_utf8(old.to_vec()).expect("utf8");
    assert!(!text.contains("commands"), "{text}");
    // An older server's WELCOME (no commands) decodes with an empty list.
    assert_eq!(
        Message::decode(0x21, &old).expect("decodes"),
        Message::Welcome(Box::new(w.clone()))
    );
    let with = Message::Welcome(Box::new(Welcome {
        commands: vec!["ps".into(), "df".into()],
        ..w
    }));
    let text = String::from_utf8(with.encode_payload().expect("encodes").to_vec()).expect("utf8");
    assert!(
        text.ends_with(r#""motd":"","commands":["ps","df"]}"#),
        "{text}"
    );
}

#[test]
fn every_message_round_trips_through_its_payload() {
    crate::big_stack::check(256, any::<Message>, |m| {
        let payload = m.encode_payload().expect("encodes");
        let back = Message::decode(m.msg_type().code(), &payload).expect("decodes");
        // Empty payloads carry no data; everything else must be identical.
        prop_assert_eq!(back, m);
        Ok(())
    });
}

#[test]
fn older_peers_payloads_still_decode_and_new_fields_are_optional() {
    // An older client's subscription and chat; an older server's snapshot and processes.
    let sub: MonitorSubscribe = serde_json::from_str(r#"{"interval_ms":1000}"#).expect("old");
    assert_eq!(sub.processes, None);
    assert!(!sub.history);
    let chat: ChatSend =
        serde_json::from_str(r#"{"request_id":3,"text":"CPU?"}"#).expect("old chat");
    assert_eq!(chat.action, None);
    let p: ProcessStats = serde_json::from_str(
        r#"{"pid":7,"user":"u","name":"x","cpu_percent":1.0,"rss_bytes":2,"mem_percent":0.1}"#,
    )
    .expect("old process");
    assert_eq!(p.ppid, 0);
    // What a new server adds is left out when empty, so older clients see the old shape.
    let s = MonitorSnapshot::default();
    let text = serde_json::to_string(&s).expect("ser");
    for absent in ["net", "disk_io", "history", "per_core", "interval_ms"] {
        assert!(!text.contains(absent), "{absent} in {text}");
    }
    let sub = MonitorSubscribe {
        interval_ms: 500,
        processes: None,
        history: false,
    };
    assert_eq!(
        serde_json::to_string(&sub).expect("ser"),
        r#"{"interval_ms":500}"#
    );
    // And the new ones round-trip.
    let view = MonitorSubscribe {
        interval_ms: 1000,
        processes: Some(ProcessView {
            filter: "worker.py".into(),
            sort: ProcessSort::Memory,
            limit: 100,
            tree: true,
        }),
        history: true,
    };
    let back: MonitorSubscribe =
        serde_json::from_str(&serde_json::to_string(&view).expect("ser")).expect("de");
    assert_eq!(back, view);
    assert!(serde_json::to_string(&view)
        .expect("ser")
        .contains(r#""sort":"memory""#));
}
