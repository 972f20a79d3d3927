//! Transfer grants and counters shared by the session (which issues grants on OFFER_ACCEPT),
//! the UDP driver and the HTTP endpoint (which redeem them). A grant is a random token bound
//! to one session and offer, single-use and short-lived; nothing here touches sockets.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use llmops_common::constant_time_eq;
use protocol::rdt::conn_id_from_token;
use protocol::Message;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::store::OfferRow;

/// Random bytes per token (256 bits): guessing one is hopeless, and it stays well under
/// the RDT token limit.
pub const TOKEN_BYTES: usize = 32;
/// How long a grant may wait to be redeemed.
pub const GRANT_TTL: Duration = Duration::from_secs(60);

/// Which service may redeem a grant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GrantKind {
    Rdt,
    Http,
}

impl GrantKind {
    pub fn label(self) -> &'static str {
        self.mode().as_str()
    }

    /// The transfer mode this grant serves.
    pub fn mode(self) -> crate::store::TransferMode {
        match self {
            GrantKind::Rdt => crate::store::TransferMode::Rdt,
            GrantKind::Http => crate::store::TransferMode::Http,
        }
    }
}

/// Everything a transfer needs once its token is presented.
#[derive(Debug, Clone)]
pub struct Grant {
    pub kind: GrantKind,
    pub token: Vec<u8>,
    pub offer: OfferRow,
    pub session_id: String,
    /// The session's push channel: progress and completion frames go there (best effort;
    /// the session may be gone by the time the transfer ends).
    pub push: mpsc::Sender<Message>,
    pub expires: Instant,
    /// Cancelled when the offer is accepted again (a retry supersedes this attempt) or the
    /// server shuts down.
    pub cancel: CancellationToken,
    pub attempt: u64,
}

/// A validated RDT upload waiting for the client's push: the temp file is open and the
/// name and size passed the same checks as an NPLT upload.
pub struct UploadGrant {
    pub token: Vec<u8>,
    pub session_id: String,
    pub request_id: u64,
    pub incoming: Box<crate::uploads::Incoming>,
    /// The session's push channel: the UPLOAD_RESULT (or ERROR) goes there.
    pub push: mpsc::Sender<Message>,
    /// Whether the session speaks the extension protocol (index status frames).
    pub extension: bool,
    /// UPLOAD_RESULT as soon as the file is durable, before indexing (`result_on_save`).
    pub result_on_save: bool,
    pub expires: Instant,
}

impl std::fmt::Debug for UploadGrant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UploadGrant")
            .field("session_id", &self.session_id)
            .field("request_id", &self.request_id)
            .field("filename", &self.incoming.filename)
            .finish()
    }
}

/// Per-mode counters exported on `/metrics`.
#[derive(Debug, Default)]
pub struct ModeCounters {
    pub active: AtomicU64,
    pub completed: AtomicU64,
    pub failed: AtomicU64,
    pub bytes_sent: AtomicU64,
}

/// Counters for `/metrics`; monotonic except `active`.
#[derive(Debug, Default)]
pub struct Metrics {
    pub rdt: ModeCounters,
    pub http: ModeCounters,
    pub nplt: ModeCounters,
    pub retransmissions: AtomicU64,
    /// REQUESTs with an unknown, used or expired token.
    pub bad_tokens: AtomicU64,
    /// Datagrams that were not RDT at all, or not for a known transfer.
    pub stray_datagrams: AtomicU64,
}

impl Metrics {
    pub fn mode(&self, kind: GrantKind) -> &ModeCounters {
        match kind {
            GrantKind::Rdt => &self.rdt,
            GrantKind::Http => &self.http,
        }
    }
}

/// One try at moving an offer's file; a later try of the same offer cancels it.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub id: u64,
    pub cancel: CancellationToken,
}

/// Why a token was not redeemed. The peer is told nothing more than "not found".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedeemError {
    Unknown,
    Expired,
    WrongKind,
}

/// The grant registry plus what the services publish once bound.
#[derive(Default)]
pub struct Transfers {
    grants: Mutex<HashMap<u64, Grant>>,
    /// RDT upload grants by connection id.
    uploads: Mutex<HashMap<u64, UploadGrant>>,
    /// Offer id -> cancel token of its latest attempt, so a retry supersedes the old one.
    attempts: Mutex<HashMap<String, Attempt>>,
    next_attempt: AtomicU64,
    pub metrics: Metrics,
    /// Running RDT uploads by resume key (a retry of the same upload supersedes the old).
    pub upload_resumes: crate::net::rdt::resume::ResumeRegistry,
    /// Address put in TRANSFER_START (`--rdt-advertise` or the bound one); unset when the
    /// UDP service is not running.
    pub rdt_addr: OnceLock<SocketAddr>,
    /// Bound HTTP address; unset when the HTTP service is not running.
    pub http_addr: OnceLock<SocketAddr>,
}

