//! The schema a plan resolves against, and how a field asked is found in it: by name,
//! role, case, separators or a role's stand-in.

use llmops_common::query::Field;

use super::FieldRef;
use crate::table::def::{FieldSpec, Origin, Tag};
use crate::table::error::QueryError;

/// A field's name without case or separators: `Event ID`, `event-id` and `Event_ID` are
/// one name.
pub(crate) fn bare_name(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The schema a plan resolves against.
pub struct Table<'a> {
    pub name: &'a str,
    pub fields: &'a [FieldSpec],
    pub time: Option<usize>,
    pub level: Option<usize>,
    pub tags: &'a [Tag],
    pub format: &'a str,
    /// The format's own level words (klog's `E`), to a level's name.
    pub level_map: Option<&'a std::collections::BTreeMap<String, String>>,
}

impl Table<'_> {
    fn field_list(&self) -> String {
        self.fields
            .iter()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Finds a field by name (exact, then any case), then by role.
    pub fn resolve(&self, asked: &Field) -> Result<FieldRef, QueryError> {
        let name = asked.as_str();
        let by = |i: usize| FieldRef::of(self.fields, i);
        // `time` and `level` are the event's own, even where another key has that name (a
        // zap line's `ts` is its time; gin's `time` beside it is a request's).
        let lower = name.to_ascii_lowercase();
        let special = match lower.as_str() {
            "time" | "timestamp" => self.time,
            "level" | "severity" => self.level,
            _ => None,
        };
        if let Some(i) = special {
            return Ok(by(i));
        }
        if let Some(i) = self.fields.iter().position(|f| f.name == name) {
            return Ok(by(i));
        }
        // A role asked by its name wins over a field whose name differs only in case: in a
        // journal, `unit` is `_SYSTEMD_UNIT` (every event's unit), not `UNIT` (the unit a
        // few of systemd's own messages are about).
        // Among the fields with the role, a declared one first, then the key the roles table
        // lists first (auditd's `acct`, the account, before `uid`, the process's user id).
        let rank = |f: &FieldSpec| match &f.origin {
            Origin::Key(k)
            | Origin::InMessage { key: k, .. }
            | Origin::InRecord(k)
            | Origin::InLine(k) => {
                1 + crate::table::roles::key_rank(&lower, k).unwrap_or(usize::MAX - 1)
            }
            _ => 0,
        };
        let with_role = self.fields.iter().enumerate();
        if let Some((i, _)) = with_role
            .filter(|(_, f)| f.roles.contains(&lower))
            .min_by_key(|&(i, f)| (rank(f), i))
        {
            return Ok(by(i));
        }
        if let Some(i) = self
            .fields
            .iter()
            .position(|f| f.name.eq_ignore_ascii_case(name))
        {
            return Ok(by(i));
        }
        // A name said with other separators (`Event ID` for a column `Event_ID`,
        // `event-id`), when one field is so written.
        let wanted = bare_name(name);
        let mut alike = self
            .fields
            .iter()
            .enumerate()
            .filter(|(_, f)| !wanted.is_empty() && bare_name(&f.name) == wanted);
        if let (Some((i, _)), None) = (alike.next(), alike.next()) {
            return Ok(by(i));
        }
        for alt in crate::table::roles::fallbacks(&lower) {
            let found = self
                .fields
                .iter()
                .position(|f| f.name == *alt || f.roles.contains(alt));
            if let Some(i) = found {
                return Ok(by(i));
            }
        }
        Err(QueryError::UnknownField {
            field: name.to_string(),
            table: format!("{} ({})", self.name, self.format),
            available: self.field_list(),
        })
    }

    /// Resolves a field that may be absent (the whole event) for `contains`/`regex`:
    /// `message` without a message field is the whole event.
    pub(super) fn resolve_text(
        &self,
        asked: Option<&Field>,
    ) -> Result<Option<FieldRef>, QueryError> {
        match asked {
            None => Ok(None),
            Some(f) => match self.resolve(f) {
                Ok(r) => Ok(Some(r)),
                Err(_) if matches!(f.as_str(), "message" | "msg" | "event" | "line" | "text") => {
                    Ok(None)
                }
                Err(e) => Err(e),
            },
        }
    }
}
