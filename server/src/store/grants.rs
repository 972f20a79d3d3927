//! Standing grants in SQLite: the rule an operator's "approve always" granted, its lifetime,
//! the session that granted it and how often it approved an action without asking.
//!
//! Visibility: a session sees its own session-lifetime grants and the until-revoked grants
//! of its owner (the auth token's name, see `store/sessions.rs`): a grant is stamped with
//! the granting session's owner, so it outlives that session and stays its owner's. Grants
//! made before owners existed are the unnamed owner's. Session-lifetime grants are deleted with their session (a trigger, so every
//! way a session row goes takes them along); until-revoked grants stay until revoked.

use llmops_policy::grant::GrantRule;
use protocol::GrantLifetime;
use rusqlite::{params, OptionalExtension};

use super::{now_rfc3339, Owner, Store, StoreError};

/// The table and the trigger; run on every open (`IF NOT EXISTS`), so older databases gain
/// them on their first start with this version.
pub(super) const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS grants (
    grant_id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    rule TEXT NOT NULL,
    text TEXT NOT NULL,
    lifetime TEXT NOT NULL,
    created_at TEXT NOT NULL,
    uses INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS grants_session ON grants(session_id);
CREATE TRIGGER IF NOT EXISTS grants_die_with_session AFTER DELETE ON sessions
BEGIN
    DELETE FROM grants WHERE session_id = old.id AND lifetime = 'session';
END;
"#;

/// Adds the `owner` column to a `grants` table made before owners existed.
pub(super) fn migrate(c: &rusqlite::Connection) -> rusqlite::Result<()> {
    super::add_column_if_missing(c, "grants", "owner", "TEXT NOT NULL DEFAULT ''")
}

/// One stored grant. `rule` was validated (`GrantRule::parse`) when it was read.
#[derive(Debug, Clone, PartialEq)]
pub struct GrantRow {
    pub grant_id: String,
    pub session_id: String,
    pub rule: GrantRule,
    /// The rule as the operator saw it when granting.
    pub text: String,
    pub lifetime: GrantLifetime,
    pub created_at: String,
    pub uses: u64,
}

impl GrantRow {
    pub fn info(&self) -> protocol::GrantInfo {
        protocol::GrantInfo {
            grant_id: self.grant_id.clone(),
            scope: protocol::GrantScope {
                rule: self.rule.to_tokens(),
                text: self.text.clone(),
            },
            lifetime: self.lifetime,
            session_id: self.session_id.clone(),
            created_at: self.created_at.clone(),
            uses: self.uses,
        }
    }
}

fn lifetime_str(l: GrantLifetime) -> &'static str {
    match l {
        GrantLifetime::Session => "session",
        GrantLifetime::UntilRevoked => "until_revoked",
    }
}

fn parse_lifetime(s: &str) -> Option<GrantLifetime> {
    match s {
        "session" => Some(GrantLifetime::Session),
        "until_revoked" => Some(GrantLifetime::UntilRevoked),
        _ => None,
    }
}

/// The raw columns of a row, before the rule and lifetime are checked.
type RawGrant = (String, String, String, String, String, String, i64);

const VISIBLE: &str =
    "SELECT grant_id, session_id, rule, text, lifetime, created_at, uses FROM grants
     WHERE (lifetime = 'until_revoked' AND owner = ?2)
        OR (lifetime = 'session' AND session_id = ?1)
     ORDER BY created_at, rowid";

/// A row whose rule or lifetime no longer parses is skipped with a warning: it never
/// matches anything (failing closed), and it is not shown as if it did.
fn checked(raw: RawGrant) -> Option<GrantRow> {
    let (grant_id, session_id, rule, text, lifetime, created_at, uses) = raw;
    let tokens: Vec<String> = match serde_json::from_str(&rule) {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!(grant = %grant_id, "stored grant rule is not a token list ({e}); ignored");
            return None;
        }
    };
    let rule = match GrantRule::parse(&tokens) {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!(grant = %grant_id, "stored grant rule refused ({e}); ignored");
            return None;
        }
    };
    let Some(lifetime) = parse_lifetime(&lifetime) else {
        tracing::warn!(grant = %grant_id, "stored grant has an unknown lifetime {lifetime:?}; ignored");
        return None;
    };
    Some(GrantRow {
        grant_id,
        session_id,
        rule,
        text,
        lifetime,
        created_at,
        uses: uses.max(0) as u64,
    })
}

impl Store {
    /// Stores a new grant of `rule` for `session_id` of `owner`; returns its row.
    pub fn insert_grant(
        &self,
        owner: &Owner,
        session_id: &str,
        rule: &GrantRule,
        text: &str,
        lifetime: GrantLifetime,
    ) -> Result<GrantRow, StoreError> {
        let row = GrantRow {
            grant_id: uuid::Uuid::new_v4().simple().to_string(),
            session_id: session_id.to_string(),
            rule: rule.clone(),
            text: text.to_string(),
            lifetime,
            created_at: now_rfc3339(),
            uses: 0,
        };
        let tokens = serde_json::to_string(&row.rule.to_tokens())
            .map_err(|e| StoreError::Forbidden(format!("grant rule not storable: {e}")))?;
        self.with(|c| {
            c.execute(
                "INSERT INTO grants (grant_id, session_id, rule, text, lifetime, created_at, uses, owner)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?7)",
                params![
                    row.grant_id,
                    row.session_id,
                    tokens,
                    row.text,
                    lifetime_str(lifetime),
                    row.created_at,
                    owner.as_str()
                ],
            )
        })?;
        Ok(row)
    }

