//! A setting looked up in the session's configs: after the search of the uploads, the
//! config files among its hits are read whole (the one the question names first, then by
//! rank; at most `MAX_READS`, stopping at the first whose tree holds the key asked for),
//! and the answer comes from their trees. When no hit is a config, or no tree holds any
//! of the question's words, the search's own answer stands.

use llmops_tooldata::SearchData;

use super::answer::{self, config_tree};
use super::slots::{best_upload, config_name, config_upload, hit_name_score};
use super::text::Lang;
use super::tool_data::PageView;
use super::{StepRecord, UploadRef};

/// Most config files read for one question.
pub const MAX_READS: usize = 2;

/// `slots::name_score` from which a hit's file counts as named by the question.
const NAMED: u32 = 75;

/// The config files among a search's hits, in the order to read them: those the question
/// names first, then by rank; each once.
fn config_hits(search: Option<&SearchData>, question: &str) -> Vec<String> {
    let mut hits: Vec<(bool, usize, String)> = Vec::new();
    for (rank, h) in search.map_or(&[][..], |s| &s.results).iter().enumerate() {
        let path = h.filepath.as_str();
        if path.is_empty() {
            continue;
        }
        let name = h.filename.as_str();
        if !config_name(name) || hits.iter().any(|x| x.2 == path) {
            continue;
        }
        let named = hit_name_score(question, name) >= NAMED;
        hits.push((named, rank, path.to_string()));
    }
    hits.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    hits.into_iter().map(|h| h.2).collect()
}

/// The configs read so far, as `(name, text)`.
fn texts(reads: &[StepRecord]) -> Vec<(String, String)> {
    reads
        .iter()
        .filter(|s| s.ok)
        .map(|s| {
            let (name, content) = answer::read_text(&s.data);
            (name.to_string(), content)
        })
        .collect()
}

fn as_configs(texts: &[(String, String)]) -> Vec<config_tree::ConfigText<'_>> {
    texts
        .iter()
        .map(|(name, content)| config_tree::ConfigText { name, content })
        .collect()
}

/// The next config to read after the search (`search`) and the reads so far; `None` when
/// a read file holds the key asked for, or there is nothing more to read.
/// A config upload the question names that the search did not return (its words may
/// not be the file's) is read first.
pub fn next_read(
    search: &StepRecord,
    reads: &[StepRecord],
    question: &str,
    uploads: &[UploadRef],
) -> Option<String> {
    if !search.ok || reads.len() >= MAX_READS {
        return None;
    }
    let mut candidates = config_hits(search.data.as_search(), question);
    let named = best_upload(question, uploads)
        .filter(|u| config_upload(u) && hit_name_score(question, &u.filename) >= NAMED)
        .map(|u| u.path.to_string_lossy().into_owned());
    if let Some(path) = named.filter(|p| !candidates.contains(p)) {
        candidates.insert(0, path);
    }
    let next = candidates.get(reads.len())?;
    let read = texts(reads);
    if config_tree::answers_exactly(&as_configs(&read), question) {
        return None;
    }
    Some(next.clone())
}

