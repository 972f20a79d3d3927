//! The timeouts the session's configs set, as an incident summary quotes them.

use crate::text::Lang;
use crate::tool_data::RunView;
use crate::StepRecord;

/// The configs' lines that set a timeout, as grep printed them.
pub(super) fn timeouts(step: &StepRecord, lang: Lang) -> String {
    let out = RunView::of(&step.data).map_or(step.output.as_str(), |r| r.stdout);
    let lines: Vec<String> = out
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(12)
        .map(|l| format!("- {}", short_path(l.trim())))
        .collect();
    if lines.is_empty() {
        return lang
            .pick(
                "上传的配置里没有设置超时的行。",
                "The uploaded configs set no timeout.",
            )
            .to_string();
    }
    format!(
        "{}\n{}",
        lang.pick("配置中的超时设置：", "Timeouts the configs set:"),
        lines.join("\n")
    )
}

/// `/…/uploads/<id>/nginx.conf:12:…` as `nginx.conf:12:…`.
fn short_path(line: &str) -> String {
    match line.split_once(':') {
        Some((path, rest)) if path.contains('/') => {
            let name = path.rsplit('/').next().unwrap_or(path);
            format!("{name}:{rest}")
        }
        _ => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn grep_lines_show_the_upload_name() {
        assert_eq!(
            super::short_path("/d/uploads/ab12/nginx.conf:14:    proxy_read_timeout 30s;"),
            "nginx.conf:14:    proxy_read_timeout 30s;"
        );
    }
}
