//! The small words of a query in the lexicon's `grammar.toml`: grouping, comparisons,
//! units, number words, windows, bucket widths, negation, case, limits, follow-ups and the
//! request for a whole-file summary.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{BucketCue, CompareCue, UnitCue, Words};

/// Number words standing for digits ("一秒", "a second").
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Numbers {
    #[serde(default)]
    pub zh: BTreeMap<String, f64>,
    #[serde(default)]
    pub en: BTreeMap<String, f64>,
}

/// Words that bound a time window.
#[derive(Debug, Clone, Deserialize)]
pub struct WindowWords {
    pub last_zh: Vec<String>,
    pub last_en: Vec<String>,
    pub around_zh: Vec<String>,
    pub around_en: Vec<String>,
    pub between_zh: Vec<String>,
    pub between_en: Vec<String>,
    pub from_zh: Vec<String>,
    pub from_en: Vec<String>,
    pub to_zh: Vec<String>,
    pub to_en: Vec<String>,
    pub around_default_seconds: u64,
}

impl WindowWords {
    fn words(zh: &[String], en: &[String]) -> Words {
        Words {
            zh: zh.to_vec(),
            en: en.to_vec(),
        }
    }

    pub fn last(&self) -> Words {
        Self::words(&self.last_zh, &self.last_en)
    }

    pub fn around(&self) -> Words {
        Self::words(&self.around_zh, &self.around_en)
    }

    pub fn between(&self) -> Words {
        Self::words(&self.between_zh, &self.between_en)
    }

    pub fn from(&self) -> Words {
        Self::words(&self.from_zh, &self.from_en)
    }

    pub fn to(&self) -> Words {
        Self::words(&self.to_zh, &self.to_en)
    }
}

/// Limit words: "top 5", "前 10 个".
#[derive(Debug, Clone, Deserialize)]
pub struct LimitWords {
    #[serde(flatten)]
    pub before: Words,
    #[serde(default)]
    pub after_zh: Vec<String>,
}

/// Follow-up markers and words referring to the last answer's top item.
#[derive(Debug, Clone, Deserialize)]
pub struct FollowWords {
    #[serde(flatten)]
    pub markers: Words,
    pub refer_zh: Vec<String>,
    pub refer_en: Vec<String>,
}

impl FollowWords {
    pub fn refer(&self) -> Words {
        Words {
            zh: self.refer_zh.clone(),
            en: self.refer_en.clone(),
        }
    }
}

/// `grammar.toml`.
#[derive(Debug, Clone, Deserialize)]
pub struct Grammar {
    pub group: Words,
    /// Group words that rank: before a numeric field they sort by it ("most memory")
    /// instead of grouping by it ("which user_id").
    #[serde(default)]
    pub rank: Words,
    /// Group words that ask: the field after them is shown, never given a value.
    #[serde(default)]
    pub asks: Words,
    pub compare: Vec<CompareCue>,
    pub unit: Vec<UnitCue>,
    pub numbers: Numbers,
    pub window: WindowWords,
    pub bucket: Vec<BucketCue>,
    pub negate: Words,
    /// Words that set two things side by side ("A 和 B", "X vs Y").
    #[serde(default)]
    pub side_by_side: Words,
    /// Negation written after the condition ("fatal 的不算", "404s excluded").
    #[serde(default)]
    pub negate_after: Words,
    pub contains: Words,
    pub case: Words,
    pub limit: LimitWords,
    pub follow: FollowWords,
    pub summary: Words,
    /// Asking what went wrong across the session's logs (the incident summary).
    pub incident: Words,
    /// Function words: never a name or a literal to search for.
    #[serde(default)]
    pub stop: Words,
}
