//! The states the store records, each an enum with its one string table: an upload's
//! state (also the `state` of upload frames) and a download offer's state. The words are
//! the ones in the database and on the wire; transfer modes are `llmops_common::TransferMode`.

use std::fmt;
use std::str::FromStr;

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

/// A word that is not one of a state's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownState {
    /// Which kind of state (`upload state`, `offer state`, `transfer mode`).
    pub kind: &'static str,
    pub value: String,
}

impl fmt::Display for UnknownState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "未知的状态值: {} / unknown {}: {}",
            self.value, self.kind, self.value
        )
    }
}

impl std::error::Error for UnknownState {}

/// An enum of words: `as_str` / `parse` / `FromStr` / `Display`, serde as the word, and
/// SQLite text columns.
macro_rules! word_enum {
    ($(#[$m:meta])* $name:ident, $kind:literal { $($(#[$vm:meta])* $var:ident => $word:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $var),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$var),+];

            /// The word in the database and on the wire (the one string table).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$var => $word),+
                }
            }

            pub fn parse(s: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|v| v.as_str() == s)
            }
        }

        impl FromStr for $name {
            type Err = UnknownState;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $name::parse(s).ok_or_else(|| UnknownState {
                    kind: $kind,
                    value: s.to_string(),
                })
            }
        }

        /// Compares with a word (the string table's), as tests and logs do.
        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }

        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }

        impl FromSql for $name {
            fn column_result(v: ValueRef<'_>) -> FromSqlResult<Self> {
                let s = v.as_str()?;
                s.parse().map_err(|e| FromSqlError::Other(Box::new(e)))
            }
        }
    };
}

word_enum! {
    /// Where an upload is: receiving, on disk, searchable, being embedded, fully indexed,
    /// or failed (the `detail` says why).
    UploadState, "upload state" {
        /// Bytes still arriving (only in frames; the row is written once saved).
        Receiving => "receiving",
        /// On disk, verified, not yet indexed.
        Saved => "saved",
        /// Lexically searchable; embedding (if on) follows.
        Indexed => "indexed",
        /// Embedding in progress (`detail` is `done/total`).
        Embedding => "embedding",
        /// Lexical and dense index both done.
        Ready => "ready",
        Failed => "failed",
    }
}

word_enum! {
    /// A download offer's life: made, then accepted / rejected / expired, then
    /// transferred or failed (a failed or accepted offer may be accepted again before it
    /// expires, to retry or resume).
    OfferState, "offer state" {
        Pending => "pending",
        Accepted => "accepted",
        Rejected => "rejected",
        Expired => "expired",
        Transferred => "transferred",
        Failed => "failed",
    }
}

impl OfferState {
    /// The verb of a closed offer, for the Chinese half of messages.
    pub fn verb_zh(self) -> &'static str {
        match self {
            OfferState::Accepted => "接受",
            OfferState::Rejected => "拒绝",
            OfferState::Expired => "过期",
            OfferState::Transferred => "完成传输",
            OfferState::Failed => "失败",
            OfferState::Pending => "关闭",
        }
    }
}

impl From<llmops_index::State> for UploadState {
    fn from(s: llmops_index::State) -> Self {
        match s {
            llmops_index::State::Indexed => UploadState::Indexed,
            llmops_index::State::Embedding => UploadState::Embedding,
            llmops_index::State::Ready => UploadState::Ready,
            llmops_index::State::Failed => UploadState::Failed,
        }
    }
}

/// Reads an offer's transfer mode column: the words of `TransferMode` (case-insensitive,
/// for rows written before the mode was normalised).
pub(crate) fn mode_column(
    r: &rusqlite::Row<'_>,
    idx: usize,
) -> rusqlite::Result<llmops_common::TransferMode> {
    let s: String = r.get(idx)?;
    llmops_common::TransferMode::parse_lenient(&s).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            idx,
            rusqlite::types::Type::Text,
            Box::new(UnknownState {
                kind: "transfer mode",
                value: s,
            }),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upload_state_table_round_trips() {
        let words: Vec<&str> = UploadState::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(
            words,
            [
                "receiving",
                "saved",
                "indexed",
                "embedding",
                "ready",
                "failed"
            ]
        );
        for s in UploadState::ALL {
            assert_eq!(s.as_str().parse::<UploadState>(), Ok(*s));
            assert_eq!(
                serde_json::to_value(s).expect("json"),
                serde_json::json!(s.as_str())
            );
            let back: UploadState =
                serde_json::from_value(serde_json::json!(s.as_str())).expect("back");
            assert_eq!(back, *s);
        }
        assert!("Saved".parse::<UploadState>().is_err());
        // The index's states are the same words.
        for s in [
            llmops_index::State::Indexed,
            llmops_index::State::Embedding,
            llmops_index::State::Ready,
            llmops_index::State::Failed,
        ] {
            assert_eq!(UploadState::from(s).as_str(), s.as_str());
        }
    }

    #[test]
    fn offer_state_table_round_trips() {
        let words: Vec<&str> = OfferState::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(
            words,
            [
                "pending",
                "accepted",
                "rejected",
                "expired",
                "transferred",
                "failed"
            ]
        );
        for s in OfferState::ALL {
            assert_eq!(s.as_str().parse::<OfferState>(), Ok(*s));
            assert_eq!(s.to_string(), s.as_str());
        }
        let e = "gone".parse::<OfferState>().expect_err("unknown");
        assert_eq!(
            e.to_string(),
            "未知的状态值: gone / unknown offer state: gone"
        );
        assert_eq!(OfferState::Expired.verb_zh(), "过期");
    }

    #[test]
    fn states_and_modes_round_trip_through_sqlite() {
        let c = rusqlite::Connection::open_in_memory().expect("db");
        c.execute("CREATE TABLE t (u TEXT, o TEXT, m TEXT)", [])
            .expect("table");
        for (i, u) in UploadState::ALL.iter().enumerate() {
            let o = OfferState::ALL[i % OfferState::ALL.len()];
            let m = llmops_common::TransferMode::ALL[i % 4];
            c.execute("DELETE FROM t", []).expect("clear");
            c.execute(
                "INSERT INTO t VALUES (?1, ?2, ?3)",
                rusqlite::params![u, o, m.as_str()],
            )
            .expect("insert");
            let raw: (String, String) = c
                .query_row("SELECT u, o FROM t", [], |r| Ok((r.get(0)?, r.get(1)?)))
                .expect("raw");
            assert_eq!(raw, (u.as_str().to_string(), o.as_str().to_string()));
            let back: (UploadState, OfferState, llmops_common::TransferMode) = c
                .query_row("SELECT u, o, m FROM t", [], |r| {
                    Ok((r.get(0)?, r.get(1)?, mode_column(r, 2)?))
                })
                .expect("typed");
            assert_eq!(back, (*u, o, m));
        }
        c.execute("UPDATE t SET o = 'gone', m = 'RDT'", [])
            .expect("update");
        assert!(c
            .query_row("SELECT o FROM t", [], |r| r.get::<_, OfferState>(0))
            .is_err());
        let m = c
            .query_row("SELECT m FROM t", [], |r| mode_column(r, 0))
            .expect("lenient mode");
        assert_eq!(m, llmops_common::TransferMode::Rdt);
    }
}
