//! How a download travels: the transfer modes with their one string table (tool arguments,
//! offers in the store, protocol fields all use these words).

use std::fmt;
use std::str::FromStr;

/// A download's transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TransferMode {
    /// The client picks (RDT when reachable, else the TCP connection or HTTP).
    #[default]
    Auto,
    /// Reliable transfer over UDP.
    Rdt,
    /// Over the NPLT (TCP) connection itself.
    Nplt,
    /// A one-time HTTP URL.
    Http,
}

impl TransferMode {
    pub const ALL: [TransferMode; 4] = [
        TransferMode::Auto,
        TransferMode::Rdt,
        TransferMode::Nplt,
        TransferMode::Http,
    ];

    /// The word used on the wire, in the store and in tool arguments (the one string table).
    pub const fn as_str(self) -> &'static str {
        match self {
            TransferMode::Auto => "auto",
            TransferMode::Rdt => "rdt",
            TransferMode::Nplt => "nplt",
            TransferMode::Http => "http",
        }
    }

    /// Exact word.
    pub fn parse(s: &str) -> Option<TransferMode> {
        TransferMode::ALL.into_iter().find(|m| m.as_str() == s)
    }

    /// As typed by a person or a model: surrounding space and case ignored.
    pub fn parse_lenient(s: &str) -> Option<TransferMode> {
        TransferMode::parse(&s.trim().to_lowercase())
    }
}

/// A word that is not a transfer mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownMode(pub String);

impl fmt::Display for UnknownMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "传输方式必须是 auto、rdt、nplt 或 http 之一: {} (unknown transfer mode)",
            self.0
        )
    }
}

impl std::error::Error for UnknownMode {}

impl FromStr for TransferMode {
    type Err = UnknownMode;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TransferMode::parse(s).ok_or_else(|| UnknownMode(s.to_string()))
    }
}

impl fmt::Display for TransferMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for TransferMode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for TransferMode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfer_mode_table_round_trips() {
        let words: Vec<&str> = TransferMode::ALL.iter().map(|m| m.as_str()).collect();
        assert_eq!(words, ["auto", "rdt", "nplt", "http"]);
        for m in TransferMode::ALL {
            assert_eq!(m.as_str().parse::<TransferMode>(), Ok(m));
            assert_eq!(m.to_string(), m.as_str());
        }
        assert_eq!(
            TransferMode::parse_lenient(" RDT "),
            Some(TransferMode::Rdt)
        );
        assert_eq!(TransferMode::parse("RDT"), None, "the table is exact");
        assert!("ftp".parse::<TransferMode>().is_err());
        assert_eq!(TransferMode::default(), TransferMode::Auto);
    }
}
