//! Sans-IO codecs over `BytesMut`: `NpltCodec` for raw frames and `MessageCodec` for typed
//! messages (sequence numbering, splitting of large messages, reassembly with a size cap).
//! Decoding never panics and never allocates a frame's claimed length before the bytes
//! arrive. The tokio-util `Framed` adapter lives in the `rdt-io` crate (`rdt_io::nplt`).

use std::collections::VecDeque;
use std::sync::Arc;

use bytes::{Buf, Bytes, BytesMut};

use crate::budget::{BudgetScope, ByteBudget};
use crate::frame::{Frame, FrameError, HEADER_LEN, MAX_PAYLOAD};
use crate::msg::{DecodeError, EncodeError, Message, MsgType, FRAGMENT_TYPE, MAX_MESSAGE_BYTES};

/// Frame-level codec. `max_payload` lets a caller refuse large frames (for example before a
/// peer has authenticated); a refused frame is an error before any of its payload is
/// buffered.
#[derive(Debug, Clone)]
pub struct NpltCodec {
    max_payload: usize,
    next_seq: u16,
}

impl Default for NpltCodec {
    fn default() -> Self {
        NpltCodec {
            max_payload: MAX_PAYLOAD,
            next_seq: 0,
        }
    }
}

impl NpltCodec {
    pub fn with_max_payload(max_payload: usize) -> Self {
        NpltCodec {
            max_payload: max_payload.min(MAX_PAYLOAD),
            next_seq: 0,
        }
    }

    /// The seq the next encoded frame will carry.
    pub fn next_seq(&mut self) -> u16 {
        let s = self.next_seq;
        self.next_seq = self.next_seq.wrapping_add(1);
        s
    }
}

impl NpltCodec {
    /// Takes one whole frame off the front of `src`; `None` until it has fully arrived.
    pub fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Frame>, FrameError> {
        if src.len() < HEADER_LEN {
            return Ok(None);
        }
        let ty = src[0];
        let seq = u16::from_be_bytes([src[1], src[2]]);
        let len = u16::from_be_bytes([src[3], src[4]]) as usize;
        if len > self.max_payload {
            return Err(FrameError::TooLarge {
                ty,
                len,
                max: self.max_payload,
            });
        }
        if src.len() < HEADER_LEN + len {
            // Deliberately no `reserve(len)`: a peer announcing 64 KiB and sending nothing
            // must not make us allocate it.
            return Ok(None);
        }
        src.advance(HEADER_LEN);
        let payload = src.split_to(len).freeze();
        Ok(Some(Frame { ty, seq, payload }))
    }
}

impl NpltCodec {
    /// Appends `item` to `dst` as it is (the caller chose its seq).
    pub fn encode(&mut self, item: Frame, dst: &mut BytesMut) -> Result<(), FrameError> {
        item.write_to(dst)
    }
}

/// What the message decoder yields. A bad message is an item, not an error, so one broken
/// frame never tears down the connection: the caller answers it and carries on.
// Nearly every item is `Msg`: boxing it would allocate once per decoded frame to shrink the
// rare `Bad`.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Inbound {
    Msg(Message),
    Bad { ty: u8, error: DecodeError },
}

#[derive(Debug)]
struct Reassembly {
    ty: u8,
    buf: Vec<u8>,
    /// Bytes seen in total, also after we stopped keeping them (over the cap).
    seen: usize,
    /// Capacity of `buf` taken from the shared budget, given back on drop.
    reserved: usize,
    budget: Option<Arc<ByteBudget>>,
}

impl Reassembly {
    /// Makes room for `n` more kept bytes within `cap` and the shared budget. On refusal
    /// nothing is allocated.
    fn grow(&mut self, n: usize, cap: usize) -> Result<(), FrameError> {
        let need = self.buf.len() + n;
        if need > cap {
            return Err(FrameError::OverBudget {
                scope: BudgetScope::Connection,
                limit: cap,
            });
        }
        if need <= self.buf.capacity() {
            return Ok(());
        }
        // Doubling like Vec does, but never past the cap, and accounted before allocating.
        let target = need.max(self.buf.capacity().saturating_mul(2).min(cap));
        let extra = target.saturating_sub(self.reserved);
        if let Some(b) = &self.budget {
            if !b.try_reserve(extra) {
                return Err(FrameError::OverBudget {
                    scope: BudgetScope::Global,
                    limit: b.limit(),
                });
            }
        }
        self.reserved += extra;
        self.buf.reserve_exact(target - self.buf.len());
        Ok(())
    }

