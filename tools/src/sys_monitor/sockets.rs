//! Sockets by inode from a process's `/proc/PID/net/{tcp,tcp6,udp,udp6,unix}` (its own
//! network namespace), as `ss` and `lsof -i` read them: addresses in the kernel's hex form
//! turned into `addr:port`, TCP states by name. Pure parsers; the caller reads the files.

use std::collections::HashMap;
use std::net::{Ipv4Addr, Ipv6Addr};

use protocol::SocketInfo;

/// TCP states as numbered in the kernel's `tcp_states.h`.
fn tcp_state(code: u8) -> &'static str {
    match code {
        0x01 => "ESTABLISHED",
        0x02 => "SYN_SENT",
        0x03 => "SYN_RECV",
        0x04 => "FIN_WAIT1",
        0x05 => "FIN_WAIT2",
        0x06 => "TIME_WAIT",
        0x07 => "CLOSE",
        0x08 => "CLOSE_WAIT",
        0x09 => "LAST_ACK",
        0x0A => "LISTEN",
        0x0B => "CLOSING",
        _ => "UNKNOWN",
    }
}

/// `0100007F:1F90` (IPv4, little-endian) or 32 hex digits of four little-endian words
/// (IPv6), then the port in big-endian hex: `127.0.0.1:8080`, `[::1]:22`.
pub(super) fn hex_addr(s: &str) -> Option<String> {
    let (ip, port) = s.split_once(':')?;
    let port = u16::from_str_radix(port, 16).ok()?;
    match ip.len() {
        8 => {
            let n = u32::from_str_radix(ip, 16).ok()?;
            Some(format!("{}:{port}", Ipv4Addr::from(n.swap_bytes())))
        }
        32 => {
            let mut bytes = [0u8; 16];
            for (i, chunk) in bytes.chunks_mut(4).enumerate() {
                let word = u32::from_str_radix(ip.get(i * 8..i * 8 + 8)?, 16).ok()?;
                chunk.copy_from_slice(&word.swap_bytes().to_be_bytes());
            }
            let v6 = Ipv6Addr::from(bytes);
            Some(match v6.to_ipv4_mapped() {
                Some(v4) => format!("{v4}:{port}"),
                None => format!("[{v6}]:{port}"),
            })
        }
        _ => None,
    }
}

/// Adds the sockets of one `/proc/net/{tcp,tcp6,udp,udp6}` table to `out` by inode.
pub(super) fn parse_inet(text: &str, proto: &str, out: &mut HashMap<u64, SocketInfo>) {
    let tcp = proto.starts_with("tcp");
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (Some(local), Some(remote), Some(st), Some(inode)) =
            (f.get(1), f.get(2), f.get(3), f.get(9))
        else {
            continue;
        };
        let (Some(local), Some(remote), Ok(st), Ok(inode)) = (
            hex_addr(local),
            hex_addr(remote),
            u8::from_str_radix(st, 16),
            inode.parse::<u64>(),
        ) else {
            continue;
        };
        let unconnected =
            remote.ends_with(":0") && (remote.starts_with("0.0.0.0") || remote.starts_with("[::]"));
        out.insert(
            inode,
            SocketInfo {
                fd: 0,
                proto: proto.to_string(),
                local,
                remote: if unconnected { String::new() } else { remote },
                // UDP has no connection states worth showing (07 is "unconnected").
                state: if tcp {
                    tcp_state(st).to_string()
                } else {
                    String::new()
                },
            },
        );
    }
}

/// Adds the sockets of `/proc/net/unix` (`Num RefCount Protocol Flags Type St Inode Path`).
pub(super) fn parse_unix(text: &str, out: &mut HashMap<u64, SocketInfo>) {
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let Some(Ok(inode)) = f.get(6).map(|s| s.parse::<u64>()) else {
            continue;
        };
        out.insert(
            inode,
            SocketInfo {
                fd: 0,
                proto: "unix".into(),
                local: f.get(7).map(|s| (*s).to_string()).unwrap_or_default(),
                remote: String::new(),
                state: String::new(),
            },
        );
    }
}

/// Every socket `pid` can see, by inode (files that cannot be read add nothing).
pub(super) fn sockets_of(pid: u32) -> HashMap<u64, SocketInfo> {
    let mut out = HashMap::new();
    for proto in ["tcp", "tcp6", "udp", "udp6"] {
        if let Ok(t) = std::fs::read_to_string(format!("/proc/{pid}/net/{proto}")) {
            parse_inet(&t, proto, &mut out);
        }
    }
    if let Ok(t) = std::fs::read_to_string(format!("/proc/{pid}/net/unix")) {
        parse_unix(&t, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_sys_monitor_decodes_kernel_socket_tables() {
        assert_eq!(hex_addr("0100007F:1F90").as_deref(), Some("127.0.0.1:8080"));
        assert_eq!(
            hex_addr("00000000000000000000000001000000:0016").as_deref(),
            Some("[::1]:22")
        );
        assert_eq!(
            hex_addr("0000000000000000FFFF00000100007F:0050").as_deref(),
            Some("127.0.0.1:80"),
            "v4-mapped shown as v4"
        );
        assert_eq!(hex_addr("zz:1"), None);
        let tcp = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n\
   0: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0\n\
   1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 4343 1 0\n";
        let mut m = HashMap::new();
        parse_inet(tcp, "tcp", &mut m);
        let listen = &m[&4242];
        assert_eq!(
            (
                listen.local.as_str(),
                listen.remote.as_str(),
                listen.state.as_str()
            ),
            ("0.0.0.0:8080", "", "LISTEN")
        );
        assert_eq!(m[&4343].remote, "127.0.0.1:50000");
        assert_eq!(m[&4343].state, "ESTABLISHED");
        let unix = "Num       RefCount Protocol Flags    Type St Inode Path\n\
0000: 00000002 00000000 00010000 0001 01 777 /run/app.sock\n\
0000: 00000003 00000000 00000000 0001 03 778\n";
        parse_unix(unix, &mut m);
        assert_eq!(m[&777].local, "/run/app.sock");
        assert_eq!(m[&778].local, "");
    }

    #[test]
    fn tools_sys_monitor_finds_this_process_listener() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = l.local_addr().expect("addr").port();
        let socks = sockets_of(std::process::id());
        assert!(
            socks
                .values()
                .any(|s| s.local == format!("127.0.0.1:{port}") && s.state == "LISTEN"),
            "{socks:?}"
        );
    }
}
