//! Batched UDP syscalls for the RDT drivers (Linux): GSO sends (one `sendmsg` with a
//! `UDP_SEGMENT` control message carries up to [`MAX_SEGMENTS`] datagrams), a `sendmmsg`
//! fallback when the kernel or the route refuses GSO, and `recvmmsg` receives. All of the
//! RDT drivers' `unsafe` lives here; every call passes pointers to live, correctly sized
//! buffers owned by the caller for the duration of the call.

use std::io;
use std::mem::{size_of, zeroed};
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicBool, Ordering};

use protocol::rdt::MAX_DATAGRAM;

/// Datagrams per GSO send: 44 x 1472 stays under the 64 KiB UDP payload limit.
pub const MAX_SEGMENTS: usize = 44;
/// Datagrams per `recvmmsg`.
pub const RECV_BATCH: usize = 32;

/// Set once GSO failed: later sends go straight to `sendmmsg`.
static GSO_OFF: AtomicBool = AtomicBool::new(false);

const SOL_UDP: libc::c_int = 17;
const UDP_SEGMENT: libc::c_int = 103;

/// A socket address in the kernel's layout.
struct RawAddr {
    storage: libc::sockaddr_storage,
    len: libc::socklen_t,
}

fn raw_addr(a: &SocketAddr) -> RawAddr {
    // SAFETY: sockaddr_storage is plain old data; all-zero is a valid value.
    let mut storage: libc::sockaddr_storage = unsafe { zeroed() };
    let len = match a {
        SocketAddr::V4(v4) => {
            let sin = libc::sockaddr_in {
                sin_family: libc::AF_INET as libc::sa_family_t,
                sin_port: v4.port().to_be(),
                sin_addr: libc::in_addr {
                    s_addr: u32::from_ne_bytes(v4.ip().octets()),
                },
                sin_zero: [0; 8],
            };
            // SAFETY: sockaddr_storage is larger than and aligned for sockaddr_in.
            unsafe { std::ptr::write(&mut storage as *mut _ as *mut libc::sockaddr_in, sin) };
            size_of::<libc::sockaddr_in>()
        }
        SocketAddr::V6(v6) => {
            let sin6 = libc::sockaddr_in6 {
                sin6_family: libc::AF_INET6 as libc::sa_family_t,
                sin6_port: v6.port().to_be(),
                sin6_flowinfo: v6.flowinfo().to_be(),
                sin6_addr: libc::in6_addr {
                    s6_addr: v6.ip().octets(),
                },
                sin6_scope_id: v6.scope_id(),
            };
            // SAFETY: sockaddr_storage is larger than and aligned for sockaddr_in6.
            unsafe { std::ptr::write(&mut storage as *mut _ as *mut libc::sockaddr_in6, sin6) };
            size_of::<libc::sockaddr_in6>()
        }
    };
    RawAddr {
        storage,
        len: len as libc::socklen_t,
    }
}

fn from_raw(s: &libc::sockaddr_storage) -> Option<SocketAddr> {
    match s.ss_family as libc::c_int {
        libc::AF_INET => {
            // SAFETY: the family says the storage holds a sockaddr_in.
            let sin: &libc::sockaddr_in = unsafe { &*(s as *const _ as *const libc::sockaddr_in) };
            let ip = Ipv4Addr::from(sin.sin_addr.s_addr.to_ne_bytes());
            Some(SocketAddr::V4(SocketAddrV4::new(
                ip,
                u16::from_be(sin.sin_port),
            )))
        }
        libc::AF_INET6 => {
            // SAFETY: the family says the storage holds a sockaddr_in6.
            let sin6: &libc::sockaddr_in6 =
                unsafe { &*(s as *const _ as *const libc::sockaddr_in6) };
            Some(SocketAddr::V6(SocketAddrV6::new(
                Ipv6Addr::from(sin6.sin6_addr.s6_addr),
                u16::from_be(sin6.sin6_port),
                u32::from_be(sin6.sin6_flowinfo),
                sin6.sin6_scope_id,
            )))
        }
        _ => None,
    }
}

