//! Key paths of XML elements (`<appender name="FILE">` -> `appender_FILE`).

use super::{dotted, KeyPath};

/// The segment of an XML element: its name (`:` as `_`) and the words of its `name` or
/// `id` attribute (`<appender name="FILE">` -> `appender_FILE`, `<logger
/// name="com.shop.pay">` -> `logger_com_shop_pay`).
fn xml_segment(name: &str, attrs: &str) -> String {
    let mut seg = name.replace(':', "_");
    let value = [" name=\"", " id=\""]
        .iter()
        .find_map(|k| attrs.find(k).map(|i| &attrs[i + k.len()..]))
        .and_then(|v| v.split('"').next());
    for w in value
        .into_iter()
        .flat_map(|v| v.split(|c: char| !(c.is_alphanumeric() || c == '_')))
    {
        if !w.is_empty() && seg.len() < 100 {
            seg.push('_');
            seg.push_str(w);
        }
    }
    seg
}

/// Per line, the element the line opens (or opens and closes) first, under the elements
/// open around it. A byte scan over the whole text: start tags may span lines, comments
/// and declarations are skipped, an unmatched end tag closes nothing.
pub(super) fn xml_paths(text: &str) -> Vec<Option<KeyPath>> {
    let mut out: Vec<Option<KeyPath>> = vec![None; text.lines().count()];
    let b = text.as_bytes();
    // Open elements: (name, segment).
    let mut stack: Vec<(String, String)> = Vec::new();
    let (mut i, mut line) = (0usize, 0usize);
    // Moves `i` past the first `end` at or after it, counting the lines it crosses.
    let skip_past = |i: &mut usize, line: &mut usize, end: &str| {
        let stop = text[*i..].find(end).map_or(b.len(), |k| *i + k + end.len());
        *line += b[*i..stop].iter().filter(|&&c| c == b'\n').count();
        *i = stop;
    };
    while i < b.len() {
        match b[i] {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'<' if b[i..].starts_with(b"<!--") => skip_past(&mut i, &mut line, "-->"),
            b'<' if b[i..].starts_with(b"<?") || b[i..].starts_with(b"<!") => {
                skip_past(&mut i, &mut line, ">")
            }
            b'<' => {
                let close = b.get(i + 1) == Some(&b'/');
                let start = i + 1 + usize::from(close);
                let len = b[start..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || b"_-.:".contains(c))
                    .count();
                let name = &text[start..start + len];
                if name.is_empty() || !name.as_bytes()[0].is_ascii_alphabetic() {
                    i += 1;
                    continue;
                }
                let tag_line = line;
                let from = i;
                skip_past(&mut i, &mut line, ">");
                if close {
                    if let Some(k) = stack.iter().rposition(|(n, _)| n == name) {
                        stack.truncate(k);
                    }
                    continue;
                }
                let tag = &text[from..i];
                let seg = xml_segment(name, tag);
                if let Some(slot) = out.get_mut(tag_line).filter(|s| s.is_none()) {
                    *slot = Some(dotted(stack.iter().map(|(_, s)| s.as_str()), &seg));
                }
                if !tag.ends_with("/>") {
                    stack.push((name.to_string(), seg));
                }
            }
            _ => i += 1,
        }
    }
    out
}
