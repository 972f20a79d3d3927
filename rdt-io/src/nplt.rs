//! tokio-util adapter for NPLT: [`MessageCodec`] wraps `protocol::MessageCodec` (sans-IO
//! `decode`/`encode` over `BytesMut`) so `tokio_util::codec::Framed` can drive it, as
//! `tokio::net::UdpSocket` wraps the std socket. Only the trait glue lives here: framing,
//! splitting, reassembly and budgets stay in `protocol::codec`.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use bytes::BytesMut;
use protocol::{ByteBudget, EncodeError, FrameError, Inbound, Message};
use tokio_util::codec::{Decoder, Encoder};

/// `protocol::MessageCodec` as a tokio-util `Decoder`/`Encoder`; derefs to the inner codec
/// for its other methods (`set_conn_cap`, `reassembly_held`, `encode_frames`).
#[derive(Debug, Default)]
pub struct MessageCodec(pub protocol::MessageCodec);

impl MessageCodec {
    pub fn new() -> Self {
        Self::default()
    }

    /// See `protocol::MessageCodec::with_budget`.
    pub fn with_budget(budget: Arc<ByteBudget>, conn_cap: usize) -> Self {
        Self(protocol::MessageCodec::with_budget(budget, conn_cap))
    }
}

impl From<protocol::MessageCodec> for MessageCodec {
    fn from(c: protocol::MessageCodec) -> Self {
        Self(c)
    }
}

impl Deref for MessageCodec {
    type Target = protocol::MessageCodec;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl DerefMut for MessageCodec {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl Decoder for MessageCodec {
    type Item = Inbound;
    type Error = FrameError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Inbound>, FrameError> {
        self.0.decode(src)
    }
}

impl Encoder<Message> for MessageCodec {
    type Error = EncodeError;

    fn encode(&mut self, item: Message, dst: &mut BytesMut) -> Result<(), EncodeError> {
        self.0.encode(&item, dst)
    }
}

impl Encoder<&Message> for MessageCodec {
    type Error = EncodeError;

    fn encode(&mut self, item: &Message, dst: &mut BytesMut) -> Result<(), EncodeError> {
        self.0.encode(item, dst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::ChatSend;

    /// The adapter is byte-identical to the sans-IO codec in both directions.
    #[test]
    fn adapter_matches_sans_io_codec() {
        let msgs = [
            Message::ChatText("你好".into()),
            Message::Chat(ChatSend {
                request_id: 7,
                text: "CPU使用率是多少？".into(),
                file_ids: vec![],
                action: None,
            }),
            // Longer than one frame: FRAGMENT frames, reassembled by the decoder.
            Message::Chat(ChatSend {
                request_id: 8,
                text: "x".repeat(70_000),
                file_ids: vec![],
                action: None,
            }),
        ];
        let mut plain = protocol::MessageCodec::new();
        let mut framed = MessageCodec::new();
        let (mut a, mut b) = (BytesMut::new(), BytesMut::new());
        for m in &msgs {
            plain.encode(m, &mut a).expect("encodes");
            Encoder::<&Message>::encode(&mut framed, m, &mut b).expect("encodes");
        }
        assert_eq!(a, b);
        let mut got = Vec::new();
        while let Some(item) = Decoder::decode(&mut framed, &mut b).expect("decodes") {
            got.push(item);
        }
        let want: Vec<Inbound> = msgs.iter().cloned().map(Inbound::Msg).collect();
        assert!(got == want, "decoded messages differ from the encoded ones");
        assert!(b.is_empty());
    }
}
