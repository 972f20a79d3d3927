//! Resume state of RDT uploads on the server: the partial file and its chunk bitmap in
//! `uploads/.tmp/rdt-resume/`, keyed by session + announced sha256 + size, so an upload
//! interrupted by a killed client or a dead network continues from what the server holds;
//! and the registry that lets a new attempt of the same upload take over from a stale one.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use protocol::rdt::ChunkBitmap;
use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;

/// First line of a bitmap file; size, chunk size and sha256 follow, then the bitmap bytes.
const MAGIC: &str = "llmops-rdt-upload 1";
/// Resume state untouched for this long is removed when another upload opens its own.
const MAX_AGE: Duration = Duration::from_secs(24 * 3600);

/// What an upload is: its resume state is only valid for exactly this.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadKey {
    pub session_id: String,
    /// Lower-case hex, as the client announced it.
    pub sha256: String,
    pub size: u64,
}

impl UploadKey {
    /// File stem of the resume pair: hex sha256 of the three fields (names stay short and
    /// carry nothing the client chose).
    fn stem(&self) -> String {
        let mut h = Sha256::new();
        h.update(self.session_id.as_bytes());
        h.update([0]);
        h.update(self.sha256.as_bytes());
        h.update([0]);
        h.update(self.size.to_be_bytes());
        hex::encode(&h.finalize()[..16])
    }
}

/// The partial file and bitmap of one upload.
#[derive(Debug)]
pub struct ResumeFiles {
    pub part: PathBuf,
    bitmap: PathBuf,
    header: String,
}

/// An opened resume state: the file to write chunks into and what it already holds.
pub struct Opened {
    pub files: ResumeFiles,
    pub file: std::fs::File,
    pub held: Option<ChunkBitmap>,
}

fn header(key: &UploadKey, chunk: u16) -> String {
    format!("{MAGIC} {} {chunk} {}\n", key.size, key.sha256)
}

/// Opens (or creates) the resume state of `key` in `dir` for chunk size `chunk`. A bitmap
/// that does not match (other chunk size, damaged) starts the file over.
pub fn open(dir: &Path, key: &UploadKey, chunk: u16) -> std::io::Result<Opened> {
    std::fs::create_dir_all(dir)?;
    remove_stale(dir, key);
    let stem = key.stem();
    let files = ResumeFiles {
        part: dir.join(format!("{stem}.part")),
        bitmap: dir.join(format!("{stem}.bitmap")),
        header: header(key, chunk),
    };
    let total = protocol::rdt::total_chunks(key.size, chunk).unwrap_or(0);
    let held = std::fs::read(&files.bitmap)
        .ok()
        .filter(|_| files.part.is_file())
        .and_then(|b| {
            let body = b.strip_prefix(files.header.as_bytes())?;
            ChunkBitmap::from_bytes(body).filter(|b| b.len() == total)
        })
        .filter(|b| b.count() > 0);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(held.is_none())
        .open(&files.part)?;
    file.set_len(key.size)?;
    if held.is_none() {
        files.forget_bitmap();
    }
    Ok(Opened { files, file, held })
}

impl ResumeFiles {
    /// Makes the data durable, then replaces the bitmap atomically: the bitmap never claims
    /// bytes that are not on disk. Call only when every written chunk reached `file`.
    pub fn persist(&self, file: &std::fs::File, held: &ChunkBitmap) -> std::io::Result<()> {
        file.sync_data()?;
        let tmp = self.bitmap.with_extension("bitmap.tmp");
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(self.header.as_bytes())?;
        f.write_all(&held.to_bytes())?;
        f.sync_data()?;
        std::fs::rename(&tmp, &self.bitmap)
    }

    /// The upload completed: syncs the data and moves it over `dest` (the upload's own temp
    /// file, which the common finishing path then verifies and renames into place).
    pub fn complete_into(self, file: std::fs::File, dest: &Path) -> std::io::Result<()> {
        file.sync_all()?;
        drop(file);
        std::fs::rename(&self.part, dest)?;
        self.forget_bitmap();
        self.tidy();
        Ok(())
    }

    /// The content was refused (not text, too large): nothing worth resuming.
    pub fn discard(self) {
        remove(&self.part);
        self.forget_bitmap();
        self.tidy();
    }

    /// Removes the resume folder once no upload has state in it, so a finished upload
    /// leaves `uploads/.tmp` as it found it (an upload opening its state at the same moment
    /// falls back to receiving from the start).
    fn tidy(&self) {
        let Some(dir) = self.part.parent() else {
            return;
        };
        if let Err(e) = std::fs::remove_dir(dir) {
            // Not empty (other uploads' state) is the normal case.
            tracing::debug!(dir = %dir.display(), "resume folder kept: {e}");
        }
    }

    fn forget_bitmap(&self) {
        remove(&self.bitmap);
    }
}

fn remove(path: &Path) {
    if let Err(e) = std::fs::remove_file(path) {
        if e.kind() != std::io::ErrorKind::NotFound {
            tracing::warn!(path = %path.display(), "cannot remove RDT upload resume file: {e}");
        }
    }
}

/// Removes resume files of other uploads untouched for [`MAX_AGE`].
fn remove_stale(dir: &Path, keep: &UploadKey) {
    let stem = keep.stem();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with(&stem) {
            continue;
        }
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age > MAX_AGE);
        if old {
            remove(&e.path());
        }
    }
}

