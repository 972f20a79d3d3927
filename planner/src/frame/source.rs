//! Which table a question is about, and for a log which files: a table's word, a field
//! only one table has, a path's filesystem, else the conversation's or the session's log.

use llmops_common::query::{FilterOp, Scalar, Source};

use super::parsed::{context_log, Parsed};
use super::scan::Lit;
use super::{is_log_upload, FrameCtx};
use crate::lexicon::{Cue, Hit, Lexicon};

/// Which table, and for a log which files.
pub(super) fn source_of(
    lex: &Lexicon,
    p: &Parsed,
    ctx: &FrameCtx,
) -> Option<(Source, Vec<String>)> {
    if !p.files.is_empty() {
        return Some((Source::Log, p.files.clone()));
    }
    // A path on the host with a filesystem's figure ("free space on /var") or word ("the
    // partition /var is on"): the filesystem holding it. Any other figure of a path ("how
    // big is /var/log", "/var/log 占了多少磁盘空间") is the directory's own, `du`'s.
    // Any absolute path: one under a directory no host has by default (`/work/…`, `/srv2`)
    // reads like a URL path, but asked a filesystem's figure it is a place on this host.
    let host_path = p
        .lits
        .iter()
        .any(|l| matches!(l.lit, Lit::HostPath(_) | Lit::UrlPath(_)));
    let filesystem_asked = p.has(|c| match c {
        Cue::Field(i) => lex.fields[i].of_a_paths_filesystem,
        Cue::Source(i) => lex.sources[i].of_a_paths_filesystem,
        _ => false,
    });
    let mounts_word =
        p.has(|c| matches!(c, Cue::Source(i) if lex.sources[i].source == Source::Mounts));
    if host_path && mounts_word && !filesystem_asked {
        return None;
    }
    if let Some(found) = table_by_word(lex, p, ctx) {
        return Some(found);
    }
    if let Some(s) = table_by_field(lex, p, host_path && filesystem_asked) {
        return Some((s, Vec::new()));
    }
    let several = logs_at_hand(lex, p, ctx);
    if several.len() > 1 {
        return Some((Source::Log, several));
    }
    context_log(ctx)
        .map(|f| (Source::Log, vec![f]))
        .or_else(|| table_by_key(lex, p).map(|s| (s, Vec::new())))
}

/// With no log at hand, a number given as a system table's key ("what is pid 1", "who
/// owns pid 4242") names that table's row.
fn table_by_key(lex: &Lexicon, p: &Parsed) -> Option<Source> {
    p.lits
        .iter()
        .filter(|l| matches!(l.lit, Lit::Number { .. }))
        .find_map(|l| {
            p.hits.iter().find_map(|h| match h.cue {
                Cue::Field(i) if h.end <= l.start && p.lower[h.end..l.start].trim().is_empty() => {
                    let field = &lex.fields[i].field;
                    lex.sources
                        .iter()
                        .find(|s| s.key.as_deref() == Some(field.as_str()))
                        .map(|s| s.source)
                }
                _ => None,
            })
        })
}

/// The logs a question naming none is about, when it is about several: "across all logs"
/// is every log sent with the message, else every log of the session; "what happened
/// around 02:14?" is a timeline of the logs sent with it, else of every log of the session
/// (a minute of an incident is read across its logs, not in the one asked about last).
fn logs_at_hand(lex: &Lexicon, p: &Parsed, ctx: &FrameCtx) -> Vec<String> {
    let all = lex.grammar.all_logs.occur_in(&p.lower);
    if !all && !super::build::timeline_cue(lex, p) {
        return Vec::new();
    }
    let path = |u: &crate::UploadRef| u.path.to_string_lossy().into_owned();
    let sent: Vec<String> = ctx
        .referenced
        .iter()
        .filter(|u| is_log_upload(u))
        .map(|u| path(u))
        .collect();
    if !sent.is_empty() {
        return sent;
    }
    ctx.uploads
        .iter()
        .filter(|u| is_log_upload(u))
        .map(path)
        .collect()
}

/// The system table a word names ("listening", "disks"), unless a level or an event tag
/// only a log has keeps it on the log at hand: the table's word is the log's field ("哪个
/// systemd unit 报错最多" over a journal, "which process got OOM-killed" over a kernel
/// log). Not "failed": units fail too. A name the log writes keeps it there as well
/// ("redix 连接失败几次" over a log that names `Redix.Connection`).
fn table_by_word(lex: &Lexicon, p: &Parsed, ctx: &FrameCtx) -> Option<(Source, Vec<String>)> {
    const SYSTEM: [Source; 4] = [
        Source::Sockets,
        Source::Mounts,
        Source::Units,
        Source::Processes,
    ];
    let cued = |s: Source| {
        p.hits
            .iter()
            .any(|h| matches!(h.cue, Cue::Source(i) if lex.sources[i].source == s))
    };
    let s = SYSTEM.into_iter().find(|s| cued(*s))?;
    let log_condition = p.has(|c| {
        matches!(c, Cue::Filter(i) if {
            let f = &lex.filters[i];
            f.field.as_deref() == Some("level")
                || (f.op == FilterOp::Tag && f.value != Scalar::Text("failure".into()))
        })
    }) || p
        .lits
        .iter()
        .any(|l| matches!(&l.lit, Lit::Word(w) if p.part_of_a_logged_name(w)));
    Some(match context_log(ctx) {
        Some(f) if log_condition => (Source::Log, vec![f]),
        _ => (s, Vec::new()),
    })
}

