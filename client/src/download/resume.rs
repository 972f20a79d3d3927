//! Resuming `nplt` and `http` downloads from their `.part`: a small resume file beside it
//! (`.NAME.OFFER.resume`) binds the partial file to the offered file's size and sha256, so
//! a `.part` of a different file never resumes; the held prefix is the `.part`'s length,
//! and the whole file's sha256 is verified at the end.

use std::path::{Path, PathBuf};

use protocol::Offer;

/// First words of a resume file of a streamed (`nplt`/`http`) download.
const MAGIC: &str = "llmops-stream-resume 1";

/// The resume file of the temp file `.NAME.OFFER.part`: `.NAME.OFFER.resume`.
pub fn resume_path(part: &Path) -> PathBuf {
    part.with_extension("resume")
}

fn header(size: u64, sha256: &str) -> String {
    format!("{MAGIC} size={size} sha256={sha256}\n")
}

/// Records, before any data is written to `part`, which file it is a prefix of.
pub fn record(part: &Path, size: u64, sha256: &str) -> std::io::Result<()> {
    std::fs::write(resume_path(part), header(size, sha256))
}

/// Whether the resume file of `part` says it holds a prefix of this exact file.
fn describes(part: &Path, size: u64, sha256: &str) -> bool {
    std::fs::read(resume_path(part)).is_ok_and(|b| b == header(size, sha256).as_bytes())
}

/// Bytes of `offer` held in `part` from an interrupted earlier attempt: its length when
/// its resume file matches the offer and it is shorter than the file, else 0 (and a
/// `part` that cannot be resumed is removed with its resume file).
pub fn held(part: &Path, offer: &Offer) -> u64 {
    let len = std::fs::metadata(part).map(|m| m.len()).unwrap_or(0);
    if len > 0 && len < offer.size && describes(part, offer.size, &offer.sha256) {
        return len;
    }
    for p in [part.to_path_buf(), resume_path(part)] {
        if let Err(e) = std::fs::remove_file(&p) {
            if e.kind() != std::io::ErrorKind::NotFound {
                tracing::debug!("{} not removed: {e}", p.display());
            }
        }
    }
    0
}

/// Whether `part` already holds the whole offered file: its resume file names this file,
/// its length is the size, and its sha256 (computed on the blocking pool) matches. A
/// whole-length part that does not verify is left for [`held`] to remove.
pub async fn complete(part: &Path, offer: &Offer) -> bool {
    let len = std::fs::metadata(part).map(|m| m.len()).unwrap_or(0);
    if len == 0 || len != offer.size || !describes(part, offer.size, &offer.sha256) {
        return false;
    }
    let p = part.to_path_buf();
    let sha = tokio::task::spawn_blocking(move || crate::rdt::sha256_of(&p)).await;
    matches!(sha, Ok(Ok(s)) if s == offer.sha256)
}

/// A re-run gets a new offer id: the `.part` of an earlier attempt at the same file (same
/// name, size and sha256 in its resume file) is adopted by renaming it and its resume file
/// to `part`. Nothing happens when `part` already has a resume file.
pub fn adopt(out_dir: &Path, name: &str, offer: &Offer, part: &Path) {
    adopt_earlier(
        out_dir,
        name,
        "resume",
        part,
        &resume_path(part),
        |_, old_part| describes(old_part, offer.size, &offer.sha256),
    );
}

