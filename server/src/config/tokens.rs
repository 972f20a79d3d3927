//! Auth tokens: parsing `--auth-token [NAME=]TOKEN` (repeatable) and `auth_token` /
//! `auth_tokens` from the file, the strength and uniqueness rules, and finding the owner
//! whose token a HELLO presented.

use std::collections::BTreeMap;

use llmops_common::constant_time_eq;

use super::{ConfigError, MIN_TOKEN_CHARS};
use crate::store::Owner;

/// Longest token name.
pub const MAX_NAME_CHARS: usize = 32;

/// A token clients may present in HELLO, and the owner whose sessions it sees.
#[derive(Clone, PartialEq, Eq)]
pub struct AuthToken {
    pub owner: Owner,
    secret: String,
}

impl std::fmt::Debug for AuthToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthToken")
            .field("owner", &self.owner)
            .field("secret", &"<hidden>")
            .finish()
    }
}

impl AuthToken {
    pub fn new(owner: Owner, secret: &str) -> AuthToken {
        AuthToken {
            owner,
            secret: secret.to_string(),
        }
    }

    /// Parses a flag value: `NAME=TOKEN` when NAME is a valid name ([`valid_name`]) and
    /// TOKEN is not empty and does not start with `=`; anything else is one unnamed token
    /// (so base64 padding such as `abc==` is never read as a name).
    pub fn parse_arg(s: &str) -> AuthToken {
        if let Some((name, secret)) = s.split_once('=') {
            if valid_name(name) && !secret.is_empty() && !secret.starts_with('=') {
                return AuthToken::new(Owner::named(name), secret);
            }
        }
        AuthToken::new(Owner::unnamed(), s)
    }

    fn strength(&self) -> usize {
        self.secret.chars().filter(|c| !c.is_whitespace()).count()
    }
}

