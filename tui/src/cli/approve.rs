//! Script mode's answers to approval requests: `ask` never approves by itself; each
//! `--yes-to 'ARGV'` (split like a POSIX shell splits words: quotes and backslashes, no
//! globbing, no variables) approves exactly that argv, once, if the agent proposes it.
//! Everything else is rejected at once, with a bilingual line on stderr.

use protocol::ApprovalDecision;

/// Why a `--yes-to` value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum YesToError {
    #[error("--yes-to 引号不匹配 / --yes-to has unbalanced quotes: {0}")]
    Quotes(String),
    #[error("--yes-to 为空 / --yes-to is empty")]
    Empty,
}

/// One `--yes-to` argv and whether it was used.
#[derive(Debug, Clone, PartialEq, Eq)]
struct YesTo {
    argv: Vec<String>,
    used: bool,
}

/// The answers of one script run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Approver {
    yes: Vec<YesTo>,
}

/// Splits a `--yes-to` value into argv like a shell would (no glob expansion).
pub fn split_argv(s: &str) -> Result<Vec<String>, YesToError> {
    let argv = shlex::split(s).ok_or_else(|| YesToError::Quotes(s.to_string()))?;
    if argv.is_empty() {
        return Err(YesToError::Empty);
    }
    Ok(argv)
}

impl Approver {
    /// Rejects everything.
    pub fn none() -> Approver {
        Approver::default()
    }

    pub fn new(yes_to: &[String]) -> Result<Approver, YesToError> {
        let yes = yes_to
            .iter()
            .map(|s| {
                Ok(YesTo {
                    argv: split_argv(s)?,
                    used: false,
                })
            })
            .collect::<Result<_, YesToError>>()?;
        Ok(Approver { yes })
    }

    /// The answer to a proposed `argv`: approve once when an unused `--yes-to` is exactly
    /// it (same arguments, same count), else reject.
    pub fn decide(&mut self, argv: &[String]) -> ApprovalDecision {
        match self.yes.iter_mut().find(|y| !y.used && y.argv == argv) {
            Some(y) => {
                y.used = true;
                ApprovalDecision::ApproveOnce
            }
            None => ApprovalDecision::Reject,
        }
    }
}

/// The stderr line for a decision (bilingual).
pub fn decision_line(argv: &[String], d: &ApprovalDecision) -> String {
    let shown =
        shlex::try_join(argv.iter().map(String::as_str)).unwrap_or_else(|_| format!("{argv:?}"));
    match d {
        ApprovalDecision::Reject => format!(
            "已拒绝批准请求（脚本模式不会自动批准，可用 --yes-to 指定）/ approval request \
             rejected: script mode never approves by itself (see --yes-to): {shown}"
        ),
        _ => format!("已按 --yes-to 单次批准 / approved once by --yes-to: {shown}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn yes_to_approves_exactly_that_argv_once() {
        let mut a = Approver::new(&["kill -TERM 4242".into()]).expect("parse");
        // Extra arguments, fewer arguments, another signal: rejected.
        assert_eq!(
            a.decide(&v(&["kill", "-TERM", "4242", "4243"])),
            ApprovalDecision::Reject
        );
        assert_eq!(a.decide(&v(&["kill", "-TERM"])), ApprovalDecision::Reject);
        assert_eq!(
            a.decide(&v(&["kill", "-KILL", "4242"])),
            ApprovalDecision::Reject
        );
        assert_eq!(
            a.decide(&v(&["kill", "-TERM", "42420"])),
            ApprovalDecision::Reject
        );
        assert_eq!(
            a.decide(&v(&["kill", "-TERM", "4242"])),
            ApprovalDecision::ApproveOnce
        );
        // Once: the same argv again is rejected.
        assert_eq!(
            a.decide(&v(&["kill", "-TERM", "4242"])),
            ApprovalDecision::Reject
        );
        assert_eq!(
            Approver::none().decide(&v(&["kill", "-TERM", "4242"])),
            ApprovalDecision::Reject
        );
    }

    #[test]
    fn quoting_splits_like_a_shell_without_globbing() {
        assert_eq!(
            split_argv(r#"rotate-logs 'my service' "a b" c\ d"#).expect("split"),
            v(&["rotate-logs", "my service", "a b", "c d"])
        );
        assert_eq!(
            split_argv("systemctl restart nginx*").expect("split"),
            v(&["systemctl", "restart", "nginx*"])
        );
        assert_eq!(
            split_argv("kill 'unterminated"),
            Err(YesToError::Quotes("kill 'unterminated".into()))
        );
        assert_eq!(split_argv("   "), Err(YesToError::Empty));
        // A quoted argument with a space is one argument: it does not match two.
        let mut a = Approver::new(&["systemctl restart 'a b.service'".into()]).expect("parse");
        assert_eq!(
            a.decide(&v(&["systemctl", "restart", "a", "b.service"])),
            ApprovalDecision::Reject
        );
        assert_eq!(
            a.decide(&v(&["systemctl", "restart", "a b.service"])),
            ApprovalDecision::ApproveOnce
        );
        // A glob is literal: it never matches a real unit name.
        let mut a = Approver::new(&["systemctl restart nginx*".into()]).expect("parse");
        assert_eq!(
            a.decide(&v(&["systemctl", "restart", "nginx.service"])),
            ApprovalDecision::Reject
        );
        // Repeated --yes-to: each approves once.
        let mut a =
            Approver::new(&["kill 11".into(), "kill 11".into(), "kill 12".into()]).expect("parse");
        assert_eq!(a.decide(&v(&["kill", "11"])), ApprovalDecision::ApproveOnce);
        assert_eq!(a.decide(&v(&["kill", "11"])), ApprovalDecision::ApproveOnce);
        assert_eq!(a.decide(&v(&["kill", "11"])), ApprovalDecision::Reject);
        assert_eq!(a.decide(&v(&["kill", "12"])), ApprovalDecision::ApproveOnce);
    }

    #[test]
    fn the_stderr_line_is_bilingual_and_quotes_the_argv() {
        let l = decision_line(
            &v(&["systemctl", "restart", "a b"]),
            &ApprovalDecision::Reject,
        );
        assert!(l.contains("已拒绝") && l.contains("rejected"), "{l}");
        assert!(l.ends_with("systemctl restart 'a b'"), "{l}");
    }
}