/// Sends `buf` as datagrams of `seg` bytes (the last may be shorter) to `peer` (or the
/// connected address). Returns the bytes consumed (whole datagrams); `WouldBlock` only when
/// nothing was sent.
pub fn send_segments(
    fd: RawFd,
    buf: &[u8],
    seg: usize,
    peer: Option<&SocketAddr>,
) -> io::Result<usize> {
    if buf.is_empty() {
        return Ok(0);
    }
    let seg = seg.clamp(1, MAX_DATAGRAM);
    let addr = peer.map(raw_addr);
    if buf.len() > seg && !GSO_OFF.load(Ordering::Relaxed) {
        match send_gso(fd, buf, seg, addr.as_ref()) {
            Ok(()) => return Ok(buf.len()),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Err(e),
            Err(e) => match e.raw_os_error() {
                // No GSO here (old kernel, device without checksum offload): stop trying.
                Some(libc::EIO | libc::EINVAL | libc::ENOPROTOOPT | libc::EOPNOTSUPP) => {
                    GSO_OFF.store(true, Ordering::Relaxed);
                }
                _ => return Err(e),
            },
        }
    }
    send_mmsg(fd, buf, seg, addr.as_ref())
}

fn send_gso(fd: RawFd, buf: &[u8], seg: usize, addr: Option<&RawAddr>) -> io::Result<()> {
    let mut iov = libc::iovec {
        iov_base: buf.as_ptr() as *mut libc::c_void,
        iov_len: buf.len(),
    };
    // Room for one cmsg carrying a u16, 8-byte aligned.
    let mut control = [0u64; 4];
    // SAFETY: msghdr is plain old data; all-zero is valid and every used field is set below.
    let mut msg: libc::msghdr = unsafe { zeroed() };
    if let Some(a) = addr {
        msg.msg_name = &a.storage as *const _ as *mut libc::c_void;
        msg.msg_namelen = a.len;
    }
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr() as *mut libc::c_void;
    // SAFETY: CMSG_SPACE only computes a size.
    msg.msg_controllen = unsafe { libc::CMSG_SPACE(size_of::<u16>() as u32) } as _;
    // SAFETY: msg_control points at `control`, which is large enough for one cmsg of a
    // u16 (checked by CMSG_SPACE above); CMSG_FIRSTHDR therefore returns a valid pointer.
    unsafe {
        let cmsg = libc::CMSG_FIRSTHDR(&msg);
        (*cmsg).cmsg_level = SOL_UDP;
        (*cmsg).cmsg_type = UDP_SEGMENT;
        (*cmsg).cmsg_len = libc::CMSG_LEN(size_of::<u16>() as u32) as _;
        std::ptr::write_unaligned(libc::CMSG_DATA(cmsg) as *mut u16, seg as u16);
    }
    // SAFETY: msg and everything it points to live until the call returns.
    let n = unsafe { libc::sendmsg(fd, &msg, libc::MSG_DONTWAIT) };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn send_mmsg(fd: RawFd, buf: &[u8], seg: usize, addr: Option<&RawAddr>) -> io::Result<usize> {
    let count = buf.len().div_ceil(seg).min(MAX_SEGMENTS * 2);
    let mut iovs: Vec<libc::iovec> = buf
        .chunks(seg)
        .take(count)
        .map(|c| libc::iovec {
            iov_base: c.as_ptr() as *mut libc::c_void,
            iov_len: c.len(),
        })
        .collect();
    let mut msgs: Vec<libc::mmsghdr> = iovs
        .iter_mut()
        .map(|iov| {
            // SAFETY: mmsghdr is plain old data; all-zero is valid.
            let mut m: libc::mmsghdr = unsafe { zeroed() };
            if let Some(a) = addr {
                m.msg_hdr.msg_name = &a.storage as *const _ as *mut libc::c_void;
                m.msg_hdr.msg_namelen = a.len;
            }
            m.msg_hdr.msg_iov = iov;
            m.msg_hdr.msg_iovlen = 1;
            m
        })
        .collect();
    // SAFETY: msgs, iovs, the address and buf all outlive the call; vlen matches msgs.
    let n = unsafe {
        libc::sendmmsg(
            fd,
            msgs.as_mut_ptr(),
            msgs.len() as libc::c_uint,
            libc::MSG_DONTWAIT,
        )
    };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    let sent: usize = iovs.iter().take(n as usize).map(|v| v.iov_len).sum();
    Ok(sent)
}

/// Buffers for one `recvmmsg`.
pub struct RecvBatch {
    bufs: Vec<u8>,
    lens: [usize; RECV_BATCH],
    addrs: Vec<libc::sockaddr_storage>,
}

/// Slot size: one byte more than the largest datagram, so an oversized one shows as such.
const SLOT: usize = MAX_DATAGRAM + 1;

impl Default for RecvBatch {
    fn default() -> Self {
        Self {
            bufs: vec![0u8; SLOT * RECV_BATCH],
            lens: [0; RECV_BATCH],
            // SAFETY: sockaddr_storage is plain old data; all-zero is valid.
            addrs: vec![unsafe { zeroed() }; RECV_BATCH],
        }
    }
}

impl RecvBatch {
    /// Datagram `i` of the last receive.
    pub fn get(&self, i: usize) -> &[u8] {
        &self.bufs[i * SLOT..i * SLOT + self.lens[i]]
    }

    /// Source address of datagram `i` of the last receive.
    pub fn addr(&self, i: usize) -> Option<SocketAddr> {
        from_raw(&self.addrs[i])
    }
}

/// Receives up to [`RECV_BATCH`] queued datagrams without blocking; returns how many.
pub fn recv_batch(fd: RawFd, b: &mut RecvBatch) -> io::Result<usize> {
    let base = b.bufs.as_mut_ptr();
    let mut iovs: [libc::iovec; RECV_BATCH] = std::array::from_fn(|i| libc::iovec {
        // SAFETY: i * SLOT + SLOT <= bufs.len(), so the pointer stays inside the buffer.
        iov_base: unsafe { base.add(i * SLOT) } as *mut libc::c_void,
        iov_len: SLOT,
    });
    let addrs = b.addrs.as_mut_ptr();
    let mut msgs: [libc::mmsghdr; RECV_BATCH] = std::array::from_fn(|i| {
        // SAFETY: mmsghdr is plain old data; all-zero is valid.
        let mut m: libc::mmsghdr = unsafe { zeroed() };
        // SAFETY: i < RECV_BATCH == addrs.len().
        m.msg_hdr.msg_name = unsafe { addrs.add(i) } as *mut libc::c_void;
        m.msg_hdr.msg_namelen = size_of::<libc::sockaddr_storage>() as libc::socklen_t;
        m.msg_hdr.msg_iov = &mut iovs[i];
        m.msg_hdr.msg_iovlen = 1;
        m
    });
    // SAFETY: every mmsghdr points at a live iovec slot of `bufs` and a live address slot;
    // vlen is the array length; no timeout.
    let n = unsafe {
        libc::recvmmsg(
            fd,
            msgs.as_mut_ptr(),
            RECV_BATCH as libc::c_uint,
            libc::MSG_DONTWAIT,
            std::ptr::null_mut(),
        )
    };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    let n = n as usize;
    for (i, m) in msgs.iter().enumerate().take(n) {
        b.lens[i] = (m.msg_len as usize).min(SLOT);
    }
    Ok(n)
}

/// `setsockopt(SOL_SOCKET, opt, v)` for an int option.
pub fn set_int_opt(fd: RawFd, opt: libc::c_int, v: libc::c_int) -> io::Result<()> {
    // SAFETY: a pointer to a live c_int and its exact size.
    let r = unsafe {
        libc::setsockopt(
            fd,
            libc::SOL_SOCKET,
            opt,
            (&v as *const libc::c_int).cast(),
            size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if r < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Starts writing back `len` bytes of `fd` from `offset` without waiting for it
/// (`sync_file_range` with `SYNC_FILE_RANGE_WRITE`), so that a later fsync has little left
/// to write. Not a durability point by itself.
pub fn start_writeback(fd: RawFd, offset: u64, len: u64) -> io::Result<()> {
    let (Ok(off), Ok(n)) = (i64::try_from(offset), i64::try_from(len)) else {
        return Err(io::Error::from(io::ErrorKind::InvalidInput));
    };
    // SAFETY: no pointers; the kernel checks the descriptor.
    let r = unsafe { libc::sync_file_range(fd, off, n, libc::SYNC_FILE_RANGE_WRITE) };
    if r < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}
