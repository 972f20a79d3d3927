//! NPLT frame: the 5-byte header `type u8 | seq u16 BE | len u16 BE` and its payload.

use bytes::{BufMut, Bytes, BytesMut};

/// Header size in bytes.
pub const HEADER_LEN: usize = 5;
/// Largest payload one frame can carry (the `len` field is a u16).
pub const MAX_PAYLOAD: usize = u16::MAX as usize;

/// One NPLT frame as it travels on the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub ty: u8,
    pub seq: u16,
    pub payload: Bytes,
}

#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error("frame payload of {len} bytes exceeds the limit of {max} bytes (type 0x{ty:02x})")]
    TooLarge { ty: u8, len: usize, max: usize },
    /// Fragment reassembly would exceed this connection's share or the global budget.
    #[error("reassembly over the {scope} budget of {limit} bytes")]
    OverBudget {
        scope: crate::budget::BudgetScope,
        limit: usize,
    },
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

impl Frame {
    pub fn new(ty: u8, seq: u16, payload: impl Into<Bytes>) -> Self {
        Frame {
            ty,
            seq,
            payload: payload.into(),
        }
    }

    /// Appends the wire form of this frame to `dst`.
    pub fn write_to(&self, dst: &mut BytesMut) -> Result<(), FrameError> {
        if self.payload.len() > MAX_PAYLOAD {
            return Err(FrameError::TooLarge {
                ty: self.ty,
                len: self.payload.len(),
                max: MAX_PAYLOAD,
            });
        }
        dst.reserve(HEADER_LEN + self.payload.len());
        dst.put_u8(self.ty);
        dst.put_u16(self.seq);
        // Checked above: the length fits in a u16.
        dst.put_u16(self.payload.len() as u16);
        dst.put_slice(&self.payload);
        Ok(())
    }

    /// The wire form as a standalone buffer.
    pub fn to_bytes(&self) -> Result<Bytes, FrameError> {
        let mut b = BytesMut::new();
        self.write_to(&mut b)?;
        Ok(b.freeze())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_example_from_compat_doc() {
        // `CHAT_TEXT`, seq 1, payload "你好" is `01 0001 0006 e4bda0 e5a5bd`.
        let f = Frame::new(0x01, 1, "你好".as_bytes().to_vec());
        let b = f.to_bytes().expect("small frame");
        assert_eq!(
            b.as_ref(),
            &[0x01, 0x00, 0x01, 0x00, 0x06, 0xe4, 0xbd, 0xa0, 0xe5, 0xa5, 0xbd]
        );
    }

    #[test]
    fn oversize_payload_is_refused() {
        let f = Frame::new(0x0D, 0, vec![0u8; MAX_PAYLOAD + 1]);
        assert!(matches!(f.to_bytes(), Err(FrameError::TooLarge { .. })));
    }
}
