//! Tests of the RDT wire format: round trips of every packet (property tests), limits,
//! and rejection of corrupt or truncated datagrams.

use super::*;
use proptest::prelude::*;

fn arb_ranges(max: usize) -> impl Strategy<Value = Vec<ChunkRange>> {
    prop::collection::vec(
        (any::<u32>(), any::<u32>()).prop_map(|(s, e)| ChunkRange::new(s, e)),
        0..max,
    )
}

fn roundtrip(conn_id: u64, p: Packet<'_>) {
    let mut buf = [0u8; MAX_DATAGRAM];
    let n = p.encode(conn_id, &mut buf).expect("fits");
    assert!(n <= MAX_DATAGRAM);
    assert_eq!(peek_conn_id(&buf[..n]), Some(conn_id));
    assert_eq!(peek_type(&buf[..n]), Some(p.packet_type()));
    let (id, q) = decode(&buf[..n]).expect("decodes");
    assert_eq!(id, conn_id);
    assert_eq!(p, q);
}

proptest! {
    #[test]
    fn rdt_decode_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..1600)) {
        let _ = decode(&bytes);
        let _ = peek_conn_id(&bytes);
        let _ = peek_type(&bytes);
    }

    #[test]
    fn rdt_decode_never_panics_on_valid_header(
        ty in 0u8..10, body in prop::collection::vec(any::<u8>(), 0..300), id in any::<u64>()
    ) {
        // Random bodies behind a correct header and CRC reach the body parsers.
        let mut d = vec![0u8; HEADER_LEN + body.len()];
        d[HEADER_LEN..].copy_from_slice(&body);
        d[0] = ty;
        d[1] = VERSION;
        d[2..4].copy_from_slice(&(body.len() as u16).to_be_bytes());
        d[4..12].copy_from_slice(&id.to_be_bytes());
        let crc = checksum(&d);
        d[12..16].copy_from_slice(&crc.to_be_bytes());
        let _ = decode(&d);
    }

    #[test]
    fn rdt_request_roundtrip(
        id in any::<u64>(), push in any::<bool>(), cs in any::<u16>(), size in any::<u64>(),
        token in prop::collection::vec(any::<u8>(), 0..64), prefix in any::<u32>(),
        ranges in arb_ranges(40),
    ) {
        let mode = if push { Mode::Push } else { Mode::Pull };
        roundtrip(id, Packet::Request(Request {
            mode, chunk_size: cs, file_size: size, token: &token,
            have: Have { prefix, ranges: Ranges::List(&ranges) },
        }));
    }

    #[test]
    fn rdt_accept_roundtrip(
        id in any::<u64>(), cs in any::<u16>(), size in any::<u64>(), total in any::<u32>(),
        prefix in any::<u32>(), ranges in arb_ranges(100),
    ) {
        roundtrip(id, Packet::Accept(Accept {
            file_size: size, chunk_size: cs, total_chunks: total,
            have: Have { prefix, ranges: Ranges::List(&ranges) },
        }));
    }

    #[test]
    fn rdt_data_roundtrip(
        id in any::<u64>(), seq in any::<u32>(),
        payload in prop::collection::vec(any::<u8>(), 0..=MAX_CHUNK_SIZE as usize),
    ) {
        roundtrip(id, Packet::Data(Data { seq, payload: &payload }));
        // The zero-copy path produces the same bytes.
        let mut a = [0u8; MAX_DATAGRAM];
        let mut b = [0u8; MAX_DATAGRAM];
        let n = encode_data(id, seq, &payload, &mut a).expect("fits");
        b[DATA_HEADER_LEN..DATA_HEADER_LEN + payload.len()].copy_from_slice(&payload);
        let m = seal_data(id, seq, payload.len(), &mut b).expect("fits");
        prop_assert_eq!(&a[..n], &b[..m]);
    }

    #[test]
    fn rdt_ack_roundtrip(
        id in any::<u64>(), cum in any::<u32>(), window in any::<u32>(),
        ranges in arb_ranges(max_ack_ranges()),
    ) {
        roundtrip(id, Packet::Ack(Ack { cum, window, sacks: Ranges::List(&ranges) }));
    }

    #[test]
    fn rdt_small_packets_roundtrip(
        id in any::<u64>(), total in any::<u32>(), size in any::<u64>(), code in any::<u8>(),
    ) {
        roundtrip(id, Packet::Fin(Fin { total_chunks: total, file_size: size }));
        roundtrip(id, Packet::FinAck(FinAck { total_chunks: total }));
        roundtrip(id, Packet::Abort(AbortCode::from_u8(code)));
    }

    #[test]
    fn rdt_any_bit_flip_is_rejected(
        seq in any::<u32>(), payload in prop::collection::vec(any::<u8>(), 1..200),
        bit in any::<prop::sample::Index>(),
    ) {
        let mut buf = [0u8; MAX_DATAGRAM];
        let n = encode_data(7, seq, &payload, &mut buf).expect("fits");
        let i = bit.index(n * 8);
        buf[i / 8] ^= 1 << (i % 8);
        prop_assert!(decode(&buf[..n]).is_err());
    }
}

