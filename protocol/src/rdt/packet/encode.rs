//! RDT encoding: packets into caller buffers (no allocation), the common header and its
//! CRC32C, and DATA packets sealed in place around payload the driver already read.

use super::{
    checksum, AbortCode, Data, EncodeError, Have, Packet, PacketType, Ranges, DATA_HEADER_LEN,
    HEADER_LEN, MAX_DATAGRAM, MAX_TOKEN_LEN, VERSION,
};

impl Packet<'_> {
    /// Encodes into `out` and returns the datagram length. Fails (without panicking) when
    /// the packet would exceed [`MAX_DATAGRAM`] or `out`.
    pub fn encode(&self, conn_id: u64, out: &mut [u8]) -> Result<usize, EncodeError> {
        let cap = out.len().min(MAX_DATAGRAM);
        let out = &mut out[..cap];
        let mut w = Writer {
            buf: out,
            pos: HEADER_LEN,
        };
        match self {
            Packet::Request(r) => {
                if r.token.len() > MAX_TOKEN_LEN {
                    return Err(EncodeError::TokenTooLong);
                }
                w.u8(r.mode as u8)?;
                w.u8(0)?;
                w.u16(r.chunk_size)?;
                w.u64(r.file_size)?;
                w.u16(r.token.len() as u16)?;
                w.bytes(r.token)?;
                w.have(&r.have)?;
            }
            Packet::Accept(a) => {
                w.u64(a.file_size)?;
                w.u16(a.chunk_size)?;
                w.u32(a.total_chunks)?;
                w.have(&a.have)?;
            }
            Packet::Data(d) => {
                w.u32(d.seq)?;
                w.bytes(d.payload)?;
            }
            Packet::Ack(a) => {
                w.u32(a.cum)?;
                w.u32(a.window)?;
                w.ranges(&a.sacks)?;
            }
            Packet::Fin(f) => {
                w.u32(f.total_chunks)?;
                w.u64(f.file_size)?;
            }
            Packet::FinAck(f) => w.u32(f.total_chunks)?,
            Packet::Abort(c) => w.u8(c.to_u8())?,
        }
        let len = w.pos;
        seal(out, self.packet_type(), conn_id, len)
    }
}

/// Encodes a DATA packet by copying `payload` into `out`; returns the datagram length.
pub fn encode_data(
    conn_id: u64,
    seq: u32,
    payload: &[u8],
    out: &mut [u8],
) -> Result<usize, EncodeError> {
    Packet::Data(Data { seq, payload }).encode(conn_id, out)
}

/// Finishes a DATA packet whose `payload_len` bytes the driver already read (for example
/// straight from the file) into `buf[DATA_HEADER_LEN..]`: saves one copy per packet.
pub fn seal_data(
    conn_id: u64,
    seq: u32,
    payload_len: usize,
    buf: &mut [u8],
) -> Result<usize, EncodeError> {
    let len = DATA_HEADER_LEN + payload_len;
    if len > MAX_DATAGRAM || len > buf.len() {
        return Err(EncodeError::TooLarge);
    }
    buf[HEADER_LEN..DATA_HEADER_LEN].copy_from_slice(&seq.to_be_bytes());
    seal(buf, PacketType::Data, conn_id, len)
}

/// Encodes an ABORT; drivers use it to refuse a REQUEST for which no state machine exists.
pub fn encode_abort(conn_id: u64, code: AbortCode, out: &mut [u8]) -> Result<usize, EncodeError> {
    Packet::Abort(code).encode(conn_id, out)
}

/// Writes the common header over `buf[..HEADER_LEN]` for a datagram of `len` bytes.
fn seal(buf: &mut [u8], ty: PacketType, conn_id: u64, len: usize) -> Result<usize, EncodeError> {
    let body = len - HEADER_LEN;
    if len > MAX_DATAGRAM || len > buf.len() || body > usize::from(u16::MAX) {
        return Err(EncodeError::TooLarge);
    }
    buf[0] = ty as u8;
    buf[1] = VERSION;
    buf[2..4].copy_from_slice(&(body as u16).to_be_bytes());
    buf[4..12].copy_from_slice(&conn_id.to_be_bytes());
    let crc = checksum(&buf[..len]);
    buf[12..16].copy_from_slice(&crc.to_be_bytes());
    Ok(len)
}

struct Writer<'b> {
    buf: &'b mut [u8],
    pos: usize,
}

impl Writer<'_> {
    fn bytes(&mut self, b: &[u8]) -> Result<(), EncodeError> {
        let dst = self
            .buf
            .get_mut(self.pos..self.pos + b.len())
            .ok_or(EncodeError::TooLarge)?;
        dst.copy_from_slice(b);
        self.pos += b.len();
        Ok(())
    }
    fn u8(&mut self, v: u8) -> Result<(), EncodeError> {
        self.bytes(&[v])
    }
    fn u16(&mut self, v: u16) -> Result<(), EncodeError> {
        self.bytes(&v.to_be_bytes())
    }
    fn u32(&mut self, v: u32) -> Result<(), EncodeError> {
        self.bytes(&v.to_be_bytes())
    }
    fn u64(&mut self, v: u64) -> Result<(), EncodeError> {
        self.bytes(&v.to_be_bytes())
    }
    fn ranges(&mut self, r: &Ranges<'_>) -> Result<(), EncodeError> {
        let n = u16::try_from(r.len()).map_err(|_| EncodeError::TooLarge)?;
        self.u16(n)?;
        for c in r.iter() {
            self.u32(c.start)?;
            self.u32(c.end)?;
        }
        Ok(())
    }
    fn have(&mut self, h: &Have<'_>) -> Result<(), EncodeError> {
        self.u32(h.prefix)?;
        self.ranges(&h.ranges)
    }
}
