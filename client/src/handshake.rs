//! The extension handshake without a socket: the HELLO a client opens with, and what a
//! message that arrives before WELCOME means. The connection actor and the end-to-end
//! harness's synchronous connection both go through it.

use protocol::{ErrorMsg, Hello, Message, Welcome, PROTOCOL_VERSION};

/// Messages a client accepts before WELCOME (a legacy welcome may precede ours on a slow
/// link); a peer that sends more without a WELCOME is not an llmops server.
pub const MAX_FRAMES_BEFORE_WELCOME: u32 = 8;

/// The first frame of an extension client.
pub fn hello(
    client: &str,
    client_version: &str,
    resume_session: Option<String>,
    auth_token: Option<String>,
    no_new_session: bool,
) -> Message {
    Message::Hello(Hello {
        proto: PROTOCOL_VERSION,
        client: client.to_string(),
        client_version: client_version.to_string(),
        resume_session,
        auth_token,
        udp_port: None,
        no_new_session,
    })
}

/// What a message received while waiting for WELCOME means.
#[derive(Debug, Clone, PartialEq)]
pub enum HandshakeReply {
    /// The handshake is complete.
    Welcome(Welcome),
    /// The server refused the client (bad token, unsupported version, full).
    Refused(ErrorMsg),
    /// Anything else: skipped (within [`MAX_FRAMES_BEFORE_WELCOME`]).
    Other,
}

impl From<Message> for HandshakeReply {
    fn from(m: Message) -> Self {
        match m {
            Message::Welcome(w) => HandshakeReply::Welcome(*w),
            Message::Error(e) => HandshakeReply::Refused(e),
            _ => HandshakeReply::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hello_carries_what_the_client_asked_for() {
        let m = hello("e2e", "0", Some("s1".into()), Some("tok".into()), true);
        let Message::Hello(h) = m else {
            panic!("not a HELLO: {m:?}");
        };
        assert_eq!(h.proto, PROTOCOL_VERSION);
        assert_eq!(h.client, "e2e");
        assert_eq!(h.client_version, "0");
        assert_eq!(h.resume_session.as_deref(), Some("s1"));
        assert_eq!(h.auth_token.as_deref(), Some("tok"));
        assert_eq!(h.udp_port, None);
        assert!(h.no_new_session);
    }

    #[test]
    fn replies_before_welcome_are_classified() {
        let e = ErrorMsg {
            code: "auth_failed".into(),
            message: "认证失败 / authentication failed".into(),
            request_id: None,
        };
        assert_eq!(
            HandshakeReply::from(Message::Error(e.clone())),
            HandshakeReply::Refused(e)
        );
        assert_eq!(
            HandshakeReply::from(Message::ChatText("欢迎".into())),
            HandshakeReply::Other
        );
        assert_eq!(
            HandshakeReply::from(Message::Heartbeat(protocol::Empty)),
            HandshakeReply::Other
        );
    }
}
