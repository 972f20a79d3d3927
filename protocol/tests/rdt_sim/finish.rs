//! Simulation: the end of a transfer when the receiver is gone right after the last ACK
//! (a client that exited while its FIN-ACK was lost): the sender stops retrying its FIN
//! soon, since every chunk was acknowledged.

use protocol::rdt::{SenderState, DEFAULT_CHUNK_SIZE};

use super::*;

#[test]
fn rdt_sim_sender_ends_soon_when_its_fin_goes_unanswered() {
    let t0 = Instant::now();
    let token = b"fin-unanswered";
    let conn = conn_id_from_token(token);
    let file = file_bytes(5, 200_000);
    let size = file.len() as u64;
    let cfg = Config::default();
    let mut tx = Sender::new(conn, size, cfg.clone(), t0).expect("sender");
    let mut rx =
        Receiver::initiate(conn, token, size, DEFAULT_CHUNK_SIZE, None, cfg, t0).expect("rx");
    let mut buf = vec![0u8; MAX_DATAGRAM];
    // No loss, no delay: packets are delivered at once, time moves by the timers.
    let mut now = t0;
    let mut fin_at: Option<Instant> = None;
    let mut done_at: Option<Instant> = None;
    for _ in 0..100_000 {
        let gone = fin_at.is_some();
        while let Some(n) = rx.poll_transmit(now, &mut buf) {
            if !gone {
                tx.handle(&buf[..n], now);
            }
        }
        while let Some(t) = tx.poll_transmit(now, &mut buf) {
            let n = match t {
                Transmit::Control { len } => len,
                Transmit::Data { seq, offset, len } => {
                    let off = offset as usize;
                    buf[DATA_HEADER_LEN..DATA_HEADER_LEN + len]
                        .copy_from_slice(&file[off..off + len]);
                    seal_data(conn, seq, len, &mut buf).expect("fits")
                }
            };
            if !gone {
                rx.handle(&buf[..n], now);
            }
        }
        if tx.state() == SenderState::Finishing && fin_at.is_none() {
            // The FIN is out; from here on the receiver has exited.
            fin_at = Some(now);
        }
        if let Some(e) = tx.poll_event() {
            assert_eq!(e, SenderEvent::Done, "all data was acknowledged");
            done_at = Some(now);
            break;
        }
        let next = [
            tx.poll_timeout(),
            rx.poll_timeout().filter(|_| fin_at.is_none()),
        ]
        .into_iter()
        .flatten()
        .min()
        .expect("a timer is pending until the sender is done");
        now = now.max(next);
        tx.handle_timeout(now);
        if fin_at.is_none() {
            rx.handle_timeout(now);
        }
    }
    let fin_at = fin_at.expect("the sender reached its FIN");
    let done = done_at.expect("the sender ended") - fin_at;
    println!("FIN unanswered: the sender ended {done:?} after its first FIN");
    // Three retries at the 100 ms minimum RTO, doubling: the last FIN at 0.7 s (the
    // client lingers 1 s after its last chunk, answering FINs), the end at 1.5 s; eight
    // retries took 11 s.
    assert!(
        done <= Duration::from_secs(2),
        "the sender kept retrying its FIN for {done:?}"
    );
}
