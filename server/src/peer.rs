//! Who is on the other end of a connection: a TCP address, or a local Unix user known by
//! the socket's peer credentials (`SO_PEERCRED`); the key fairness and budgets count per
//! (remote address, loopback, Unix user); and the local access rules (who may connect over
//! the Unix socket, who may approve actions) decided from the group database.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::path::Path;

use nix::unistd::{Gid, Group, Uid, User};

/// A local user as the kernel vouches for them (the Unix socket's peer credentials).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalUser {
    pub uid: u32,
    /// The peer's effective group id when it connected.
    pub gid: u32,
    /// The connecting process (informational: it may have exited since).
    pub pid: Option<i32>,
    /// The login name, or `uid N` when the user database has none.
    pub name: String,
}

impl LocalUser {
    /// The user with these credentials, named from the user database.
    pub fn from_cred(uid: u32, gid: u32, pid: Option<i32>) -> LocalUser {
        let name = match User::from_uid(Uid::from_raw(uid)) {
            Ok(Some(u)) => u.name,
            Ok(None) => format!("uid {uid}"),
            Err(e) => {
                tracing::warn!(uid, "user database lookup failed: {e}");
                format!("uid {uid}")
            }
        };
        LocalUser {
            uid,
            gid,
            pid,
            name,
        }
    }

    pub fn is_root(&self) -> bool {
        self.uid == 0
    }
}

/// The other end of an NPLT or HTTP connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Peer {
    Tcp(SocketAddr),
    Unix(LocalUser),
}

impl fmt::Display for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Peer::Tcp(a) => write!(f, "{a}"),
            Peer::Unix(u) => write!(f, "unix:{}(uid={})", u.name, u.uid),
        }
    }
}

impl Peer {
    /// Whom limits and budgets count this peer as.
    pub fn key(&self) -> PeerKey {
        match self {
            Peer::Tcp(a) if a.ip().is_loopback() => PeerKey::Loopback,
            Peer::Tcp(a) => PeerKey::Remote(canonical_ip(a.ip())),
            Peer::Unix(u) => PeerKey::User(u.uid),
        }
    }

    /// The local user, for a Unix socket peer.
    pub fn local_user(&self) -> Option<&LocalUser> {
        match self {
            Peer::Unix(u) => Some(u),
            Peer::Tcp(_) => None,
        }
    }

    /// Audit fields naming the peer: `peer` (address or `unix`), and for a local user
    /// its `uid` and `user` name.
    pub fn audit_fields(&self) -> Vec<(&'static str, String)> {
        match self {
            Peer::Tcp(a) => vec![("peer", a.to_string())],
            Peer::Unix(u) => vec![
                ("peer", "unix".to_string()),
                ("uid", u.uid.to_string()),
                ("user", u.name.clone()),
            ],
        }
    }
}

/// An IPv4-mapped IPv6 address counts as the IPv4 address it carries.
fn canonical_ip(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// Whom connection limits and temp-space budgets are counted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PeerKey {
    /// A remote address: capped per address.
    Remote(IpAddr),
    /// Any loopback TCP address: every local TCP client looks the same, so it is not
    /// capped per address (local users are told apart on the Unix socket).
    Loopback,
    /// A local user on the Unix socket: capped per user.
    User(u32),
}

impl fmt::Display for PeerKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PeerKey::Remote(ip) => write!(f, "{ip}"),
            PeerKey::Loopback => f.write_str("loopback"),
            PeerKey::User(uid) => write!(f, "uid {uid}"),
        }
    }
}

/// A configured group, resolved when the server starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedGroup {
    pub name: String,
    pub gid: u32,
}

impl NamedGroup {
    /// The group called `name`, or an error saying it does not exist.
    pub fn resolve(name: &str) -> Result<NamedGroup, String> {
        match Group::from_name(name) {
            Ok(Some(g)) => Ok(NamedGroup {
                name: g.name,
                gid: g.gid.as_raw(),
            }),
            Ok(None) => Err(format!("没有这个组 / no such group: {name}")),
            Err(e) => Err(format!("cannot look up group {name}: {e}")),
        }
    }