/// Finds `.NAME.OTHER_OFFER.part` whose sidecar `.NAME.OTHER_OFFER.SUFFIX` (resume file or
/// RDT bitmap) `matches` and renames both to `part` and `sidecar`. Nothing happens when
/// `sidecar` already exists (this attempt has its own state).
pub(crate) fn adopt_earlier(
    out_dir: &Path,
    name: &str,
    suffix: &str,
    part: &Path,
    sidecar: &Path,
    matches: impl Fn(&Path, &Path) -> bool,
) {
    if sidecar.exists() {
        return;
    }
    let Ok(dir) = std::fs::read_dir(out_dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    let dot_suffix = format!(".{suffix}");
    for e in dir.flatten() {
        let fname = e.file_name().to_string_lossy().into_owned();
        let Some(mid) = fname
            .strip_prefix(&prefix)
            .and_then(|r| r.strip_suffix(dot_suffix.as_str()))
        else {
            continue;
        };
        if mid.is_empty() || mid.contains('.') {
            continue;
        }
        let (old_sidecar, old_part) = (e.path(), out_dir.join(format!("{prefix}{mid}.part")));
        if old_part.is_file() && matches(&old_sidecar, &old_part) {
            if std::fs::rename(&old_part, part).is_ok()
                && std::fs::rename(&old_sidecar, sidecar).is_ok()
            {
                tracing::info!("resuming {name} from {}", old_part.display());
            }
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(id: &str, size: u64, sha: &str) -> Offer {
        Offer {
            offer_id: id.into(),
            file_id: None,
            filename: "big.log".into(),
            size,
            sha256: sha.into(),
            expires_at: 0,
            request_id: None,
            tool_call: None,
            mode: "nplt".into(),
        }
    }

    #[test]
    fn a_part_resumes_only_for_the_file_it_was_recorded_for() {
        let d = tempfile::tempdir().expect("dir");
        let part = d.path().join(".big.log.o1.part");
        std::fs::write(&part, vec![b'x'; 400]).expect("part");
        record(&part, 1000, "aa").expect("record");
        assert_eq!(held(&part, &offer("o1", 1000, "aa")), 400);
        // Another file with the same name (other content or size): not resumed, removed.
        assert_eq!(held(&part, &offer("o1", 1000, "bb")), 0);
        assert!(!part.exists() && !resume_path(&part).exists());

        // No resume file: the bytes are of unknown origin.
        std::fs::write(&part, vec![b'x'; 400]).expect("part");
        assert_eq!(held(&part, &offer("o1", 1000, "aa")), 0);
        // A complete-length part is not a prefix to resume (it is verified from scratch).
        std::fs::write(&part, vec![b'x'; 1000]).expect("part");
        record(&part, 1000, "aa").expect("record");
        assert_eq!(held(&part, &offer("o1", 1000, "aa")), 0);
    }

    #[tokio::test]
    async fn a_whole_part_that_verifies_is_complete_and_one_that_does_not_is_not() {
        use sha2::{Digest, Sha256};
        let d = tempfile::tempdir().expect("dir");
        let part = d.path().join(".big.log.o1.part");
        let body = b"all of it\n".repeat(100);
        let sha = hex::encode(Sha256::digest(&body));
        std::fs::write(&part, &body).expect("part");
        record(&part, body.len() as u64, &sha).expect("record");
        let o = offer("o1", body.len() as u64, &sha);
        assert!(complete(&part, &o).await);
        // Same length, other bytes: not complete, and `held` then removes it.
        std::fs::write(&part, vec![b'z'; body.len()]).expect("part");
        assert!(!complete(&part, &o).await);
        assert_eq!(held(&part, &o), 0);
        assert!(!part.exists());
        // A prefix is not complete.
        std::fs::write(&part, &body[..10]).expect("part");
        record(&part, body.len() as u64, &sha).expect("record");
        assert!(!complete(&part, &o).await);
    }

    #[test]
    fn a_rerun_adopts_the_part_of_an_earlier_offer_of_the_same_file() {
        let d = tempfile::tempdir().expect("dir");
        let old = d.path().join(".big.log.o1.part");
        std::fs::write(&old, vec![b'x'; 300]).expect("part");
        record(&old, 1000, "aa").expect("record");
        let other = d.path().join(".big.log.o2.part");
        std::fs::write(&other, vec![b'y'; 500]).expect("part");
        record(&other, 999, "cc").expect("record");

        let new = d.path().join(".big.log.o3.part");
        let o = offer("o3", 1000, "aa");
        adopt(d.path(), "big.log", &o, &new);
        assert_eq!(held(&new, &o), 300);
        assert!(!old.exists());
        // The part of the other file stays where it was.
        assert!(other.exists());
        assert_eq!(resume_path(&new), d.path().join(".big.log.o3.resume"));
    }
}