/// The answer: from the read configs' trees, else the search's.
pub fn answer(search: &StepRecord, reads: &[StepRecord], question: &str, lang: Lang) -> String {
    if !search.ok {
        return answer::failure(search, lang);
    }
    let read = texts(reads);
    let tree = config_tree::answer(&as_configs(&read), question, lang);
    let mut out = tree.unwrap_or_else(|| answer::search(search.data.as_search(), lang));
    for s in reads {
        let page = PageView::of(&s.data);
        let shown = page.shown().unwrap_or(0);
        let total = page.total_lines.unwrap_or(0);
        if s.ok && page.more_lines > 0 {
            let (name, _) = answer::read_text(&s.data);
            out.push_str(&match lang {
                Lang::Zh => format!("\n（{name} 只读取了前 {shown} 行，共 {total} 行）"),
                Lang::En => format!("\n({name}: read the first {shown} of {total} lines)"),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    //! The lookup through `plan`: a settings question about the uploads searches them,
    //! reads the config the question names (whole), and answers from its tree.

    use llmops_tooldata::SearchScope;

    use crate::conversation::Conversation;
    use crate::test_data::{hit, page, search};
    use crate::tests::uploads;
    use crate::{plan, PlannerAction, PlannerInput, StepRecord, ToolArgs, ToolData, ToolName};

    const UPSTREAMS: &str = "http {\n    upstream orders_backend {\n        server 10.4.0.1:8080;\n        server 10.4.0.2:8080;\n        server 10.4.0.3:8080;\n        server 10.4.0.4:8080 backup;\n    }\n    server {\n        listen 80;\n        proxy_connect_timeout 3s;\n        proxy_read_timeout 40s;\n    }\n}\n";
    const COMPOSE: &str = "services:\n  orders:\n    image: shop/orders:2\n    environment:\n      DB_CONNECT_TIMEOUT: 5\n";

    fn step(tool: ToolName, args: ToolArgs, data: ToolData) -> StepRecord {
        StepRecord {
            tool,
            args,
            ok: true,
            output: String::new(),
            data,
            error: None,
        }
    }

    fn read_of(path: &str, text: &str) -> ToolData {
        let lines: Vec<&str> = text.lines().collect();
        page(path, &lines, 0, 2000, lines.len() as u64)
    }

    fn next(text: &str, names: &[&str], steps: &[StepRecord]) -> PlannerAction {
        let ups = uploads(names);
        plan(&PlannerInput {
            text,
            referenced_files: &[],
            uploads: &ups,
            history: &[],
            conversation: &Conversation::default(),
            steps,
        })
    }

    /// Runs a question to its answer: the search returns both configs (the compose file
    /// ranked first), each `file_read` the planted text.
    fn run(text: &str) -> (Vec<String>, String) {
        run_with_hits(text, &[0, 1])
    }

    /// As `run`, the search returning only these uploads (by index).
    fn run_with_hits(text: &str, found: &[usize]) -> (Vec<String>, String) {
        let names = ["docker-compose.yml", "nginx.conf"];
        let ups = uploads(&names);
        let path = |i: usize| ups[i].path.to_string_lossy().into_owned();
        let mut steps = Vec::new();
        let mut reads = Vec::new();
        for _ in 0..6 {
            match next(text, &names, &steps) {
                PlannerAction::Final { text } => return (reads, text),
                PlannerAction::Call { tool, args, .. } => {
                    let data = match &args {
                        ToolArgs::Search(a) => {
                            assert_eq!(a.scope.as_deref(), Some("uploads"), "{args}");
                            let hits = found
                                .iter()
                                .map(|&i| hit(names[i], &path(i), 0.6, "timeout"))
                                .collect();
                            search(&a.query, SearchScope::Uploads, hits)
                        }
                        ToolArgs::FileRead(a) => {
                            let p = a.file_path.clone();
                            assert_eq!(a.limit, Some(2000), "a config is read whole: {args}");
                            reads.push(p.rsplit('/').next().unwrap_or("").to_string());
                            let text = if p.ends_with("nginx.conf") {
                                UPSTREAMS
                            } else {
                                COMPOSE
                            };
                            read_of(&p, text)
                        }
                        other => panic!("{text}: unexpected {other:?} {args}"),
                    };
                    steps.push(step(tool, args, data));
                }
            }
        }
        panic!("{text}: no answer after 6 steps")
    }

    #[test]
    fn the_named_config_is_read_and_answers_the_key_asked_for() {
        let (reads, a) = run("what is the read timeout in nginx.conf");
        assert_eq!(reads, vec!["nginx.conf"]);
        assert!(
            a.starts_with("`proxy_read_timeout = 40s` — nginx.conf:11"),
            "{a}"
        );
        assert!(!a.contains("proxy_connect_timeout = 3s`"), "{a}");
        let (reads, a) = run("nginx.conf 里 upstream orders_backend 有几个后端");
        assert_eq!(reads, vec!["nginx.conf"]);
        assert!(
            a.contains("**4**") && a.contains("10.4.0.4:8080 backup"),
            "{a}"
        );
    }

    #[test]
    fn a_key_in_no_config_reads_at_most_two_and_offers_near_keys() {
        let (reads, a) = run("what's the send timeout in nginx.conf");
        assert_eq!(reads.len(), super::MAX_READS, "{reads:?}");
        assert_eq!(reads[0], "nginx.conf");
        assert!(a.contains("Did you mean"), "{a}");
        assert!(!a.starts_with('`'), "a near key is never the answer: {a}");
    }

    #[test]
    fn a_named_config_the_search_missed_is_read() {
        let (reads, a) = run_with_hits("nginx.conf 的读超时是多少", &[]);
        assert_eq!(reads, vec!["nginx.conf"]);
        assert!(
            a.starts_with("`proxy_read_timeout = 40s` — nginx.conf 第 11 行"),
            "{a}"
        );
        // Nothing named and nothing found: the search's own answer, no read.
        let (reads, a) = run_with_hits("what is the read timeout", &[]);
        assert!(reads.is_empty(), "{reads:?}");
        assert!(a.starts_with("Nothing matched"), "{a}");
    }
}