    /// Drops the kept bytes (the message went over the size cap) and returns their budget.
    fn forget_bytes(&mut self) {
        self.buf = Vec::new();
        self.give_back();
    }

    fn give_back(&mut self) {
        if let Some(b) = &self.budget {
            b.release(self.reserved);
        }
        self.reserved = 0;
    }
}

impl Drop for Reassembly {
    fn drop(&mut self) {
        self.give_back();
    }
}

/// Default per-connection reassembly share: one maximal message.
const DEFAULT_CONN_CAP: usize = MAX_MESSAGE_BYTES;

/// Message-level codec over NPLT frames.
///
/// Encoding: each frame gets the next seq. A payload longer than one frame is split:
/// legacy `CHAT_TEXT` into several whole-text frames at UTF-8 boundaries (what a legacy
/// client can show), raw data into consecutive data frames, and extension JSON into
/// `FRAGMENT` frames (`inner type u8 + bytes`) closed by a frame of the inner type carrying
/// the last piece. Decoding reassembles fragments up to `MAX_MESSAGE_BYTES`.
#[derive(Debug)]
pub struct MessageCodec {
    frames: NpltCodec,
    partial: Option<Reassembly>,
    queued: VecDeque<Inbound>,
    /// Most bytes this connection may hold for reassembly; beyond: `FrameError::OverBudget`.
    conn_cap: usize,
    budget: Option<Arc<ByteBudget>>,
}

impl Default for MessageCodec {
    fn default() -> Self {
        MessageCodec {
            frames: NpltCodec::default(),
            partial: None,
            queued: VecDeque::new(),
            conn_cap: DEFAULT_CONN_CAP,
            budget: None,
        }
    }
}

impl MessageCodec {
    pub fn new() -> Self {
        Self::default()
    }

    /// A codec whose reassembly holds at most `conn_cap` bytes and reserves them from the
    /// shared `budget` first. Going over either is a hard `FrameError::OverBudget`.
    pub fn with_budget(budget: Arc<ByteBudget>, conn_cap: usize) -> Self {
        MessageCodec {
            conn_cap,
            budget: Some(budget),
            ..Self::default()
        }
    }

    /// Changes this connection's share (e.g. raised once the peer authenticated). Bytes
    /// already kept count against the new cap from the next fragment on.
    pub fn set_conn_cap(&mut self, conn_cap: usize) {
        self.conn_cap = conn_cap;
    }

    /// Bytes currently kept for a message being reassembled.
    pub fn reassembly_held(&self) -> usize {
        self.partial.as_ref().map_or(0, |p| p.buf.len())
    }

    /// Encodes one message into complete frames (what `encode` writes, for tests and tools).
    pub fn encode_frames(&mut self, msg: &Message) -> Result<Vec<Frame>, EncodeError> {
        let ty = msg.msg_type();
        let payload = msg.encode_payload()?;
        let code = ty.code();
        if payload.len() <= MAX_PAYLOAD {
            return Ok(vec![Frame::new(code, self.frames.next_seq(), payload)]);
        }
        let mut out = Vec::new();
        match msg {
            Message::ChatText(text) => {
                for piece in split_utf8(text, MAX_PAYLOAD) {
                    out.push(Frame::new(
                        code,
                        self.frames.next_seq(),
                        Bytes::copy_from_slice(piece.as_bytes()),
                    ));
                }
            }
            Message::FileData(_) | Message::UploadData(_) | Message::TransferData(_) => {
                let mut rest = payload;
                while !rest.is_empty() {
                    let n = rest.len().min(MAX_PAYLOAD);
                    out.push(Frame::new(code, self.frames.next_seq(), rest.split_to(n)));
                }
            }
            _ if ty.is_legacy() => {
                return Err(EncodeError::LegacyTooLarge {
                    name: ty.wire_name(),
                    len: payload.len(),
                })
            }
            _ => {
                if payload.len() > MAX_MESSAGE_BYTES {
                    return Err(EncodeError::TooLarge {
                        len: payload.len(),
                        max: MAX_MESSAGE_BYTES,
                    });
                }
                // Fragment frames carry one byte of inner type, so MAX_PAYLOAD - 1 of data.
                let mut rest = payload;
                while rest.len() > MAX_PAYLOAD {
                    let piece = rest.split_to(MAX_PAYLOAD - 1);
                    let mut p = BytesMut::with_capacity(MAX_PAYLOAD);
                    p.extend_from_slice(&[code]);
                    p.extend_from_slice(&piece);
                    out.push(Frame::new(
                        FRAGMENT_TYPE,
                        self.frames.next_seq(),
                        p.freeze(),
                    ));
                }
                out.push(Frame::new(code, self.frames.next_seq(), rest));
            }
        }
        Ok(out)
    }

