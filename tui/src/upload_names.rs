//! Upload paths shown as the upload's name: the server keeps an upload at
//! `DATA_DIR/uploads/<file_id>/<name>` (a 32-hex-digit id), and answers and tool lines that
//! quote that path mean the file the operator uploaded as `<name>`. The internal part says
//! nothing to the operator and hides the name, so it is dropped wherever text is shown.

use std::borrow::Cow;

const MARK: &str = "/uploads/";
const ID_LEN: usize = 32;

/// Characters that end a path inside prose or Markdown (quotes, brackets, code ticks, and
/// CJK and full-width punctuation, which Chinese answers put right next to a path).
fn ends_path(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '`' | '"' | '\'' | ')' | '(' | ']' | '[' | ',' | '<' | '>' | '|' | '“' | '”'
        )
        || ('\u{3000}'..='\u{303F}').contains(&c)
        || ('\u{FF00}'..='\u{FFEF}').contains(&c)
}

/// The length of `<32 hex>/<name>` at the start of `s` and where the name starts, if any.
fn id_and_name(s: &str) -> Option<(usize, usize)> {
    let id = s.get(..ID_LEN)?;
    if !id.bytes().all(|b| b.is_ascii_hexdigit()) || s.as_bytes().get(ID_LEN) != Some(&b'/') {
        return None;
    }
    let name_start = ID_LEN + 1;
    let rest = &s[name_start..];
    let name_len = rest.find(ends_path).unwrap_or(rest.len());
    // A name is one path component.
    if name_len == 0 || rest[..name_len].contains('/') {
        return None;
    }
    Some((name_start + name_len, name_start))
}

/// `s` with every `…/uploads/<file_id>/<name>` path replaced by `<name>`.
pub fn upload_names(s: &str) -> Cow<'_, str> {
    if !s.contains(MARK) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut done = 0;
    let mut search = 0;
    while let Some(rel) = s[search..].find(MARK) {
        let at = search + rel;
        let after = at + MARK.len();
        let Some((len, name_at)) = id_and_name(&s[after..]) else {
            search = after;
            continue;
        };
        // The path starts after the last character that ends a path before the mark.
        let start = s[..at]
            .char_indices()
            .rev()
            .find(|(_, c)| ends_path(*c))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let start = start.max(done);
        out.push_str(&s[done..start]);
        out.push_str(&s[after + name_at..after + len]);
        done = after + len;
        search = done;
    }
    out.push_str(&s[done..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "4be1c0aa0000000000000000000000ff";

    #[test]
    fn internal_upload_paths_become_names() {
        let p = format!("/var/lib/llmops/uploads/{ID}/access.log");
        assert_eq!(
            upload_names(&format!("{p} 里有 12 行 ERROR")),
            "access.log 里有 12 行 ERROR"
        );
        assert_eq!(
            upload_names(&format!("read `{p}` (3 lines), then ({p}).")),
            "read `access.log` (3 lines), then (access.log)."
        );
        assert_eq!(
            upload_names(&format!(r#"{{"file_path":"{p}"}}"#)),
            r#"{"file_path":"access.log"}"#
        );
        assert_eq!(
            upload_names(&format!("{p}，共 3 行；{p}")),
            "access.log，共 3 行；access.log"
        );
        // A relative data dir, a path at the very start.
        assert_eq!(
            upload_names(&format!("storage/uploads/{ID}/app.log:17: x")),
            "app.log:17: x"
        );
    }

    #[test]
    fn other_paths_are_left_alone() {
        for s in [
            "/srv/www/uploads/photo.png",
            "/srv/uploads/1234/x.log",
            "no path here",
            "/data/uploads/4be1c0aa0000000000000000000000ff/",
            "/data/uploads/4be1c0aa0000000000000000000000zz/a.log",
        ] {
            assert_eq!(upload_names(s), s);
        }
        assert!(matches!(upload_names("plain"), Cow::Borrowed(_)));
    }
}