/// A token name: 1 to 32 ASCII letters, digits, `_`, `-` or `.`.
pub fn valid_name(name: &str) -> bool {
    (1..=MAX_NAME_CHARS).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// The tokens a configuration asks for: the flag values when any were given, else the
/// file's `auth_token` (same syntax as the flag) and `auth_tokens` table. Empty values are
/// ignored (no token).
pub fn collect(
    flags: &[String],
    file_token: Option<&str>,
    file_table: &BTreeMap<String, String>,
) -> Result<Vec<AuthToken>, ConfigError> {
    let mut out: Vec<AuthToken> = Vec::new();
    if flags.iter().any(|t| !t.is_empty()) {
        out.extend(
            flags
                .iter()
                .filter(|t| !t.is_empty())
                .map(|t| AuthToken::parse_arg(t)),
        );
    } else {
        out.extend(
            file_token
                .filter(|t| !t.is_empty())
                .map(AuthToken::parse_arg),
        );
        for (name, secret) in file_table {
            if !valid_name(name) {
                return Err(ConfigError::Invalid(format!(
                    "令牌名称无效 / auth_tokens: invalid name {name:?}: use 1 to \
                     {MAX_NAME_CHARS} letters, digits, '_', '-' or '.'"
                )));
            }
            out.push(AuthToken::new(Owner::named(name), secret));
        }
    }
    Ok(out)
}

/// Every token strong enough, one unnamed token at most, names and secrets unique.
pub fn validate(tokens: &[AuthToken]) -> Result<(), ConfigError> {
    for t in tokens {
        let strong = t.strength();
        if strong < MIN_TOKEN_CHARS {
            return Err(if t.owner.is_unnamed() {
                ConfigError::WeakToken(strong)
            } else {
                ConfigError::WeakNamedToken {
                    name: t.owner.as_str().to_string(),
                    chars: strong,
                }
            });
        }
    }
    for (i, a) in tokens.iter().enumerate() {
        for b in &tokens[i + 1..] {
            if a.owner == b.owner {
                return Err(ConfigError::Invalid(format!(
                    "令牌名称重复 / two auth tokens are named {}; give each its own name",
                    a.owner
                )));
            }
            if a.secret == b.secret {
                return Err(ConfigError::Invalid(format!(
                    "两个令牌相同 / the auth tokens of {} and {} are the same; each needs its own",
                    a.owner, b.owner
                )));
            }
        }
    }
    Ok(())
}

/// The owner whose token `presented` is, comparing against every token in constant time
/// (no early exit, so the time does not tell which one nearly matched).
pub fn owner_of(tokens: &[AuthToken], presented: &str) -> Option<Owner> {
    let mut found = None;
    for t in tokens {
        if constant_time_eq(presented.as_bytes(), t.secret.as_bytes()) && found.is_none() {
            found = Some(t.owner.clone());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_only_where_they_cannot_be_part_of_a_token() {
        let t = AuthToken::parse_arg("alice=0123456789abcdef");
        assert_eq!(t.owner, Owner::named("alice"));
        assert_eq!(t.secret, "0123456789abcdef");
        // Base64 padding, an empty or a spaced "name": one unnamed token.
        for s in [
            "YWJjZGVmZ2hpamtsbW5vcA==",
            "abc=",
            "a b=0123456789abcdef",
            "=0123456789abcdef",
        ] {
            let t = AuthToken::parse_arg(s);
            assert!(t.owner.is_unnamed(), "{s}");
            assert_eq!(t.secret, s);
        }
        // Only the first '=' splits.
        let t = AuthToken::parse_arg("bob=x=0123456789abcdef");
        assert_eq!(
            (t.owner.as_str(), t.secret.as_str()),
            ("bob", "x=0123456789abcdef")
        );
        assert!(!valid_name(&"n".repeat(33)));
        assert!(valid_name("ops-team.1_a"));
    }

    #[test]
    fn the_presented_token_finds_its_owner() {
        let tokens = vec![
            AuthToken::parse_arg("alice=aaaaaaaaaaaaaaaa1"),
            AuthToken::parse_arg("bob=bbbbbbbbbbbbbbbb2"),
            AuthToken::parse_arg("cccccccccccccccc3"),
        ];
        validate(&tokens).expect("valid");
        assert_eq!(
            owner_of(&tokens, "bbbbbbbbbbbbbbbb2"),
            Some(Owner::named("bob"))
        );
        assert_eq!(
            owner_of(&tokens, "cccccccccccccccc3"),
            Some(Owner::unnamed())
        );
        assert_eq!(owner_of(&tokens, "bob=bbbbbbbbbbbbbbbb2"), None);
        assert_eq!(owner_of(&tokens, ""), None);
        assert_eq!(owner_of(&[], "x"), None);
    }

    #[test]
    fn weak_duplicate_and_shared_tokens_are_refused() {
        let weak = [AuthToken::parse_arg("alice=short-one")];
        match validate(&weak) {
            Err(e @ ConfigError::WeakNamedToken { .. }) => {
                let msg = e.to_string();
                assert!(msg.contains("alice") && msg.contains("it has 9"), "{msg}");
            }
            other => panic!("expected WeakNamedToken, got {other:?}"),
        }
        let dup_name = [
            AuthToken::parse_arg("alice=0123456789abcdef"),
            AuthToken::parse_arg("alice=fedcba9876543210"),
        ];
        assert!(matches!(validate(&dup_name), Err(ConfigError::Invalid(_))));
        let two_unnamed = [
            AuthToken::parse_arg("0123456789abcdef"),
            AuthToken::parse_arg("fedcba9876543210"),
        ];
        assert!(matches!(
            validate(&two_unnamed),
            Err(ConfigError::Invalid(_))
        ));
        let same_secret = [
            AuthToken::parse_arg("alice=0123456789abcdef"),
            AuthToken::parse_arg("bob=0123456789abcdef"),
        ];
        assert!(matches!(
            validate(&same_secret),
            Err(ConfigError::Invalid(_))
        ));
    }
}
