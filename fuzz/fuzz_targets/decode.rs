//! Fuzz target: the NPLT message decoder must never panic on any byte sequence, whole or
//! fed in two pieces.
#![no_main]

use bytes::BytesMut;
use libfuzzer_sys::fuzz_target;
use protocol::{MessageCodec, NpltCodec};

fuzz_target!(|data: &[u8]| {
    let cut = data.first().map_or(0, |b| *b as usize % (data.len() + 1));
    let mut c = MessageCodec::new();
    let mut buf = BytesMut::new();
    for piece in [&data[..cut], &data[cut..]] {
        buf.extend_from_slice(piece);
        while let Ok(Some(_)) = c.decode(&mut buf) {}
    }
    let mut f = NpltCodec::with_max_payload(1024);
    let mut buf = BytesMut::from(data);
    while let Ok(Some(_)) = f.decode(&mut buf) {}
});
