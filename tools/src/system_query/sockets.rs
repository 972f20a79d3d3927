//! The sockets table, as `ss -tuanp` shows it: TCP and UDP over IPv4 and IPv6 from
//! `/proc/net/{tcp,tcp6,udp,udp6}`, each with the process holding its inode (found through
//! `/proc/PID/fd`). A socket whose owner cannot be read (another user's process without the
//! right to read its fds) keeps an empty pid and process.

use std::collections::HashMap;
use std::net::{Ipv4Addr, Ipv6Addr};

use llmops_common::query::{FieldKind, Unit};

use super::table::{col, SysCell, SysTable};
use crate::sys_monitor::procs::lookup_user;

/// One socket line of `/proc/net/*`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SocketLine {
    pub proto: &'static str,
    pub local: String,
    pub local_port: u16,
    pub peer: String,
    pub peer_port: u16,
    pub state: &'static str,
    pub uid: u32,
    pub inode: u64,
}

/// TCP states by their hex code (include/net/tcp_states.h), named as `ss` names them.
fn tcp_state(code: u8) -> &'static str {
    match code {
        0x01 => "ESTAB",
        0x02 => "SYN-SENT",
        0x03 => "SYN-RECV",
        0x04 => "FIN-WAIT-1",
        0x05 => "FIN-WAIT-2",
        0x06 => "TIME-WAIT",
        0x07 => "UNCONN",
        0x08 => "CLOSE-WAIT",
        0x09 => "LAST-ACK",
        0x0A => "LISTEN",
        0x0B => "CLOSING",
        _ => "UNKNOWN",
    }
}

/// `0100007F:1F90` (little-endian words) to `127.0.0.1` and 8080.
fn parse_addr(raw: &str) -> Option<(String, u16)> {
    let (ip, port) = raw.split_once(':')?;
    let port = u16::from_str_radix(port, 16).ok()?;
    let ip = match ip.len() {
        8 => Ipv4Addr::from(u32::from_str_radix(ip, 16).ok()?.swap_bytes()).to_string(),
        32 => {
            let mut bytes = [0u8; 16];
            for (i, chunk) in bytes.chunks_mut(4).enumerate() {
                let word = u32::from_str_radix(ip.get(i * 8..i * 8 + 8)?, 16).ok()?;
                chunk.copy_from_slice(&word.to_le_bytes());
            }
            let v6 = Ipv6Addr::from(bytes);
            v6.to_ipv4_mapped()
                .map(|v4| v4.to_string())
                .unwrap_or_else(|| v6.to_string())
        }
        _ => return None,
    };
    Some((ip, port))
}

/// The socket lines of one `/proc/net/*` file.
pub fn parse_net(text: &str, proto: &'static str) -> Vec<SocketLine> {
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let (local, local_port) = parse_addr(f.get(1)?)?;
            let (peer, peer_port) = parse_addr(f.get(2)?)?;
            let code = u8::from_str_radix(f.get(3)?, 16).ok()?;
            let state = match (proto.starts_with("udp"), code) {
                (true, 0x07) => "UNCONN",
                (true, 0x01) => "ESTAB",
                _ => tcp_state(code),
            };
            Some(SocketLine {
                proto,
                local,
                local_port,
                peer,
                peer_port,
                state,
                uid: f.get(7)?.parse().ok()?,
                inode: f.get(9)?.parse().ok()?,
            })
        })
        .collect()
}

/// Socket inode -> (pid, comm) over every process whose fds can be read.
fn owners() -> HashMap<u64, (u32, String)> {
    let mut map = HashMap::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return map;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
            continue;
        };
        let comm = std::fs::read_to_string(format!("/proc/{pid}/comm"))
            .map(|c| c.trim().to_string())
            .unwrap_or_default();
        for fd in fds.flatten() {
            let Ok(target) = std::fs::read_link(fd.path()) else {
                continue;
            };
            let t = target.to_string_lossy();
            if let Some(inode) = t
                .strip_prefix("socket:[")
                .and_then(|r| r.strip_suffix(']'))
                .and_then(|n| n.parse::<u64>().ok())
            {
                map.entry(inode).or_insert_with(|| (pid, comm.clone()));
            }
        }
    }
    map
}