/// One running attempt of an upload.
struct Entry {
    attempt: u64,
    cancel: CancellationToken,
    lock: Arc<tokio::sync::Mutex<()>>,
}

/// Running RDT uploads by resume key: a new attempt of the same upload (the client was
/// killed and re-run before the old receiver timed out) cancels the old one and waits until
/// it has let go of the files.
#[derive(Default)]
pub struct ResumeRegistry {
    running: Mutex<HashMap<String, Entry>>,
    next: std::sync::atomic::AtomicU64,
}

/// Held while an attempt owns the resume files; releases its registry entry when dropped.
pub struct Claim<'a> {
    reg: &'a ResumeRegistry,
    stem: String,
    attempt: u64,
    pub cancel: CancellationToken,
    _guard: tokio::sync::OwnedMutexGuard<()>,
}

impl ResumeRegistry {
    /// Claims `key` for a new attempt whose cancellation follows `parent`; cancels and
    /// waits out any earlier attempt of the same upload.
    pub async fn claim(&self, key: &UploadKey, parent: &CancellationToken) -> Claim<'_> {
        let stem = key.stem();
        let attempt = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let cancel = parent.child_token();
        let lock = {
            let mut m = lock(&self.running);
            let lock = match m.get(&stem) {
                Some(old) => {
                    old.cancel.cancel();
                    old.lock.clone()
                }
                None => Arc::new(tokio::sync::Mutex::new(())),
            };
            m.insert(
                stem.clone(),
                Entry {
                    attempt,
                    cancel: cancel.clone(),
                    lock: lock.clone(),
                },
            );
            lock
        };
        let guard = lock.lock_owned().await;
        Claim {
            reg: self,
            stem,
            attempt,
            cancel,
            _guard: guard,
        }
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        let mut m = lock(&self.reg.running);
        if m.get(&self.stem).is_some_and(|e| e.attempt == self.attempt) {
            m.remove(&self.stem);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A poisoned lock only means a thread panicked mid-update of a plain map; keep going.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::FileExt as _;

    fn read_at(file: &std::fs::File, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        let mut v = vec![0u8; len];
        file.read_exact_at(&mut v, offset)?;
        Ok(v)
    }

    fn key(sha: &str, size: u64) -> UploadKey {
        UploadKey {
            session_id: "s1".into(),
            sha256: sha.into(),
            size,
        }
    }

    #[test]
    fn resume_state_survives_and_binds_the_upload() {
        let dir = tempfile::tempdir().expect("tempdir");
        let k = key("ab", 5000);
        let o = open(dir.path(), &k, 1000).expect("open");
        assert!(o.held.is_none());
        o.file.write_all_at(b"hello", 2000).expect("write");
        let mut bm = ChunkBitmap::new(5);
        bm.set(2);
        o.files.persist(&o.file, &bm).expect("persist");
        drop(o);

        // The same upload again: chunk 2 is held and its bytes are there.
        let o = open(dir.path(), &k, 1000).expect("reopen");
        let held = o.held.as_ref().expect("held");
        assert_eq!(held.count(), 1);
        assert!(held.get(2));
        assert_eq!(read_at(&o.file, 2000, 5).expect("read"), b"hello");
        drop(o);
        // Another chunk size, hash, size or session: nothing is trusted.
        assert!(open(dir.path(), &k, 500).expect("open").held.is_none());
        let o = open(dir.path(), &k, 1000).expect("open");
        assert!(o.held.is_none(), "a mismatched open starts over");
        drop(o);
        for other in [key("ac", 5000), key("ab", 5001)] {
            assert!(open(dir.path(), &other, 1000).expect("open").held.is_none());
        }
    }

    #[test]
    fn completion_moves_the_data_and_forgets_the_bitmap() {
        let dir = tempfile::tempdir().expect("tempdir");
        let k = key("cd", 3);
        let res = dir.path().join("resume");
        let o = open(&res, &k, 1000).expect("open");
        o.file.write_all_at(b"xyz", 0).expect("write");
        let mut bm = ChunkBitmap::new(1);
        bm.set(0);
        o.files.persist(&o.file, &bm).expect("persist");
        let dest = dir.path().join("dest.part");
        o.files.complete_into(o.file, &dest).expect("complete");
        assert_eq!(std::fs::read(&dest).expect("dest"), b"xyz");
        assert!(!res.exists(), "the empty resume folder is removed");
    }

    #[tokio::test]
    async fn a_new_attempt_cancels_the_old_one() {
        let reg = ResumeRegistry::default();
        let parent = CancellationToken::new();
        let k = key("ef", 10);
        let first = reg.claim(&k, &parent).await;
        let c1 = first.cancel.clone();
        let reg2 = &reg;
        let k2 = k.clone();
        let second = async move { reg2.claim(&k2, &CancellationToken::new()).await };
        let (second, ()) = tokio::join!(second, async {
            // The old attempt sees its cancellation, then lets go.
            c1.cancelled().await;
            drop(first);
        });
        assert!(!second.cancel.is_cancelled());
        drop(second);
        assert!(lock(&reg.running).is_empty());
    }
}