    /// Whether `user` belongs to the group: its primary group, the group it connected
    /// with, or a supplementary group in the group database (so a membership added with
    /// `usermod -aG` counts at the next connection, without a new login).
    pub fn contains(&self, user: &LocalUser) -> bool {
        if user.gid == self.gid {
            return true;
        }
        let Ok(Some(u)) = User::from_uid(Uid::from_raw(user.uid)) else {
            return false;
        };
        if u.gid.as_raw() == self.gid {
            return true;
        }
        let Ok(name) = std::ffi::CString::new(u.name) else {
            return false;
        };
        match nix::unistd::getgrouplist(&name, u.gid) {
            Ok(gids) => gids.contains(&Gid::from_raw(self.gid)),
            Err(e) => {
                tracing::warn!(uid = user.uid, "group list lookup failed: {e}");
                false
            }
        }
    }
}

/// Who may use the Unix socket and who may approve actions there.
///
/// Root and the user the server runs as always may (a user-run server belongs to its
/// user); others need the `operators` group to connect (when one is configured; otherwise
/// the socket file's mode, 0600, admits only the server's user and root) and the
/// `approvers` group to approve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalAccess {
    pub server_uid: u32,
    pub operators: Option<NamedGroup>,
    pub approvers: Option<NamedGroup>,
}

impl LocalAccess {
    fn trusted(&self, user: &LocalUser) -> bool {
        user.is_root() || user.uid == self.server_uid
    }

    /// Whether `user` may talk to the server over the Unix socket (the socket file's
    /// permissions decide first; this holds even if they were loosened by hand).
    pub fn may_connect(&self, user: &LocalUser) -> Result<(), String> {
        if self.trusted(user) {
            return Ok(());
        }
        match &self.operators {
            Some(g) if g.contains(user) => Ok(()),
            Some(g) => Err(format!(
                "连接被拒绝：用户 {} 不在操作员组 {} 中 / access denied: user {} is not in \
                 the operators group {}",
                user.name, g.name, user.name, g.name
            )),
            None => Err(format!(
                "连接被拒绝：未配置操作员组，只有 root 和服务器用户可以连接 / access denied: no \
                 operators group is configured; only root and the server's user may connect \
                 (user {})",
                user.name
            )),
        }
    }

    /// Whether a TCP client that presented no token (tokens are not configured) may be
    /// served. Such a client has no identity: on loopback it is any user of the host. Once
    /// an operators group says who may use the server locally, only the Unix socket (where
    /// the kernel names the user) or a token lets a client in.
    pub fn may_connect_without_identity(&self, socket: Option<&Path>) -> Result<(), String> {
        let Some(g) = &self.operators else {
            return Ok(());
        };
        let via = socket.map_or_else(
            || "the Unix socket".to_string(),
            |p| p.display().to_string(),
        );
        Err(format!(
            "连接被拒绝：本服务器按 Unix 用户识别本机操作员，请通过 {via} 连接（{g} 组成员），或为 TCP \
             配置令牌 (auth_tokens) / access denied: this server knows local operators by their \
             Unix user; connect over {via} (members of {g}), or configure tokens (auth_tokens) \
             for TCP",
            g = g.name
        ))
    }

    /// Whether a TCP client that presented no token may approve actions: not once an
    /// approvers group is configured (it cannot be checked against the group).
    pub fn may_approve_without_identity(&self) -> Result<(), String> {
        match &self.approvers {
            None => Ok(()),
            Some(g) => Err(format!(
                "未经身份识别的 TCP 连接不能批准操作；请通过 Unix 套接字以 {g} 组成员或 root 身份批准 / \
                 a TCP client without a token cannot approve actions: approve over the Unix \
                 socket as a member of {g} or root",
                g = g.name
            )),
        }
    }