/// The sockets table of this host.
pub fn table() -> SysTable {
    let mut lines = Vec::new();
    for (file, proto) in [
        ("/proc/net/tcp", "tcp"),
        ("/proc/net/tcp6", "tcp6"),
        ("/proc/net/udp", "udp"),
        ("/proc/net/udp6", "udp6"),
    ] {
        if let Ok(text) = std::fs::read_to_string(file) {
            lines.extend(parse_net(&text, proto));
        }
    }
    let owners = owners();
    let mut users: HashMap<u32, String> = HashMap::new();
    let rows = lines
        .into_iter()
        .map(|s| {
            let owner = owners.get(&s.inode).filter(|_| s.inode != 0);
            let user = users
                .entry(s.uid)
                .or_insert_with(|| lookup_user(s.uid).unwrap_or_else(|| s.uid.to_string()))
                .clone();
            vec![
                SysCell::Text(s.proto.to_string()),
                SysCell::Text(s.state.to_string()),
                SysCell::Text(s.local),
                SysCell::Int(i64::from(s.local_port)),
                SysCell::Text(s.peer),
                SysCell::Int(i64::from(s.peer_port)),
                owner.map_or(SysCell::Null, |o| SysCell::Int(i64::from(o.0))),
                owner.map_or(SysCell::Null, |o| SysCell::Text(o.1.clone())),
                SysCell::Text(user),
            ]
        })
        .collect();
    SysTable {
        name: "sockets",
        fields: vec![
            col("proto", FieldKind::Text, Unit::None),
            col("state", FieldKind::Text, Unit::None),
            col("local", FieldKind::Ip, Unit::None),
            col("local_port", FieldKind::Integer, Unit::None),
            col("peer", FieldKind::Ip, Unit::None),
            col("peer_port", FieldKind::Integer, Unit::None),
            col("pid", FieldKind::Integer, Unit::None),
            col("process", FieldKind::Text, Unit::None),
            col("user", FieldKind::Text, Unit::None),
        ],
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TCP: &str = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 5551 1 0000000000000000 100 0 0 10 0
   1: 0100007F:1F90 0200007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 5552 1 0000000000000000 100 0 0 10 0
";
    const TCP6: &str = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:0016 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777 1 0000000000000000 100 0 0 10 0
   1: 0000000000000000FFFF00000100007F:0050 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 778 1 0000000000000000 100 0 0 10 0
";

    #[test]
    fn proc_net_lines_read_like_ss() {
        let v = parse_net(TCP, "tcp");
        assert_eq!(v.len(), 2);
        assert_eq!(
            (
                v[0].local.as_str(),
                v[0].local_port,
                v[0].state,
                v[0].uid,
                v[0].inode
            ),
            ("127.0.0.1", 8080, "LISTEN", 1000, 5551)
        );
        assert_eq!(
            (v[1].peer.as_str(), v[1].peer_port, v[1].state),
            ("127.0.0.2", 50000, "ESTAB")
        );
        let v6 = parse_net(TCP6, "tcp6");
        assert_eq!((v6[0].local.as_str(), v6[0].local_port), ("::", 22));
        assert_eq!((v6[1].local.as_str(), v6[1].local_port), ("127.0.0.1", 80));
    }

    #[test]
    fn a_listener_of_this_process_is_found_with_its_pid() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = l.local_addr().expect("addr").port();
        let t = table();
        let (lp, st, pid) = (
            t.index("local_port").expect("col"),
            t.index("state").expect("col"),
            t.index("pid").expect("col"),
        );
        let row = t
            .rows
            .iter()
            .find(|r| {
                r[lp] == SysCell::Int(i64::from(port)) && r[st] == SysCell::Text("LISTEN".into())
            })
            .expect("the listener is listed");
        assert_eq!(row[pid], SysCell::Int(i64::from(std::process::id())));
    }
}
