//! Auth tokens: parsing `--auth-token [NAME=]TOKEN` (repeatable) and `auth_token` /
//! `auth_tokens` from the file, the strength and uniqueness rules, and finding the owner
//! whose token a HELLO presented.

use std::collections::BTreeMap;

use llmops_common::constant_time_eq;

use super::{ConfigError, MIN_DISTINCT_CHARS, MIN_TOKEN_CHARS};
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

    fn distinct(&self) -> usize {
        let mut seen: Vec<char> = self.secret.chars().filter(|c| !c.is_whitespace()).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }

    /// The rules one token must meet: visible characters only, no whitespace at either
    /// end, at least [`MIN_TOKEN_CHARS`] non-space characters of which at least
    /// [`MIN_DISTINCT_CHARS`] differ.
    fn check(&self) -> Result<(), ConfigError> {
        let name = self.owner.as_str().to_string();
        if let Some(c) = self.secret.chars().find(|c| invisible(*c)) {
            return Err(ConfigError::InvisibleToken {
                name,
                code: format!("U+{:04X}", c as u32),
            });
        }
        let strong = self.strength();
        if strong < MIN_TOKEN_CHARS {
            return Err(if self.owner.is_unnamed() {
                ConfigError::WeakToken(strong)
            } else {
                ConfigError::WeakNamedToken {
                    name,
                    chars: strong,
                }
            });
        }
        if self.secret.trim() != self.secret {
            return Err(ConfigError::SpacedToken { name });
        }
        let distinct = self.distinct();
        if distinct < MIN_DISTINCT_CHARS {
            return Err(ConfigError::FewDistinctToken { name, distinct });
        }
        Ok(())
    }
}

/// ` NAME` for a named token's messages, nothing for the unnamed one.
pub fn label(name: &str) -> String {
    if name.is_empty() {
        String::new()
    } else {
        format!(" {name}")
    }
}

/// Characters a token must not contain: controls, and format or filler characters that
/// show as nothing (zero-width spaces and joiners, direction marks, the BOM, variation
/// selectors, Hangul fillers, tags). Such a token cannot be typed or seen reliably.
fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c as u32,
            0x00AD
                | 0x034F
                | 0x061C
                | 0x115F..=0x1160
                | 0x17B4..=0x17B5
                | 0x180B..=0x180F
                | 0x200B..=0x200F
                | 0x202A..=0x202E
                | 0x2060..=0x206F
                | 0x3164
                | 0xFE00..=0xFE0F
                | 0xFEFF
                | 0xFFA0
                | 0xFFF0..=0xFFFB
                | 0x1D173..=0x1D17A
                | 0xE0000..=0xE0FFF
        )
}

/// Words and runs that make a token guessable (checked lowercased).
const GUESSABLE: &[&str] = &[
    "password", "passwd", "secret", "token", "changeme", "admin", "letmein", "qwerty", "asdf",
    "welcome", "default", "llmops", "example", "test", "1234", "abcd", "0000", "1111", "aaaa",
];

/// Warnings for tokens that pass the rules but look guessable (a dictionary word, a
/// keyboard or counting run): said at start, not refused.
pub fn warnings(tokens: &[AuthToken]) -> Vec<String> {
    let mut out = Vec::new();
    for t in tokens {
        let lower = t.secret.to_lowercase();
        let found: Vec<&str> = GUESSABLE
            .iter()
            .copied()
            .filter(|w| lower.contains(w))
            .collect();
        if !found.is_empty() {
            let who = label(t.owner.as_str());
            out.push(format!(
                "访问令牌{who} 含常见词或序列 ({}), 容易被猜中；建议用随机令牌 / auth token{who} \
                 contains common words or runs ({}) and may be guessed; prefer a random one \
                 (`openssl rand -hex 16`)",
                found.join(", "),
                found.join(", ")
            ));
        }
    }
    out
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
        t.check()?;
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
            AuthToken::parse_arg("alice=a1b2c3d4e5f6a7b8"),
            AuthToken::parse_arg("bob=b9c8d7e6f5a4b3c2"),
            AuthToken::parse_arg("c0d1e2f3a4b5c6d7"),
        ];
        validate(&tokens).expect("valid");
        assert_eq!(
            owner_of(&tokens, "b9c8d7e6f5a4b3c2"),
            Some(Owner::named("bob"))
        );
        assert_eq!(
            owner_of(&tokens, "c0d1e2f3a4b5c6d7"),
            Some(Owner::unnamed())
        );
        assert_eq!(owner_of(&tokens, "bob=b9c8d7e6f5a4b3c2"), None);
        assert_eq!(owner_of(&tokens, ""), None);
        assert_eq!(owner_of(&[], "x"), None);
    }

    #[test]
    fn guessable_tokens_are_warned_about_not_refused() {
        let tokens = [
            AuthToken::parse_arg("alice=my-secret-password-99"),
            AuthToken::parse_arg("9f86d081884c7d65"),
        ];
        validate(&tokens).expect("valid");
        let w = warnings(&tokens);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].contains("alice") && w[0].contains("password, secret"),
            "{}",
            w[0]
        );
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
        // Entropy: distinct characters, invisible characters, whitespace at the ends.
        let same_char = [AuthToken::parse_arg(&"a".repeat(16))];
        match validate(&same_char) {
            Err(e @ ConfigError::FewDistinctToken { distinct: 1, .. }) => {
                assert!(e.to_string().contains("only 1 distinct"), "{e}");
            }
            other => panic!("expected FewDistinctToken, got {other:?}"),
        }
        let zero_width = [AuthToken::parse_arg(&"\u{200B}".repeat(16))];
        match validate(&zero_width) {
            Err(e @ ConfigError::InvisibleToken { .. }) => {
                assert!(e.to_string().contains("U+200B"), "{e}");
            }
            other => panic!("expected InvisibleToken, got {other:?}"),
        }
        for t in ["0123456789abcdef\u{200D}", "alice=ab\tcdefghijklmnopq"] {
            let r = validate(&[AuthToken::parse_arg(t)]);
            assert!(
                matches!(r, Err(ConfigError::InvisibleToken { .. })),
                "{t:?}: {r:?}"
            );
        }
        let spaced = [AuthToken::parse_arg("0123456789abcdef ")];
        assert!(matches!(
            validate(&spaced),
            Err(ConfigError::SpacedToken { .. })
        ));
        // A passphrase with inner spaces and a random hex token pass.
        validate(&[AuthToken::parse_arg("correct horse battery staple")]).expect("passphrase");
        validate(&[AuthToken::parse_arg("9f86d081884c7d65")]).expect("hex");
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