    /// `Ok` when `user` may approve actions; otherwise the sentence that says why not.
    pub fn may_approve(&self, user: &LocalUser) -> Result<(), String> {
        if self.trusted(user) {
            return Ok(());
        }
        match &self.approvers {
            Some(g) if g.contains(user) => Ok(()),
            Some(g) => Err(format!(
                "用户 {} 不在批准组 {} 中，不能批准操作；请让该组成员或 root 批准 / user {} is \
                 not in the approvers group {}: only its members and root can approve actions",
                user.name, g.name, user.name, g.name
            )),
            None => Err(format!(
                "未配置批准组，只有 root 和服务器用户可以批准操作 / no approvers group is \
                 configured: only root and the server's user can approve actions (user {})",
                user.name
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(uid: u32, gid: u32) -> LocalUser {
        LocalUser {
            uid,
            gid,
            pid: None,
            name: format!("u{uid}"),
        }
    }

    #[test]
    fn keys_tell_remote_addresses_loopback_and_users_apart() {
        let tcp = |s: &str| Peer::Tcp(s.parse().expect("addr"));
        assert_eq!(tcp("127.0.0.1:5").key(), PeerKey::Loopback);
        assert_eq!(tcp("127.0.0.2:5").key(), PeerKey::Loopback);
        assert_eq!(tcp("[::1]:5").key(), PeerKey::Loopback);
        assert_eq!(
            tcp("[::ffff:10.0.0.1]:5").key(),
            PeerKey::Remote("10.0.0.1".parse().expect("ip"))
        );
        assert_eq!(Peer::Unix(user(1001, 1001)).key(), PeerKey::User(1001));
        let fields = Peer::Unix(user(1001, 1001)).audit_fields();
        assert!(fields.contains(&("uid", "1001".into())));
        assert!(fields.contains(&("user", "u1001".into())));
        assert_eq!(Peer::Unix(user(7, 7)).to_string(), "unix:u7(uid=7)");
    }

    #[test]
    fn root_and_the_servers_user_may_always_connect_and_approve() {
        let access = LocalAccess {
            server_uid: 4242,
            operators: Some(NamedGroup {
                name: "ops".into(),
                gid: 90_001,
            }),
            approvers: None,
        };
        for u in [user(0, 0), user(4242, 4242)] {
            assert!(access.may_connect(&u).is_ok());
            assert!(access.may_approve(&u).is_ok());
        }
        // A stranger: not in the group (neither by its gid nor by the database).
        let stranger = user(4_000_000, 4_000_000);
        let e = access.may_connect(&stranger).expect_err("refused");
        assert!(e.contains("operators group ops"), "{e}");
        let e = access.may_approve(&stranger).expect_err("refused");
        assert!(e.contains("no approvers group"), "{e}");
        // Connected with the group's gid: a member.
        assert!(access.may_connect(&user(4_000_000, 90_001)).is_ok());
    }

    #[test]
    fn without_identity_tcp_is_served_only_while_no_group_is_configured() {
        let group = |name: &str| NamedGroup {
            name: name.into(),
            gid: 90_002,
        };
        let open = LocalAccess {
            server_uid: 4242,
            operators: None,
            approvers: None,
        };
        assert!(open.may_connect_without_identity(None).is_ok());
        assert!(open.may_approve_without_identity().is_ok());
        let closed = LocalAccess {
            operators: Some(group("ops")),
            approvers: Some(group("appr")),
            ..open
        };
        let sock = Path::new("/run/llmops/llmops.sock");
        let e = closed
            .may_connect_without_identity(Some(sock))
            .expect_err("refused");
        assert!(
            e.contains("/run/llmops/llmops.sock") && e.contains("members of ops"),
            "{e}"
        );
        let e = closed.may_approve_without_identity().expect_err("refused");
        assert!(e.contains("member of appr"), "{e}");
    }
}
