//! RDT decoding: zero-copy, borrowing from the datagram, never panicking on any input;
//! a cheap connection-id peek for demultiplexers.

use super::{
    checksum, AbortCode, Accept, Ack, Data, DecodeError, Fin, FinAck, Have, Mode, Packet,
    PacketType, Ranges, Request, HEADER_LEN, MAX_TOKEN_LEN, RANGE_LEN, VERSION,
};

/// Reads the connection id of a datagram without checking anything else, so one UDP socket
/// can route datagrams to transfers cheaply (the state machine checks the CRC afterwards).
pub fn peek_conn_id(dgram: &[u8]) -> Option<u64> {
    let h = dgram.get(..HEADER_LEN)?;
    if h[1] != VERSION || PacketType::from_u8(h[0]).is_none() {
        return None;
    }
    Some(u64::from_be_bytes([
        h[4], h[5], h[6], h[7], h[8], h[9], h[10], h[11],
    ]))
}

/// Reads the type byte of a datagram without checking anything else (a driver telling a
/// FIN from DATA without decoding every datagram; decode the ones it cares about).
pub fn peek_type(dgram: &[u8]) -> Option<PacketType> {
    PacketType::from_u8(*dgram.first()?)
}

/// Decodes a datagram; returns the connection id and the packet, borrowing from `dgram`.
pub fn decode(dgram: &[u8]) -> Result<(u64, Packet<'_>), DecodeError> {
    let (ty, conn_id) = check_header(dgram)?;
    let mut r = Reader {
        buf: &dgram[HEADER_LEN..],
        what: "",
    };
    let pkt = r.packet(ty)?;
    if !r.buf.is_empty() {
        return Err(DecodeError::Malformed(r.what));
    }
    Ok((conn_id, pkt))
}

/// Checks the fixed header (length, version, type, body length, CRC); returns the packet
/// type and the connection id.
fn check_header(dgram: &[u8]) -> Result<(PacketType, u64), DecodeError> {
    if dgram.len() < HEADER_LEN {
        return Err(DecodeError::TooShort);
    }
    if dgram[1] != VERSION {
        return Err(DecodeError::BadVersion(dgram[1]));
    }
    let ty = PacketType::from_u8(dgram[0]).ok_or(DecodeError::UnknownType(dgram[0]))?;
    let body_len = usize::from(u16::from_be_bytes([dgram[2], dgram[3]]));
    if HEADER_LEN + body_len != dgram.len() {
        return Err(DecodeError::BadLength);
    }
    let crc = u32::from_be_bytes([dgram[12], dgram[13], dgram[14], dgram[15]]);
    if checksum(dgram) != crc {
        return Err(DecodeError::BadChecksum);
    }
    let mut id = [0u8; 8];
    id.copy_from_slice(&dgram[4..12]);
    Ok((ty, u64::from_be_bytes(id)))
}

struct Reader<'a> {
    buf: &'a [u8],
    what: &'static str,
}

impl<'a> Reader<'a> {
    /// The body of a packet of type `ty`; `what` names it for `Malformed`.
    fn packet(&mut self, ty: PacketType) -> Result<Packet<'a>, DecodeError> {
        Ok(match ty {
            PacketType::Request => {
                self.what = "REQUEST";
                Packet::Request(self.request()?)
            }
            PacketType::Accept => {
                self.what = "ACCEPT";
                let file_size = self.u64()?;
                let chunk_size = self.u16()?;
                let total_chunks = self.u32()?;
                let have = self.have()?;
                Packet::Accept(Accept {
                    file_size,
                    chunk_size,
                    total_chunks,
                    have,
                })
            }
            PacketType::Data => {
                self.what = "DATA";
                let seq = self.u32()?;
                let payload = self.take(self.buf.len())?;
                Packet::Data(Data { seq, payload })
            }
            PacketType::Ack => {
                self.what = "ACK";
                let cum = self.u32()?;
                let window = self.u32()?;
                let sacks = self.ranges()?;
                Packet::Ack(Ack { cum, window, sacks })
            }
            PacketType::Fin => {
                self.what = "FIN";
                let total_chunks = self.u32()?;
                let file_size = self.u64()?;
                Packet::Fin(Fin {
                    total_chunks,
                    file_size,
                })
            }
            PacketType::FinAck => {
                self.what = "FIN-ACK";
                Packet::FinAck(FinAck {
                    total_chunks: self.u32()?,
                })
            }
            PacketType::Abort => {
                self.what = "ABORT";
                Packet::Abort(AbortCode::from_u8(self.u8()?))
            }
        })
    }
    /// REQUEST's body: mode, sizes, token and the resume bitmap.
    fn request(&mut self) -> Result<Request<'a>, DecodeError> {
        let mode = match self.u8()? {
            0 => Mode::Pull,
            1 => Mode::Push,
            _ => return Err(DecodeError::Malformed("REQUEST")),
        };
        let _reserved = self.u8()?;
        let chunk_size = self.u16()?;
        let file_size = self.u64()?;
        let token_len = usize::from(self.u16()?);
        if token_len > MAX_TOKEN_LEN {
            return Err(DecodeError::Malformed("REQUEST"));
        }
        let token = self.take(token_len)?;
        let have = self.have()?;
        Ok(Request {
            mode,
            chunk_size,
            file_size,
            token,
            have,
        })
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if self.buf.len() < n {
            return Err(DecodeError::Malformed(self.what));
        }
        let (head, tail) = self.buf.split_at(n);
        self.buf = tail;
        Ok(head)
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }
    fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.array::<1>()?[0])
    }
    fn u16(&mut self) -> Result<u16, DecodeError> {
        Ok(u16::from_be_bytes(self.array()?))
    }
    fn u32(&mut self) -> Result<u32, DecodeError> {
        Ok(u32::from_be_bytes(self.array()?))
    }
    fn u64(&mut self) -> Result<u64, DecodeError> {
        Ok(u64::from_be_bytes(self.array()?))
    }
    fn ranges(&mut self) -> Result<Ranges<'a>, DecodeError> {
        let n = usize::from(self.u16()?);
        Ok(Ranges::Wire(self.take(n * RANGE_LEN)?))
    }
    fn have(&mut self) -> Result<Have<'a>, DecodeError> {
        let prefix = self.u32()?;
        let ranges = self.ranges()?;
        Ok(Have { prefix, ranges })
    }
}