impl Transfers {
    /// Issues a grant for `offer`; returns the token (hex for the peer) and the grant's
    /// cancel token. Any earlier attempt of the same offer is cancelled and its unredeemed
    /// grants revoked.
    pub fn issue(
        &self,
        kind: GrantKind,
        offer: &OfferRow,
        session_id: &str,
        push: mpsc::Sender<Message>,
        parent: &CancellationToken,
        now: Instant,
    ) -> (String, Attempt) {
        let attempt = self.begin_attempt(&offer.offer_id, parent);
        let cancel = attempt.cancel.clone();
        let mut grants = lock(&self.grants);
        grants.retain(|_, g| g.expires > now && g.offer.offer_id != offer.offer_id);
        // A 64-bit conn id collision between two live random tokens is astronomically
        // unlikely; redraw rather than reason about it.
        let token = loop {
            let t: [u8; TOKEN_BYTES] = rand::random();
            if !grants.contains_key(&conn_id_from_token(&t)) {
                break t.to_vec();
            }
        };
        grants.insert(
            conn_id_from_token(&token),
            Grant {
                kind,
                token: token.clone(),
                offer: offer.clone(),
                session_id: session_id.to_string(),
                push,
                expires: now + GRANT_TTL,
                cancel,
                attempt: attempt.id,
            },
        );
        drop(grants);
        (hex::encode(&token), attempt)
    }

    /// Starts an attempt at `offer_id` (every mode records one), cancelling the previous
    /// attempt and revoking its unredeemed grants.
    pub fn begin_attempt(&self, offer_id: &str, parent: &CancellationToken) -> Attempt {
        let attempt = Attempt {
            id: self.next_attempt.fetch_add(1, Ordering::Relaxed),
            cancel: parent.child_token(),
        };
        lock(&self.grants).retain(|_, g| g.offer.offer_id != offer_id);
        if let Some(old) = lock(&self.attempts).insert(offer_id.to_string(), attempt.clone()) {
            old.cancel.cancel();
        }
        attempt
    }

    /// Forgets a finished attempt if it is still the latest one of its offer.
    pub fn end_attempt(&self, offer_id: &str, attempt_id: u64) {
        let mut a = lock(&self.attempts);
        if a.get(offer_id).is_some_and(|x| x.id == attempt_id) {
            a.remove(offer_id);
        }
    }

    /// Was this attempt replaced by a retry? (Then its outcome is not reported: the
    /// client has moved on to the new attempt.)
    pub fn superseded(&self, offer_id: &str, attempt_id: u64) -> bool {
        lock(&self.attempts)
            .get(offer_id)
            .is_some_and(|x| x.id != attempt_id)
    }

    /// Redeems `token` for a `kind` transfer: removes the grant (single use) and returns it.
    /// Compares the token in constant time after the conn id lookup.
    pub fn redeem(
        &self,
        kind: GrantKind,
        token: &[u8],
        now: Instant,
    ) -> Result<Grant, RedeemError> {
        let id = conn_id_from_token(token);
        let mut grants = lock(&self.grants);
        let Some(g) = grants.get(&id) else {
            return Err(RedeemError::Unknown);
        };
        if !constant_time_eq(&g.token, token) {
            return Err(RedeemError::Unknown);
        }
        if g.kind != kind {
            return Err(RedeemError::WrongKind);
        }
        let expired = g.expires <= now;
        let g = grants.remove(&id).ok_or(RedeemError::Unknown)?;
        if expired {
            return Err(RedeemError::Expired);
        }
        Ok(g)
    }

    /// Registers a validated upload; returns the hex token the client presents (in a push
    /// REQUEST) on the RDT port. Expired upload grants are dropped with their temp files.
    #[allow(clippy::too_many_arguments)]
    pub fn issue_upload(
        &self,
        incoming: crate::uploads::Incoming,
        session_id: &str,
        request_id: u64,
        push: mpsc::Sender<Message>,
        extension: bool,
        result_on_save: bool,
        now: Instant,
    ) -> String {
        let mut uploads = lock(&self.uploads);
        let expired: Vec<u64> = uploads
            .iter()
            .filter(|(_, g)| g.expires <= now)
            .map(|(k, _)| *k)
            .collect();
        for k in expired {
            if let Some(g) = uploads.remove(&k) {
                g.incoming.discard();
            }
        }
        let token = loop {
            let t: [u8; TOKEN_BYTES] = rand::random();
            let id = conn_id_from_token(&t);
            if !uploads.contains_key(&id) && !lock(&self.grants).contains_key(&id) {
                break t.to_vec();
            }
        };
        uploads.insert(
            conn_id_from_token(&token),
            UploadGrant {
                token: token.clone(),
                session_id: session_id.to_string(),
                request_id,
                incoming: Box::new(incoming),
                push,
                extension,
                result_on_save,
                expires: now + GRANT_TTL,
            },
        );
        hex::encode(&token)
    }

