//! Standing-grant rules: an argv pattern that an operator's "approve always" grants. Rules
//! match on argv token by token, never on a string prefix, and a placeholder matches exactly
//! one argument of its type, so a grant can never cover more arguments, options or a
//! different verb than the operator saw.

use std::fmt;

use crate::command::is_unit_name;

/// One token of a rule.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RuleToken {
    /// This exact argument.
    Literal(String),
    /// One process id: decimal, no sign, greater than 1.
    Pid,
    /// One systemd unit name (`is_unit_name`: never an option).
    Unit,
}

impl RuleToken {
    const PID: &'static str = "{pid}";
    const UNIT: &'static str = "{unit}";

    fn matches(&self, arg: &str) -> bool {
        match self {
            RuleToken::Literal(l) => l == arg,
            RuleToken::Pid => is_pid(arg),
            RuleToken::Unit => is_unit_name(arg) && !arg.is_empty(),
        }
    }

    fn as_str(&self) -> &str {
        match self {
            RuleToken::Literal(l) => l,
            RuleToken::Pid => Self::PID,
            RuleToken::Unit => Self::UNIT,
        }
    }
}

/// Whether `s` is a process id a rule may match: digits only, no leading zero, above 1.
pub fn is_pid(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 10
        && s.bytes().all(|b| b.is_ascii_digit())
        && !s.starts_with('0')
        && s.parse::<u32>().is_ok_and(|p| p > 1)
}

/// Why a stored or received rule was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GrantRuleError {
    #[error("授权规则为空 / empty grant rule")]
    Empty,
    #[error("授权规则过长 ({0} 个参数) / grant rule too long ({0} arguments)")]
    TooLong(usize),
    #[error(
        "授权规则的命令必须是字面量: {0} / a grant rule must start with a literal command: {0}"
    )]
    CommandNotLiteral(String),
    #[error("未知占位符: {0} / unknown placeholder: {0}")]
    UnknownPlaceholder(String),
}

/// An argv pattern. The first token is always a literal (the command).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GrantRule {
    tokens: Vec<RuleToken>,
}

const MAX_RULE_TOKENS: usize = 64;

impl GrantRule {
    /// A rule matching exactly this argv and nothing else.
    pub fn exact(argv: &[String]) -> Result<GrantRule, GrantRuleError> {
        Self::new(argv.iter().cloned().map(RuleToken::Literal).collect())
    }

    /// A rule from tokens; the first must be a literal.
    pub fn new(tokens: Vec<RuleToken>) -> Result<GrantRule, GrantRuleError> {
        match tokens.first() {
            None => return Err(GrantRuleError::Empty),
            Some(RuleToken::Literal(_)) => {}
            Some(other) => {
                return Err(GrantRuleError::CommandNotLiteral(
                    other.as_str().to_string(),
                ))
            }
        }
        if tokens.len() > MAX_RULE_TOKENS {
            return Err(GrantRuleError::TooLong(tokens.len()));
        }
        Ok(GrantRule { tokens })
    }

