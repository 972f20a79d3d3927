//! The drivers end to end over real loopback sockets: a pull transfer (the receiver
//! initiates, as the client does for a download) of a seeded pseudo-random file through
//! `send_file` / `receive_file`, GSO sends and `recvmmsg` receives included.

#![cfg(target_os = "linux")]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use protocol::rdt::{conn_id_from_token, Config, Receiver, Sender, DEFAULT_CHUNK_SIZE};
use rdt_io::{grow_buffers, receive_file, send_file, Inbox, Link, RecvOptions};
use tokio::net::UdpSocket;
use tokio_util::sync::CancellationToken;

/// Deterministic bytes (xorshift64), so a failure reproduces exactly.
fn seeded_bytes(len: usize, mut seed: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        out.extend_from_slice(&seed.to_le_bytes());
    }
    out.truncate(len);
    out
}

/// Two loopback UDP sockets connected to each other.
async fn connected_sockets() -> (UdpSocket, UdpSocket) {
    let any: SocketAddr = "127.0.0.1:0".parse().expect("valid address");
    let a = UdpSocket::bind(any).await.expect("bind a");
    let b = UdpSocket::bind(any).await.expect("bind b");
    a.connect(b.local_addr().expect("addr b"))
        .await
        .expect("connect a");
    b.connect(a.local_addr().expect("addr a"))
        .await
        .expect("connect b");
    (a, b)
}

async fn connected_pair() -> (Link, Link) {
    let (a, b) = connected_sockets().await;
    grow_buffers(&a);
    grow_buffers(&b);
    let link = |s: UdpSocket| Link {
        socket: Arc::new(s),
        peer: None,
        inbox: Inbox::Socket,
    };
    (link(a), link(b))
}

#[tokio::test]
async fn pull_transfer_over_loopback_is_byte_exact() {
    // Not a multiple of the chunk size: the last chunk is short.
    let data = seeded_bytes(3 * 1024 * 1024 + 777, 0x5eed);
    let size = data.len() as u64;
    let dir = tempfile::tempdir().expect("temp dir");
    let src_path = dir.path().join("src.bin");
    let dst_path = dir.path().join("dst.bin");
    std::fs::write(&src_path, &data).expect("write source");
    let src = std::fs::File::open(&src_path).expect("open source");
    let dst = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&dst_path)
        .expect("open destination");
    dst.set_len(size).expect("size destination");

    let token = b"loopback-test-token";
    let conn = conn_id_from_token(token);
    let (mut rx_link, mut tx_link) = connected_pair().await;
    let now = Instant::now();
    let mut rx = Receiver::initiate(
        conn,
        token,
        size,
        DEFAULT_CHUNK_SIZE,
        None,
        Config::default(),
        now,
    )
    .expect("receiver");
    let mut tx = Sender::new(conn, size, Config::default(), now).expect("sender");
    let cancel = CancellationToken::new();
    let opts = RecvOptions {
        handshake_timeout: Some(Duration::from_secs(10)),
        fin_linger: Duration::from_millis(200),
        tick: Duration::from_millis(100),
    };
    let mut prefix_seen: Vec<u8> = Vec::with_capacity(data.len());
    let mut prefix = |d: &[u8]| {
        prefix_seen.extend_from_slice(d);
        Ok(())
    };
    let mut tick = |_: &Receiver| {};
    let mut progress = |_: &protocol::rdt::SenderStats| {};
    let (got, sent) = tokio::join!(
        receive_file(
            &mut rx_link,
            &mut rx,
            conn,
            &dst,
            &cancel,
            &opts,
            &mut prefix,
            &mut tick,
        ),
        send_file(
            &mut tx_link,
            &mut tx,
            conn,
            &src,
            &cancel,
            None,
            Duration::from_millis(100),
            &mut progress,
        ),
    );
    got.expect("received");
    sent.expect("sent");
    assert_eq!(tx.stats().bytes_acked, size);
    let on_disk = std::fs::read(&dst_path).expect("read destination");
    assert!(on_disk == data, "file on disk differs from the source");
    assert!(
        prefix_seen == data,
        "prefix hook did not see the file once, in order"
    );
}