    fn on_frame(&mut self, f: Frame) -> Result<(), FrameError> {
        if f.ty == FRAGMENT_TYPE {
            return self.on_fragment(&f.payload);
        }
        let item = self.on_last(f);
        self.queued.push_back(item);
        Ok(())
    }

    /// A `FRAGMENT` frame: checks its inner type and adds its bytes to the reassembly.
    /// Refused fragments are queued as `Inbound::Bad`; only going over budget is an error.
    fn on_fragment(&mut self, payload: &[u8]) -> Result<(), FrameError> {
        let Some((&inner, data)) = payload.split_first() else {
            self.queued.push_back(Inbound::Bad {
                ty: FRAGMENT_TYPE,
                error: DecodeError::BadFragment("empty fragment".into()),
            });
            return Ok(());
        };
        let valid_inner = MsgType::from_code(inner).is_some_and(|t| !t.is_legacy());
        if !valid_inner {
            self.queued.push_back(Inbound::Bad {
                ty: inner,
                error: DecodeError::BadFragment(format!("type 0x{inner:02x} cannot be fragmented")),
            });
            return Ok(());
        }
        if let Some(p) = &self.partial {
            if p.ty != inner {
                let old = p.ty;
                self.partial = None;
                self.queued.push_back(Inbound::Bad {
                    ty: old,
                    error: DecodeError::BadFragment(format!(
                        "fragments of 0x{old:02x} interrupted by 0x{inner:02x}"
                    )),
                });
            }
        }
        let budget = self.budget.clone();
        let p = self.partial.get_or_insert_with(|| Reassembly {
            ty: inner,
            buf: Vec::new(),
            seen: 0,
            reserved: 0,
            budget,
        });
        p.seen += data.len();
        // Past the cap we stop keeping bytes but keep counting, and report at the end.
        if p.seen <= MAX_MESSAGE_BYTES {
            if let Err(e) = p.grow(data.len(), self.conn_cap) {
                self.partial = None;
                return Err(e);
            }
            p.buf.extend_from_slice(data);
        } else {
            p.forget_bytes();
        }
        Ok(())
    }

    /// A non-fragment frame: a whole message, or the last piece of the one being
    /// reassembled. An unclosed reassembly of another type is reported and dropped.
    fn on_last(&mut self, f: Frame) -> Inbound {
        match self.partial.take() {
            Some(mut p) if p.ty == f.ty => {
                let total = p.seen + f.payload.len();
                if total > MAX_MESSAGE_BYTES {
                    Inbound::Bad {
                        ty: f.ty,
                        error: DecodeError::TooLarge {
                            len: total,
                            max: MAX_MESSAGE_BYTES,
                        },
                    }
                } else {
                    let mut buf = std::mem::take(&mut p.buf);
                    drop(p);
                    buf.extend_from_slice(&f.payload);
                    decode_item(f.ty, &buf)
                }
            }
            Some(p) => {
                self.queued.push_back(Inbound::Bad {
                    ty: p.ty,
                    error: DecodeError::BadFragment(format!(
                        "fragments of 0x{:02x} not closed before 0x{:02x}",
                        p.ty, f.ty
                    )),
                });
                decode_item(f.ty, &f.payload)
            }
            None => decode_item(f.ty, &f.payload),
        }
    }
}

fn decode_item(ty: u8, payload: &[u8]) -> Inbound {
    match Message::decode(ty, payload) {
        Ok(m) => Inbound::Msg(m),
        Err(error) => Inbound::Bad { ty, error },
    }
}