    /// The grants `session_id` of `owner` can see, oldest first: its own session grants
    /// and the owner's until-revoked grants. The owner is the connection's, never looked up
    /// from the session (which may not be stored yet).
    pub fn visible_grants(
        &self,
        owner: &Owner,
        session_id: &str,
    ) -> Result<Vec<GrantRow>, StoreError> {
        let raw: Vec<RawGrant> = self.with(|c| {
            let mut st = c.prepare(VISIBLE)?;
            let rows = st.query_map(params![session_id, owner.as_str()], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ))
            })?;
            rows.collect()
        })?;
        Ok(raw.into_iter().filter_map(checked).collect())
    }

    /// The first grant visible to `session_id` whose rule matches `argv`, with its use
    /// counted (the returned row shows the new count).
    pub fn use_matching_grant(
        &self,
        owner: &Owner,
        session_id: &str,
        argv: &[String],
    ) -> Result<Option<GrantRow>, StoreError> {
        let Some(mut g) = self
            .visible_grants(owner, session_id)?
            .into_iter()
            .find(|g| g.rule.matches(argv))
        else {
            return Ok(None);
        };
        let uses: Option<i64> = self.with(|c| {
            c.query_row(
                "UPDATE grants SET uses = uses + 1 WHERE grant_id = ?1 RETURNING uses",
                params![g.grant_id],
                |r| r.get(0),
            )
            .optional()
        })?;
        match uses {
            Some(n) => {
                g.uses = n.max(0) as u64;
                Ok(Some(g))
            }
            // Revoked between the read and the update: it no longer approves anything.
            None => Ok(None),
        }
    }

    /// Revokes a grant `session_id` can see; `None` when there is no such grant.
    pub fn revoke_grant(
        &self,
        owner: &Owner,
        session_id: &str,
        grant_id: &str,
    ) -> Result<Option<GrantRow>, StoreError> {
        let Some(g) = self
            .visible_grants(owner, session_id)?
            .into_iter()
            .find(|g| g.grant_id == grant_id)
        else {
            return Ok(None);
        };
        let n =
            self.with(|c| c.execute("DELETE FROM grants WHERE grant_id = ?1", params![grant_id]))?;
        Ok((n > 0).then_some(g))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Owner;

    fn unnamed() -> Owner {
        Owner::unnamed()
    }

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn rule(s: &str) -> GrantRule {
        GrantRule::parse(&argv(s)).expect("rule")
    }

    #[test]
    fn a_matching_grant_counts_its_uses_and_visibility_follows_the_lifetime() {
        let d = tempfile::tempdir().expect("tempdir");
        let s = Store::open(&d.path().join("db.sqlite")).expect("open");
        let a = s.create_session(None).expect("a").id;
        let b = s.create_session(None).expect("b").id;
        let sess = s
            .insert_grant(
                &unnamed(),
                &a,
                &rule("kill -TERM {pid}"),
                "kill -TERM <pid>",
                GrantLifetime::Session,
            )
            .expect("insert");
        let forever = s
            .insert_grant(
                &unnamed(),
                &a,
                &rule("systemctl restart nginx.service"),
                "systemctl restart nginx.service",
                GrantLifetime::UntilRevoked,
            )
            .expect("insert");
        // Session grants are the session's; until-revoked grants every session's.
        let ids = |sid: &str| -> Vec<String> {
            s.visible_grants(&unnamed(), sid)
                .expect("list")
                .into_iter()
                .map(|g| g.grant_id)
                .collect()
        };
        assert_eq!(
            ids(&a),
            vec![sess.grant_id.clone(), forever.grant_id.clone()]
        );
        assert_eq!(ids(&b), vec![forever.grant_id.clone()]);
        assert!(s
            .use_matching_grant(&unnamed(), &b, &argv("kill -TERM 4242"))
            .expect("match")
            .is_none());
        let used = s
            .use_matching_grant(&unnamed(), &a, &argv("kill -TERM 4242"))
            .expect("match")
            .expect("a grant");
        assert_eq!(
            (used.grant_id.as_str(), used.uses),
            (sess.grant_id.as_str(), 1)
        );
        let used = s
            .use_matching_grant(&unnamed(), &a, &argv("kill -TERM 77"))
            .expect("match")
            .expect("a grant");
        assert_eq!(used.uses, 2);
        // An extra argument or another signal is not covered.
        for other in ["kill -TERM 4242 4243", "kill -KILL 4242", "kill -TERM 1"] {
            assert!(
                s.use_matching_grant(&unnamed(), &a, &argv(other))
                    .expect("match")
                    .is_none(),
                "{other}"
            );
        }
        // Revoking needs visibility: b cannot revoke a's session grant.
        assert!(s
            .revoke_grant(&unnamed(), &b, &sess.grant_id)
            .expect("revoke")
            .is_none());
        assert!(s
            .revoke_grant(&unnamed(), &a, &sess.grant_id)
            .expect("revoke")
            .is_some());
        assert!(s
            .revoke_grant(&unnamed(), &a, &sess.grant_id)
            .expect("revoke")
            .is_none());
        assert_eq!(ids(&a), vec![forever.grant_id.clone()]);
    }

    #[test]
    fn session_grants_die_with_the_session_and_until_revoked_ones_survive_a_reopen() {
        let d = tempfile::tempdir().expect("tempdir");
        let path = d.path().join("db.sqlite");
        let (a, forever) = {
            let s = Store::open(&path).expect("open");
            let a = s.create_session(None).expect("a").id;
            s.append_message(&a, "user", "restart nginx", &[])
                .expect("append");
            s.insert_grant(
                &unnamed(),
                &a,
                &rule("kill {pid}"),
                "kill <pid>",
                GrantLifetime::Session,
            )
            .expect("insert");
            let forever = s
                .insert_grant(
                    &unnamed(),
                    &a,
                    &rule("systemctl restart {unit}"),
                    "systemctl restart <unit>",
                    GrantLifetime::UntilRevoked,
                )
                .expect("insert");
            (a, forever)
        };
        let s = Store::open(&path).expect("reopen");
        assert_eq!(s.visible_grants(&unnamed(), &a).expect("list").len(), 2);
        s.delete_session(&a).expect("delete");
        let left = s.visible_grants(&unnamed(), "any-session").expect("list");
        assert_eq!(left.len(), 1);
        assert_eq!(left[0].grant_id, forever.grant_id);
        assert_eq!(left[0].rule.to_tokens(), argv("systemctl restart {unit}"));
        assert!(s
            .use_matching_grant(&unnamed(), "other", &argv("kill 4242"))
            .expect("match")
            .is_none());
    }

    #[test]
    fn a_corrupted_rule_row_never_matches() {
        let d = tempfile::tempdir().expect("tempdir");
        let s = Store::open(&d.path().join("db.sqlite")).expect("open");
        s.with(|c| {
            c.execute(
                "INSERT INTO grants (grant_id, session_id, rule, text, lifetime, created_at, uses)
                 VALUES ('g', 's', '[\"{anything}\"]', 'x', 'until_revoked', 'now', 0)",
                [],
            )
        })
        .expect("insert");
        assert!(s.visible_grants(&unnamed(), "s").expect("list").is_empty());
        assert!(s
            .use_matching_grant(&unnamed(), "s", &argv("{anything}"))
            .expect("match")
            .is_none());
    }

    #[test]
    fn until_revoked_grants_are_seen_only_by_sessions_of_the_same_owner() {
        let d = tempfile::tempdir().expect("tempdir");
        let s = Store::open(&d.path().join("db.sqlite")).expect("open");
        let (alice, bob) = (Owner::named("alice"), Owner::named("bob"));
        let a1 = s.create_session_for(&alice, None).expect("a1").id;
        let a2 = s.create_session_for(&alice, None).expect("a2").id;
        let b1 = s.create_session_for(&bob, None).expect("b1").id;
        let u1 = s.create_session(None).expect("u1").id;
        let g = s
            .insert_grant(
                &alice,
                &a1,
                &rule("systemctl restart nginx.service"),
                "systemctl restart nginx.service",
                GrantLifetime::UntilRevoked,
            )
            .expect("insert");
        let restart = argv("systemctl restart nginx.service");
        assert_eq!(s.visible_grants(&alice, &a2).expect("list").len(), 1);
        for (owner, other) in [(&bob, &b1), (&unnamed(), &u1)] {
            assert!(s.visible_grants(owner, other).expect("list").is_empty());
            assert!(s
                .use_matching_grant(owner, other, &restart)
                .expect("match")
                .is_none());
            assert!(s
                .revoke_grant(owner, other, &g.grant_id)
                .expect("revoke")
                .is_none());
        }
        // A session not stored yet (reserved at HELLO) sees its owner's grants, never
        // the unnamed owner's.
        let reserved = crate::store::new_session_id();
        assert_eq!(s.visible_grants(&alice, &reserved).expect("list").len(), 1);
        assert!(s.visible_grants(&bob, &reserved).expect("list").is_empty());
        // The grant stays its owner's after the granting session is gone.
        s.delete_session(&a1).expect("delete");
        let used = s
            .use_matching_grant(&alice, &a2, &restart)
            .expect("match")
            .expect("alice's grant");
        assert_eq!(
            (used.grant_id.as_str(), used.uses),
            (g.grant_id.as_str(), 1)
        );
        assert!(s.visible_grants(&bob, &b1).expect("list").is_empty());
    }
}