    /// Redeems an upload token (single use, constant-time compare like [`redeem`](Self::redeem)).
    pub fn redeem_upload(&self, token: &[u8], now: Instant) -> Result<UploadGrant, RedeemError> {
        let id = conn_id_from_token(token);
        let mut uploads = lock(&self.uploads);
        let Some(g) = uploads.get(&id) else {
            return Err(RedeemError::Unknown);
        };
        if !constant_time_eq(&g.token, token) {
            return Err(RedeemError::Unknown);
        }
        let g = uploads.remove(&id).ok_or(RedeemError::Unknown)?;
        if g.expires <= now {
            g.incoming.discard();
            return Err(RedeemError::Expired);
        }
        Ok(g)
    }

    /// Grants not yet redeemed (for tests and metrics).
    pub fn pending(&self) -> usize {
        lock(&self.grants).len()
    }

    pub fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A poisoned lock only means a thread panicked mid-update of a plain map; keep going.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(id: &str) -> OfferRow {
        OfferRow {
            offer_id: id.into(),
            session_id: "s".into(),
            file_id: None,
            file_path: "/tmp/x".into(),
            filename: "x".into(),
            size: 1,
            sha256: String::new(),
            mode: crate::store::TransferMode::Auto,
            state: crate::store::OfferState::Accepted,
            created_at: String::new(),
            expires_at: 0,
            request_id: None,
            tool_call: None,
            reason: None,
        }
    }

    #[test]
    fn grants_are_single_use_expiring_and_kind_bound() {
        let t = Transfers::default();
        let (tx, _rx) = mpsc::channel(1);
        let root = CancellationToken::new();
        let now = Instant::now();
        let (hex_tok, _) = t.issue(GrantKind::Rdt, &offer("o1"), "s", tx.clone(), &root, now);
        let tok = hex::decode(&hex_tok).expect("hex");
        assert_eq!(tok.len(), TOKEN_BYTES);
        assert_eq!(
            t.redeem(GrantKind::Http, &tok, now).err(),
            Some(RedeemError::WrongKind)
        );
        let mut wrong = tok.clone();
        wrong[0] ^= 1;
        assert_eq!(
            t.redeem(GrantKind::Rdt, &wrong, now).err(),
            Some(RedeemError::Unknown)
        );
        assert!(t.redeem(GrantKind::Rdt, &tok, now).is_ok());
        assert_eq!(
            t.redeem(GrantKind::Rdt, &tok, now).err(),
            Some(RedeemError::Unknown)
        );

        let (hex_tok, _) = t.issue(GrantKind::Rdt, &offer("o2"), "s", tx.clone(), &root, now);
        let tok = hex::decode(&hex_tok).expect("hex");
        let later = now + GRANT_TTL + Duration::from_millis(1);
        assert_eq!(
            t.redeem(GrantKind::Rdt, &tok, later).err(),
            Some(RedeemError::Expired)
        );
        assert_eq!(t.pending(), 0);
    }

    #[test]
    fn a_retry_supersedes_the_previous_attempt() {
        let t = Transfers::default();
        let (tx, _rx) = mpsc::channel(1);
        let root = CancellationToken::new();
        let now = Instant::now();
        let (first, c1) = t.issue(GrantKind::Rdt, &offer("o1"), "s", tx.clone(), &root, now);
        let (_second, c2) = t.issue(GrantKind::Http, &offer("o1"), "s", tx, &root, now);
        assert!(c1.cancel.is_cancelled());
        assert!(!c2.cancel.is_cancelled());
        assert!(t.superseded("o1", c1.id));
        assert!(!t.superseded("o1", c2.id));
        t.end_attempt("o1", c1.id);
        assert!(!t.superseded("o1", c2.id));
        t.end_attempt("o1", c2.id);
        assert!(!t.superseded("o1", c1.id));
        let first = hex::decode(first).expect("hex");
        assert!(
            t.redeem(GrantKind::Rdt, &first, now).is_err(),
            "old grant revoked"
        );
        assert_eq!(t.pending(), 1);
    }
}