#[tokio::test]
async fn the_receiver_sends_its_fin_ack_three_times_on_the_way_out() {
    // A scripted sender on a bare socket: ACCEPT, three chunks, FIN once the receiver's
    // ACK covers them; then every datagram the receiver sends is counted. Nobody answers a
    // sender's FIN once the receiver is gone, so one lost FIN-ACK kept the server's
    // transfer open through all its FIN retries.
    use protocol::rdt::packet::{Accept, Fin, Have};
    use protocol::rdt::{decode, seal_data, Packet, DATA_HEADER_LEN, MAX_DATAGRAM};

    let chunk = DEFAULT_CHUNK_SIZE as usize;
    let data = seeded_bytes(2 * chunk + 200, 0xf1a);
    let size = data.len() as u64;
    let dir = tempfile::tempdir().expect("temp dir");
    let dst_path = dir.path().join("dst.bin");
    let dst = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&dst_path)
        .expect("open destination");
    dst.set_len(size).expect("size destination");

    let (a, peer) = connected_sockets().await;
    let mut rx_link = Link {
        socket: Arc::new(a),
        peer: None,
        inbox: Inbox::Socket,
    };
    let token = b"fin-ack-test-token";
    let conn = conn_id_from_token(token);
    let mut rx = Receiver::initiate(
        conn,
        token,
        size,
        DEFAULT_CHUNK_SIZE,
        None,
        Config::default(),
        Instant::now(),
    )
    .expect("receiver");
    let cancel = CancellationToken::new();
    let opts = RecvOptions {
        handshake_timeout: Some(Duration::from_secs(10)),
        fin_linger: Duration::from_secs(1),
        tick: Duration::from_millis(100),
    };
    let mut prefix = |_: &[u8]| Ok(());
    let mut tick = |_: &Receiver| {};
    let script = async {
        let mut buf = vec![0u8; MAX_DATAGRAM];
        let n = peer.recv(&mut buf).await.expect("REQUEST");
        assert!(matches!(decode(&buf[..n]), Ok((_, Packet::Request(_)))));
        let accept = Packet::Accept(Accept {
            file_size: size,
            chunk_size: DEFAULT_CHUNK_SIZE,
            total_chunks: 3,
            have: Have::NONE,
        });
        let n = accept.encode(conn, &mut buf).expect("ACCEPT");
        peer.send(&buf[..n]).await.expect("send ACCEPT");
        for seq in 0..3u32 {
            let off = seq as usize * chunk;
            let part = &data[off..(off + chunk).min(data.len())];
            buf[DATA_HEADER_LEN..DATA_HEADER_LEN + part.len()].copy_from_slice(part);
            let n = seal_data(conn, seq, part.len(), &mut buf).expect("DATA");
            peer.send(&buf[..n]).await.expect("send DATA");
        }
        let mut fin_acks = 0;
        let mut fin_sent = false;
        loop {
            let wait = tokio::time::timeout(Duration::from_millis(500), peer.recv(&mut buf));
            let Ok(r) = wait.await else { break };
            let n = r.expect("recv");
            match decode(&buf[..n]) {
                Ok((_, Packet::Ack(ack))) if ack.cum == 3 && !fin_sent => {
                    let fin = Packet::Fin(Fin {
                        total_chunks: 3,
                        file_size: size,
                    });
                    let mut out = vec![0u8; MAX_DATAGRAM];
                    let m = fin.encode(conn, &mut out).expect("FIN");
                    peer.send(&out[..m]).await.expect("send FIN");
                    fin_sent = true;
                }
                Ok((_, Packet::FinAck(_))) => fin_acks += 1,
                _ => {}
            }
        }
        fin_acks
    };
    let (got, fin_acks) = tokio::join!(
        receive_file(
            &mut rx_link,
            &mut rx,
            conn,
            &dst,
            &cancel,
            &opts,
            &mut prefix,
            &mut tick,
        ),
        script,
    );
    got.expect("received");
    assert_eq!(fin_acks, 3, "FIN-ACKs sent for one FIN");
    let on_disk = std::fs::read(&dst_path).expect("read destination");
    assert!(on_disk == data, "file on disk differs from the source");
}
