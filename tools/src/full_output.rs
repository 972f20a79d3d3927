//! A tool step's whole output (what the session stores for paging) and the cut that keeps
//! the model's and the result data's copy within the output cap.

use super::human_size;

/// A step's whole output, as much as the tool kept of it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FullOutput {
    pub text: String,
    /// Bytes the tool produced (more than `text.len()` when the tool's own cap cut it).
    pub produced: u64,
}

impl FullOutput {
    /// Cuts a captured `stdout` to `max` bytes (at a character boundary) for the model and
    /// the tool's data, setting `truncated`; returns the whole capture when it was cut. A
    /// capture that already hit its own cap (`truncated` on entry) says so in its last line.
    pub fn split(stdout: &mut String, truncated: &mut bool, max: usize) -> Option<FullOutput> {
        if stdout.len() <= max && !*truncated {
            return None;
        }
        let mut whole = stdout.clone();
        if *truncated {
            if !whole.ends_with('\n') {
                whole.push('\n');
            }
            whole.push_str(&format!(
                "[输出超过 {cap} 上限，其余未保存 / output over the {cap} cap, the rest was not kept]\n",
                cap = human_size(whole.len() as u64)
            ));
        }
        if stdout.len() > max {
            let mut end = max;
            while !stdout.is_char_boundary(end) {
                end -= 1;
            }
            stdout.truncate(end);
            *truncated = true;
        }
        let produced = whole.len() as u64;
        Some(FullOutput {
            text: whole,
            produced,
        })
    }
}
