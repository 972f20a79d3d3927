//! Every store row and sampler snapshot as the protocol message a client receives: the one
//! place where server-side records meet the wire format.

use protocol::{FileInfo, HistoryMessage, Message, Offer, SessionInfo, ToolCallRecord};

use crate::store::{MessageRow, OfferRow, SessionRow, StoreError, UploadRow};

/// A store failure as an ERROR frame answering `request_id`.
/// The ERROR code of a store failure that is not a reply to a request (a session made at
/// HELLO or on first use): `disk_full` when the disk is full, else `internal`.
pub fn store_error_code(e: &StoreError) -> &'static str {
    match e {
        StoreError::DiskFull(_) => "disk_full",
        _ => "internal",
    }
}

pub fn store_error(e: StoreError, request_id: u64) -> Message {
    let (code, msg) = match &e {
        StoreError::NotFound(_) => ("not_found", e.to_string()),
        StoreError::Ambiguous { .. } => ("ambiguous", e.to_string()),
        StoreError::Forbidden(m) => ("forbidden", m.clone()),
        StoreError::DiskFull(_) => ("disk_full", e.to_string()),
        _ => ("internal", e.to_string()),
    };
    Message::error(code, msg, Some(request_id))
}

pub fn session_info(s: &SessionRow) -> SessionInfo {
    SessionInfo {
        id: s.id.clone(),
        name: s.name.clone(),
        created_at: s.created_at.clone(),
        updated_at: s.updated_at.clone(),
        messages: s.messages,
    }
}

pub fn file_info(u: &UploadRow) -> FileInfo {
    FileInfo {
        file_id: u.file_id.clone(),
        filename: u.filename.clone(),
        size: u.size,
        sha256: u.sha256.clone(),
        content_type: u.content_type.clone(),
        uploaded_at: u.uploaded_at.clone(),
        state: u.state.as_str().into(),
        detail: u.detail.clone(),
    }
}

/// One history message as HISTORY carries it.
pub fn history_message(m: MessageRow) -> HistoryMessage {
    HistoryMessage {
        role: m.role,
        text: m.text,
        time: m.time,
        tool_calls: m
            .tool_calls
            .into_iter()
            .map(|c| ToolCallRecord {
                tool: c.tool,
                args: c.args,
                ok: c.ok,
                duration_ms: c.duration_ms,
                summary: c.summary,
                output: c.output,
            })
            .collect(),
    }
}

pub fn offer_msg(o: &OfferRow) -> Offer {
    Offer {
        offer_id: o.offer_id.clone(),
        file_id: o.file_id.clone(),
        filename: o.filename.clone(),
        size: o.size,
        sha256: o.sha256.clone(),
        expires_at: o.expires_at,
        request_id: o.request_id,
        tool_call: o.tool_call.clone(),
        mode: o.mode.as_str().into(),
    }
}

/// The wire form of a sampler snapshot.
pub fn snapshot_msg(s: &llmops_tools::Snapshot) -> protocol::MonitorSnapshot {
    protocol::MonitorSnapshot {
        ts_ms: chrono::DateTime::parse_from_rfc3339(&s.taken_at)
            .map(|t| t.timestamp_millis().max(0) as u64)
            .unwrap_or(0),
        cpu: protocol::CpuStats {
            usage_percent: s.cpu.usage_percent,
            cores: s.cpu.cores as u32,
            frequency_mhz: s.cpu.frequency_mhz,
            load_avg: s.cpu.load_avg,
            per_core: s.cpu.per_core.clone(),
        },
        memory: protocol::MemoryStats {
            total_bytes: s.memory.total_bytes,
            used_bytes: s.memory.used_bytes,
            available_bytes: s.memory.available_bytes,
            usage_percent: s.memory.usage_percent as f32,
        },
        disks: s
            .disks
            .iter()
            .map(|d| protocol::DiskStats {
                mount: d.mount.clone(),
                fs: d.fs.clone(),
                total_bytes: d.total_bytes,
                used_bytes: d.used_bytes,
                available_bytes: d.available_bytes,
                usage_percent: d.usage_percent as f32,
            })
            .collect(),
        top_processes: s.top_processes.iter().map(process_stats).collect(),
        process_count: u32::try_from(s.process_count).ok(),
        net: Some(s.net.clone()),
        disk_io: Some(s.disk_io.clone()),
        interval_ms: s.interval_ms,
        history: Vec::new(),
    }
}

/// One row of the sampler's process table as a snapshot carries it.
pub fn process_stats(p: &llmops_tools::sys_monitor::ProcessInfo) -> protocol::ProcessStats {
    protocol::ProcessStats {
        pid: p.pid,
        ppid: p.ppid,
        user: p.user.clone(),
        name: p.name.clone(),
        cpu_percent: p.cpu_percent,
        rss_bytes: p.rss_bytes,
        mem_percent: p.mem_percent,
        command: p.command.clone(),
    }
}

#[cfg(test)]
mod tests {
    use llmops_tools::sys_monitor::ProcessInfo;

    #[test]
    fn processes_go_on_the_wire_unchanged() {
        let s = llmops_tools::Snapshot {
            process_count: 312,
            top_processes: vec![ProcessInfo {
                pid: 4242,
                ppid: 1,
                user: "root".into(),
                name: "burn-cpu".into(),
                cpu_percent: 99.5,
                rss_bytes: 3 << 20,
                mem_percent: 0.1,
                command: "/usr/bin/burn-cpu --serve".into(),
                program: "burn-cpu".into(),
            }],
            ..Default::default()
        };
        let m = super::snapshot_msg(&s);
        assert_eq!(m.process_count, Some(312));
        assert_eq!(m.top_processes.len(), 1);
        let p = &m.top_processes[0];
        assert_eq!(
            (p.pid, p.name.as_str(), p.user.as_str()),
            (4242, "burn-cpu", "root")
        );
        assert_eq!(
            (p.cpu_percent, p.rss_bytes, p.mem_percent),
            (99.5, 3 << 20, 0.1)
        );
        assert_eq!(p.command, "/usr/bin/burn-cpu --serve");
    }
}