#[test]
fn rdt_limits_fit_datagram() {
    let ranges = vec![ChunkRange::new(1, 2); max_ack_ranges()];
    let mut buf = [0u8; 2048];
    let ack = Packet::Ack(Ack {
        cum: 0,
        window: 0,
        sacks: Ranges::List(&ranges),
    });
    assert_eq!(
        ack.encode(1, &mut buf).ok().map(|n| n <= MAX_DATAGRAM),
        Some(true)
    );
    let more = vec![ChunkRange::new(1, 2); max_ack_ranges() + 1];
    let ack = Packet::Ack(Ack {
        cum: 0,
        window: 0,
        sacks: Ranges::List(&more),
    });
    assert_eq!(ack.encode(1, &mut buf), Err(EncodeError::TooLarge));
    let token = [9u8; 100];
    let req_ranges = vec![ChunkRange::new(1, 2); max_request_ranges(token.len())];
    let req = Packet::Request(Request {
        mode: Mode::Pull,
        chunk_size: 1400,
        file_size: 5,
        token: &token,
        have: Have {
            prefix: 0,
            ranges: Ranges::List(&req_ranges),
        },
    });
    assert!(req.encode(1, &mut buf).is_ok());
    let acc_ranges = vec![ChunkRange::new(1, 2); max_accept_ranges()];
    let acc = Packet::Accept(Accept {
        file_size: 1,
        chunk_size: 1,
        total_chunks: 1,
        have: Have {
            prefix: 0,
            ranges: Ranges::List(&acc_ranges),
        },
    });
    assert!(acc.encode(1, &mut buf).is_ok());
    let payload = [0u8; MAX_CHUNK_SIZE as usize + 1];
    assert_eq!(
        encode_data(1, 0, &payload, &mut buf),
        Err(EncodeError::TooLarge)
    );
    assert!(encode_data(1, 0, &payload[1..], &mut buf).is_ok());
}

fn hex(p: Packet<'_>) -> String {
    let id = crate::rdt::conn_id_from_token(b"tok");
    let mut buf = [0u8; MAX_DATAGRAM];
    let n = p.encode(id, &mut buf).expect("fits");
    buf[..n].iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn rdt_worked_example_hex() {
    // The worked example of docs/rdt.md: token "tok", file "hello", chunk size 4.
    let none = Have::NONE;
    let got = [
        hex(Packet::Request(Request {
            mode: Mode::Pull,
            chunk_size: 4,
            file_size: 5,
            token: b"tok",
            have: none,
        })),
        hex(Packet::Accept(Accept {
            file_size: 5,
            chunk_size: 4,
            total_chunks: 2,
            have: none,
        })),
        hex(Packet::Data(Data {
            seq: 0,
            payload: b"hell",
        })),
        hex(Packet::Data(Data {
            seq: 1,
            payload: b"o",
        })),
        hex(Packet::Ack(Ack {
            cum: 0,
            window: 4096,
            sacks: Ranges::List(&[ChunkRange::new(1, 2)]),
        })),
        hex(Packet::Ack(Ack {
            cum: 2,
            window: 4096,
            sacks: Ranges::EMPTY,
        })),
        hex(Packet::Fin(Fin {
            total_chunks: 2,
            file_size: 5,
        })),
        hex(Packet::FinAck(FinAck { total_chunks: 2 })),
        hex(Packet::Abort(AbortCode::NotFound)),
    ];
    let want = [
        "01010017e47f904337931685988bb1210000000400000000000000050003746f6b000000000000",
        "02010014e47f9043379316851e83b3a10000000000000005000400000002000000000000",
        "03010008e47f904337931685e7a0da200000000068656c6c",
        "03010005e47f90433793168527ce2724000000016f",
        "04010012e47f904337931685436c21d2000000000000100000010000000100000002",
        "0401000ae47f90433793168587b6e17b00000002000010000000",
        "0501000ce47f904337931685971f8e19000000020000000000000005",
        "06010004e47f9043379316852b1bc95f00000002",
        "07010001e47f9043379316852beafcdf06",
    ];
    assert_eq!(got, want.map(String::from));
}