    /// Parses the wire/store form: `{pid}` and `{unit}` are placeholders, any other token
    /// starting with `{` and ending with `}` is refused, everything else is literal.
    pub fn parse(tokens: &[String]) -> Result<GrantRule, GrantRuleError> {
        let parsed = tokens
            .iter()
            .map(|t| match t.as_str() {
                RuleToken::PID => Ok(RuleToken::Pid),
                RuleToken::UNIT => Ok(RuleToken::Unit),
                s if s.starts_with('{') && s.ends_with('}') => {
                    Err(GrantRuleError::UnknownPlaceholder(s.to_string()))
                }
                s => Ok(RuleToken::Literal(s.to_string())),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Self::new(parsed)
    }

    /// The wire/store form (inverse of `parse`).
    pub fn to_tokens(&self) -> Vec<String> {
        self.tokens.iter().map(|t| t.as_str().to_string()).collect()
    }

    pub fn tokens(&self) -> &[RuleToken] {
        &self.tokens
    }

    /// Whether `argv` is covered: same number of arguments, each literal equal, each
    /// placeholder matching exactly one argument of its type.
    pub fn matches(&self, argv: &[String]) -> bool {
        argv.len() == self.tokens.len() && self.tokens.iter().zip(argv).all(|(t, a)| t.matches(a))
    }

    /// Whether everything `other` matches is also matched by `self` (so granting `other`
    /// when `self` exists widens nothing).
    pub fn covers(&self, other: &GrantRule) -> bool {
        self.tokens.len() == other.tokens.len()
            && self
                .tokens
                .iter()
                .zip(&other.tokens)
                .all(|(a, b)| match (a, b) {
                    (RuleToken::Literal(x), RuleToken::Literal(y)) => x == y,
                    (RuleToken::Literal(_), _) => false,
                    (p, RuleToken::Literal(y)) => p.matches(y),
                    (p, q) => p == q,
                })
    }
}

impl fmt::Display for GrantRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for t in &self.tokens {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            f.write_str(t.as_str())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn exact_rule_matches_only_that_argv() {
        let r = GrantRule::exact(&v("systemctl restart nginx.service")).expect("rule");
        assert!(r.matches(&v("systemctl restart nginx.service")));
        assert!(!r.matches(&v("systemctl restart nginx.service extra")));
        assert!(!r.matches(&v("systemctl restart nginx")));
        assert!(!r.matches(&v("systemctl stop nginx.service")));
        assert!(!r.matches(&v("systemctl restart")));
        // Never a string prefix.
        assert!(!r.matches(&["systemctl restart nginx.service".to_string()]));
    }

    #[test]
    fn placeholders_match_one_argument_of_their_type() {
        let r = GrantRule::parse(&v("kill -TERM {pid}")).expect("rule");
        assert!(r.matches(&v("kill -TERM 4242")));
        for bad in [
            "kill -TERM 1",
            "kill -TERM 0",
            "kill -TERM -1",
            "kill -TERM 042",
            "kill -TERM 4242 4243",
            "kill -KILL 4242",
            "kill -TERM 42;rm",
            "kill -TERM 99999999999",
            "kill -TERM +42",
        ] {
            assert!(!r.matches(&v(bad)), "{bad}");
        }
        let u = GrantRule::parse(&v("systemctl restart {unit}")).expect("rule");
        assert!(u.matches(&v("systemctl restart php-fpm.service")));
        for bad in [
            "systemctl restart --force",
            "systemctl restart nginx;reboot",
            "systemctl restart ../x",
            "systemctl restart a*",
            "systemctl restart a b",
        ] {
            assert!(!u.matches(&v(bad)), "{bad}");
        }
    }

    #[test]
    fn parse_round_trips_and_refuses_unknown_placeholders() {
        let t = v("systemctl reload {unit}");
        assert_eq!(GrantRule::parse(&t).expect("rule").to_tokens(), t);
        assert_eq!(
            GrantRule::parse(&v("kill {signal} {pid}")),
            Err(GrantRuleError::UnknownPlaceholder("{signal}".into()))
        );
        assert_eq!(GrantRule::parse(&[]), Err(GrantRuleError::Empty));
        assert!(matches!(
            GrantRule::parse(&v("{unit} restart")),
            Err(GrantRuleError::CommandNotLiteral(_))
        ));
    }

    #[test]
    fn covers_is_the_subset_relation() {
        let wide = GrantRule::parse(&v("kill -TERM {pid}")).expect("rule");
        let narrow = GrantRule::exact(&v("kill -TERM 4242")).expect("rule");
        assert!(wide.covers(&narrow));
        assert!(!narrow.covers(&wide));
        assert!(wide.covers(&wide));
        let other = GrantRule::exact(&v("kill -KILL 4242")).expect("rule");
        assert!(!wide.covers(&other));
    }
}
