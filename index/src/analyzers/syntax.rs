//! What a file's name says about how its lines read, shared by the answer line and the
//! file's title: which files are prose, which are C sources, and how a comment starts.

/// Markdown and plain prose: `#` starts a heading there, not a comment.
pub fn prose(filename_lower: &str) -> bool {
    [".md", ".markdown", ".rst", ".txt", ".adoc"]
        .iter()
        .any(|e| filename_lower.ends_with(e))
}

/// C and C++ sources: `#define MAX_CONN 512` is what a header sets, not a comment.
pub fn c_family(filename_lower: &str) -> bool {
    [".c", ".h", ".cc", ".cpp", ".hpp", ".hh", ".cxx"]
        .iter()
        .any(|e| filename_lower.ends_with(e))
}

/// The text of a trimmed comment line of a config file without its marker (`#`, `;`,
/// `//`, `<!-- -->`); `None` for any other line. `--` starts one only where `dashes`
/// (SQL, Lua): elsewhere `--port=8080` is a flag.
pub fn comment_text(trimmed: &str, dashes: bool) -> Option<&str> {
    if let Some(rest) = trimmed.strip_prefix("<!--") {
        return Some(rest.trim_end_matches("-->"));
    }
    let dash = dashes.then_some("--");
    ["#", ";", "//"]
        .into_iter()
        .chain(dash)
        .find_map(|p| trimmed.strip_prefix(p))
}

/// A comment line of a config file (`#`, `;`, `//`, `<!--`).
pub fn is_comment(trimmed: &str) -> bool {
    comment_text(trimmed, false).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_prose_and_sources_by_their_markers_and_names() {
        assert_eq!(comment_text("# timeout in s", false), Some(" timeout in s"));
        assert_eq!(comment_text("<!-- logging -->", false), Some(" logging "));
        assert_eq!(comment_text("; pool", false), Some(" pool"));
        assert_eq!(comment_text("-- schema", false), None);
        assert_eq!(comment_text("-- schema", true), Some(" schema"));
        assert!(is_comment("// note") && !is_comment("timeout 275"));
        assert!(prose("notes.md") && !prose("redis.conf"));
        assert!(c_family("limits.h") && !c_family("app.yaml"));
    }
}