/// Splits `s` into pieces of at most `max` bytes without cutting a UTF-8 sequence.
pub fn split_utf8(s: &str, max: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s;
    while rest.len() > max {
        let mut cut = max;
        while cut > 0 && !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        // A char is at most 4 bytes, so with max >= 4 cut is never 0.
        if cut == 0 {
            cut = rest.char_indices().nth(1).map_or(rest.len(), |(i, _)| i);
        }
        let (a, b) = rest.split_at(cut);
        out.push(a);
        rest = b;
    }
    if !rest.is_empty() || out.is_empty() {
        out.push(rest);
    }
    out
}

impl MessageCodec {
    /// Takes the next message off the front of `src` (reassembling fragments); `None` until
    /// one is complete. A malformed message is `Inbound::Bad`, not an error.
    pub fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Inbound>, FrameError> {
        loop {
            if let Some(item) = self.queued.pop_front() {
                return Ok(Some(item));
            }
            match self.frames.decode(src)? {
                Some(f) => self.on_frame(f)?,
                None => return Ok(None),
            }
        }
    }
}

impl MessageCodec {
    /// Appends `item` to `dst` as one or more frames (see the type's doc on splitting).
    pub fn encode(&mut self, item: &Message, dst: &mut BytesMut) -> Result<(), EncodeError> {
        for f in self.encode_frames(item)? {
            f.write_to(dst).map_err(|e| match e {
                FrameError::Io(io) => EncodeError::Io(io),
                other => EncodeError::Json(other.to_string()),
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::*;
    use proptest::prelude::*;

    fn encode_all(msgs: &[Message]) -> BytesMut {
        let mut c = MessageCodec::new();
        let mut out = BytesMut::new();
        for m in msgs {
            c.encode(m, &mut out).expect("encodes");
        }
        out
    }

    fn decode_all(mut bytes: BytesMut) -> Vec<Inbound> {
        let mut c = MessageCodec::new();
        let mut out = Vec::new();
        while let Some(i) = c.decode(&mut bytes).expect("no frame error") {
            out.push(i);
        }
        assert!(bytes.is_empty());
        out
    }

    #[test]
    fn partial_header_and_payload_return_none() {
        let mut c = NpltCodec::default();
        let mut b = BytesMut::from(&[0x01u8, 0x00][..]);
        assert!(c.decode(&mut b).expect("ok").is_none());
        // 65535-byte length with no payload: waits, and did not reserve the claimed length.
        let mut b = BytesMut::from(&[0x01u8, 0x00, 0x00, 0xff, 0xff][..]);
        let cap_before = b.capacity();
        assert!(c.decode(&mut b).expect("ok").is_none());
        assert_eq!(b.capacity(), cap_before);
    }

    #[test]
    fn max_payload_refuses_before_buffering() {
        let mut c = NpltCodec::with_max_payload(16);
        let mut b = BytesMut::from(&[0x01u8, 0x00, 0x00, 0x00, 0x20][..]);
        assert!(matches!(
            c.decode(&mut b),
            Err(FrameError::TooLarge { len: 32, .. })
        ));
    }

    #[test]
    fn seq_counts_from_zero_and_wraps() {
        let mut c = MessageCodec::new();
        c.frames.next_seq = u16::MAX;
        let f1 = c
            .encode_frames(&Message::ChatText("a".into()))
            .expect("encodes");
        let f2 = c
            .encode_frames(&Message::ChatText("b".into()))
            .expect("encodes");
        assert_eq!((f1[0].seq, f2[0].seq), (u16::MAX, 0));
    }

    #[test]
    fn large_json_message_is_fragmented_and_reassembled() {
        let text = "日志".repeat(100_000); // 600 KB of UTF-8
        let m = Message::StreamDelta(StreamDelta {
            request_id: 7,
            text,
        });
        let mut c = MessageCodec::new();
        let frames = c.encode_frames(&m).expect("encodes");
        assert!(frames.len() > 9);
        assert!(frames[..frames.len() - 1]
            .iter()
            .all(|f| f.ty == FRAGMENT_TYPE));
        assert_eq!(
            decode_all(encode_all(std::slice::from_ref(&m))),
            vec![Inbound::Msg(m)]
        );
    }

    #[test]
    fn large_legacy_text_becomes_several_whole_frames() {
        let text = "好".repeat(30_000); // 90 KB
        let frames = MessageCodec::new()
            .encode_frames(&Message::ChatText(text.clone()))
            .expect("encodes");
        assert_eq!(frames.len(), 2);
        let joined: String = frames
            .iter()
            .map(|f| std::str::from_utf8(&f.payload).expect("utf8 boundary kept"))
            .collect();
        assert_eq!(joined, text);
    }

    #[test]
    fn oversize_json_is_refused_both_ways() {
        let m = Message::StreamDelta(StreamDelta {
            request_id: 1,
            text: "x".repeat(MAX_MESSAGE_BYTES + 10),
        });
        assert!(matches!(
            MessageCodec::new().encode_frames(&m),
            Err(EncodeError::TooLarge { .. })
        ));
        // A peer that streams fragments past the cap gets one Bad item, not an OOM.
        let mut bytes = BytesMut::new();
        let piece = vec![b'x'; MAX_PAYLOAD - 1];
        let n = MAX_MESSAGE_BYTES / piece.len() + 2;
        for i in 0..n {
            let mut p = vec![0x26u8];
            p.extend_from_slice(&piece);
            Frame::new(FRAGMENT_TYPE, i as u16, p)
                .write_to(&mut bytes)
                .expect("fits");
        }
        Frame::new(0x26, 0, b"{}".to_vec())
            .write_to(&mut bytes)
            .expect("fits");
        let items = decode_all(bytes);
        assert_eq!(items.len(), 1);
        assert!(matches!(
            items[0],
            Inbound::Bad {
                error: DecodeError::TooLarge { .. },
                ..
            }
        ));
    }

    #[test]
    fn garbage_yields_bad_items_and_the_stream_continues() {
        let mut bytes = BytesMut::new();
        Frame::new(0x99, 0, b"??".to_vec())
            .write_to(&mut bytes)
            .expect("fits");
        Frame::new(0x24, 1, b"{broken".to_vec())
            .write_to(&mut bytes)
            .expect("fits");
        Frame::new(FRAGMENT_TYPE, 2, Vec::new())
            .write_to(&mut bytes)
            .expect("fits");
        Frame::new(FRAGMENT_TYPE, 3, vec![0x01, b'a'])
            .write_to(&mut bytes)
            .expect("fits");
        bytes.extend_from_slice(&encode_all(&[Message::ChatText("ok".into())]));
        let items = decode_all(bytes);
        assert_eq!(items.len(), 5);
        assert!(items[..4].iter().all(|i| matches!(i, Inbound::Bad { .. })));
        assert_eq!(items[4], Inbound::Msg(Message::ChatText("ok".into())));
    }

    #[test]
    fn interrupted_fragments_are_reported_and_the_new_message_kept() {
        let mut bytes = BytesMut::new();
        Frame::new(FRAGMENT_TYPE, 0, vec![0x26, b'{'])
            .write_to(&mut bytes)
            .expect("fits");
        bytes.extend_from_slice(&encode_all(&[Message::Heartbeat(Empty)]));
        let items = decode_all(bytes);
        assert!(matches!(items[0], Inbound::Bad { ty: 0x26, .. }));
        assert_eq!(items[1], Inbound::Msg(Message::Heartbeat(Empty)));
    }

    fn fragment_bytes(n: usize) -> BytesMut {
        // `7f seq ffff 26` + 65,534 bytes, never the closing frame.
        let mut bytes = BytesMut::new();
        for i in 0..n {
            let mut p = vec![0x26u8];
            p.extend_from_slice(&vec![b'x'; MAX_PAYLOAD - 1]);
            Frame::new(FRAGMENT_TYPE, i as u16, p)
                .write_to(&mut bytes)
                .expect("fits");
        }
        bytes
    }

    #[test]
    fn connection_share_stops_fragments_before_keeping_them() {
        let budget = ByteBudget::new(64 << 20);
        let mut c = MessageCodec::with_budget(budget.clone(), 64 * 1024);
        let mut bytes = fragment_bytes(3);
        let err = c
            .decode(&mut bytes)
            .expect_err("the second fragment must be refused");
        assert!(matches!(
            err,
            FrameError::OverBudget {
                scope: BudgetScope::Connection,
                limit: 65536
            }
        ));
        assert_eq!(c.reassembly_held(), 0);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn global_budget_is_shared_and_returned_on_drop() {
        let budget = ByteBudget::new(100 * 1024);
        let mut a = MessageCodec::with_budget(budget.clone(), MAX_MESSAGE_BYTES);
        let mut b = MessageCodec::with_budget(budget.clone(), MAX_MESSAGE_BYTES);
        assert!(a.decode(&mut fragment_bytes(1)).expect("fits").is_none());
        assert_eq!(a.reassembly_held(), MAX_PAYLOAD - 1);
        assert!(budget.used() >= MAX_PAYLOAD - 1);
        assert!(matches!(
            b.decode(&mut fragment_bytes(1)),
            Err(FrameError::OverBudget {
                scope: BudgetScope::Global,
                ..
            })
        ));
        drop(a);
        assert_eq!(budget.used(), 0);
        let mut b = MessageCodec::with_budget(budget.clone(), MAX_MESSAGE_BYTES);
        assert!(b.decode(&mut fragment_bytes(1)).expect("fits").is_none());
    }

    #[test]
    fn budgeted_codec_reassembles_and_gives_the_budget_back() {
        let budget = ByteBudget::new(64 << 20);
        let m = Message::StreamDelta(StreamDelta {
            request_id: 3,
            text: "日志".repeat(100_000),
        });
        let mut bytes = encode_all(std::slice::from_ref(&m));
        let mut c = MessageCodec::with_budget(budget.clone(), MAX_MESSAGE_BYTES);
        assert_eq!(
            c.decode(&mut bytes).expect("within budget"),
            Some(Inbound::Msg(m))
        );
        assert_eq!(budget.used(), 0);
        // Raising the share later (after HELLO) lets a big message through.
        let mut c = MessageCodec::with_budget(budget.clone(), 64 * 1024);
        c.set_conn_cap(MAX_MESSAGE_BYTES);
        let mut bytes = fragment_bytes(4);
        assert!(c.decode(&mut bytes).expect("fits").is_none());
        assert_eq!(c.reassembly_held(), 4 * (MAX_PAYLOAD - 1));
    }

    #[test]
    fn split_utf8_never_cuts_a_char() {
        for max in 1..10 {
            let s = "a好😀b";
            let parts = split_utf8(s, max);
            assert_eq!(parts.concat(), s);
        }
        assert_eq!(split_utf8("", 4), vec![""]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..2048)) {
            let mut c = MessageCodec::new();
            let mut b = BytesMut::from(&data[..]);
            while let Ok(Some(_)) = c.decode(&mut b) {}
            let mut c = NpltCodec::with_max_payload(100);
            let mut b = BytesMut::from(&data[..]);
            while let Ok(Some(_)) = c.decode(&mut b) {}
        }
    }

    #[test]
    fn same_messages_at_any_split_point() {
        let strategy = || {
            (
                proptest::collection::vec(any::<Message>(), 1..6),
                any::<u64>(),
            )
        };
        crate::big_stack::check(200, strategy, |(msgs, cut_seed)| {
            split_point_property(&msgs, cut_seed)
        });
    }

    fn split_point_property(
        msgs: &[Message],
        cut_seed: u64,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let whole = encode_all(msgs);
        let expected = decode_all(whole.clone());
        // Feed the stream in two pieces cut at an arbitrary index, then byte by byte.
        let cut = (cut_seed % (whole.len() as u64 + 1)) as usize;
        let mut c = MessageCodec::new();
        let mut buf = BytesMut::new();
        let mut got = Vec::new();
        for piece in [&whole[..cut], &whole[cut..]] {
            buf.extend_from_slice(piece);
            while let Some(i) = c.decode(&mut buf).expect("ok") {
                got.push(i);
            }
        }
        prop_assert_eq!(&got, &expected);
        let mut c = MessageCodec::new();
        let mut got = Vec::new();
        for byte in whole.iter() {
            buf.extend_from_slice(&[*byte]);
            while let Some(i) = c.decode(&mut buf).expect("ok") {
                got.push(i);
            }
        }
        prop_assert_eq!(&got, &expected);
        // Every message survives the trip (data frames split by size reassemble by type).
        prop_assert_eq!(expected.len(), msgs.len());
        for (i, m) in expected.iter().zip(msgs) {
            prop_assert_eq!(i, &Inbound::Msg(m.clone()));
        }
        Ok(())
    }
}
