//! Makes untrusted text (model answers, tool output, file names, server errors) safe to
//! draw: strips terminal escape sequences and control characters so nothing the server
//! sends can move the cursor, retitle the window or repaint the screen.

/// Removes CSI/OSC/DCS/SOS/PM/APC sequences, other escapes, C0 and C1 controls and DEL.
/// Keeps `\n` and `\t`; `\r\n` becomes `\n` and a lone `\r` is dropped.
pub fn sanitize(s: &str) -> String {
    // Fast path: most text has no controls at all.
    if !s.chars().any(is_control) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\n' | '\t' => out.push(c),
            '\u{1b}' => match it.next() {
                // CSI: parameters and intermediates up to a final byte in 0x40..=0x7e.
                Some('[') => skip_csi(&mut it),
                // OSC, DCS, SOS, PM, APC: strings ended by BEL or ST (ESC \).
                Some(']' | 'P' | 'X' | '^' | '_') => skip_string(&mut it),
                // Any other escape is ESC plus one character.
                _ => {}
            },
            '\u{9b}' => skip_csi(&mut it),
            '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut it),
            c if is_control(c) => {}
            c => out.push(c),
        }
    }
    out
}

fn is_control(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        // Bidi overrides can make text render in a misleading order.
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn skip_csi(it: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    for c in it.by_ref() {
        if ('\u{40}'..='\u{7e}').contains(&c) {
            return;
        }
    }
}

fn skip_string(it: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(c) = it.next() {
        match c {
            '\u{7}' | '\u{9c}' => return,
            '\u{1b}' => {
                if it.peek() == Some(&'\\') {
                    it.next();
                }
                return;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sanitize;

    #[test]
    fn strips_csi_osc_dcs_and_controls() {
        assert_eq!(sanitize("a\u{1b}[31mred\u{1b}[0m b"), "ared b");
        assert_eq!(sanitize("x\u{1b}]0;title\u{7}y"), "xy");
        assert_eq!(
            sanitize("x\u{1b}]8;;http://e\u{1b}\\link\u{1b}]8;;\u{1b}\\y"),
            "xlinky"
        );
        assert_eq!(sanitize("x\u{1b}Pq#0;2;0\u{1b}\\y"), "xy");
        assert_eq!(sanitize("a\u{8}\u{7}b\r\nc\u{7f}"), "ab\nc");
        assert_eq!(sanitize("a\u{9b}2Jb"), "ab");
        assert_eq!(sanitize("tab\there\n中文🙂"), "tab\there\n中文🙂");
        assert_eq!(sanitize("\u{202e}evil"), "evil");
    }

    #[test]
    fn unterminated_sequences_are_dropped_not_kept() {
        assert_eq!(sanitize("ok\u{1b}["), "ok");
        assert_eq!(sanitize("ok\u{1b}]title without end"), "ok");
        assert_eq!(sanitize("ok\u{1b}"), "ok");
    }
}