/// A field only one system table has ("memory", "command line"), none a log has, with a
/// name written as one ("image-resizer"), a number given as one of its fields of numbers
/// ("the parent of pid 1") or, for the mounts, a path asked a filesystem's figure
/// (`filesystem_path`): "how much memory does image-resizer use". In a Chinese question
/// an English word is a name too ("tariffd 的 pid"), unless it names an upload (then the
/// question is about that file: "rabbitmq 内存水位线").
fn table_by_field(lex: &Lexicon, p: &Parsed, filesystem_path: bool) -> Option<Source> {
    // "what user runs sshd": the name right after words that ask who runs a process.
    let after_asking = |at: usize| {
        p.hits.iter().any(|h| {
            matches!(h.cue, Cue::Field(i) if lex.fields[i].asks)
                && h.end <= at
                && p.lower[h.end..at].trim().is_empty()
        })
    };
    let named = p.lits.iter().any(|l| match &l.lit {
        Lit::Ident(_) | Lit::Quoted(_) => true,
        Lit::Word(w) => {
            (p.name_may_stand_at(l.start) || after_asking(l.start)) && !p.names_an_upload(w)
        }
        _ => false,
    });
    let only = |f: &Option<Source>| f.is_some_and(|s| s != Source::Log);
    let field_tables: Vec<Option<Source>> = p
        .hits
        .iter()
        .filter(|h| !read_both_ways(lex, p, h))
        .filter_map(|h| table_of(lex, h))
        .collect();
    let numbered = |s: Source| {
        p.lits.iter().any(|l| {
            matches!(l.lit, Lit::Number { .. })
                && super::parsed::field_before(lex, p, s, l.start)
                    .is_some_and(|f| p.holds_numbers(lex, &f))
        })
    };
    // A filesystem's word ("用了多少", "used") beside another table's field ("内存") with
    // no path written is that other table's question.
    let tables: Vec<Source> = field_tables
        .iter()
        .filter_map(|f| f.filter(|s| *s != Source::Log))
        .collect();
    let s = tables
        .iter()
        .copied()
        .find(|s| *s != Source::Mounts || filesystem_path)
        .or(tables.first().copied())?;
    let path = s == Source::Mounts && filesystem_path;
    // "how long has sshd been running": a plain word between two cues of one field of
    // the table is what the field is asked of ("cpu load" names no process "load").
    let field_at = |at: &dyn Fn(&Hit) -> bool| {
        p.hits.iter().find_map(|h| match h.cue {
            Cue::Field(i) if lex.fields[i].source == Some(s) && at(h) => Some(&lex.fields[i].field),
            _ => None,
        })
    };
    let beside = p.lits.iter().any(|l| {
        let gap = |a: usize, b: usize| a <= b && p.lower[a..b].trim().is_empty();
        let before = field_at(&|h| gap(h.end, l.start));
        matches!(&l.lit, Lit::Word(w) if !p.names_an_upload(w))
            && before.is_some()
            && before == field_at(&|h| gap(l.end, h.start))
    });
    ((named || beside || path || numbered(s))
        && field_tables.iter().all(|f| f.is_none() || only(f)))
    .then_some(s)
}

/// The table a field cue belongs to: `Some(None)` for a field of any table.
fn table_of(lex: &Lexicon, h: &Hit) -> Option<Option<Source>> {
    match h.cue {
        Cue::Field(i) => Some(lex.fields[i].source),
        Cue::Column(_) => Some(Some(Source::Log)),
        _ => None,
    }
}

/// A word that is a field of a system table and of a log alike ("threads": a process's
/// count, a log's thread name): its log reading, when the name asked about is no log's (no
/// upload's name, no value of the log's columns) and the word is not inside a name
/// ("orders.threads" is a collection, not a thread count).
fn read_both_ways(lex: &Lexicon, p: &Parsed, h: &Hit) -> bool {
    let names_a_log = p.lits.iter().any(|l| match &l.lit {
        Lit::Ident(w) | Lit::Word(w) => p.names_an_upload(w) || p.column_with_value(w).is_some(),
        _ => false,
    });
    let in_a_name = p
        .lits
        .iter()
        .any(|l| matches!(l.lit, Lit::Ident(_)) && l.start <= h.start && h.end <= l.end);
    let system = |g: &Hit| table_of(lex, g).flatten().is_some_and(|s| s != Source::Log);
    !names_a_log
        && !in_a_name
        && table_of(lex, h) == Some(Some(Source::Log))
        && p.hits
            .iter()
            .any(|g| (g.start, g.end) == (h.start, h.end) && system(g))
}
