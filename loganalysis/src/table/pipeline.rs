//! An equivalent shell pipeline for a query, with the file name the user knows: `grep -c`
//! for plain text counts, `awk` on the columns of column formats, `jq` for JSON lines,
//! `perl` with the format's own regex otherwise. `Err(why)` where no honest one exists.

use llmops_common::query::{FieldKind, FilterOp, Measure, Query};

use super::def::{DerivedFrom, FieldSpec, Format, LevelFormat, Origin, ParseKind, Parser, Tail};
use super::event::Schema;
use super::plan::{Cond, FieldRef, Plan};

/// The inputs of a pipeline.
pub struct PipeCtx<'a> {
    pub q: &'a Query,
    pub fmt: &'a Format,
    pub schema: &'a Schema,
    pub plan: &'a Plan,
    pub file: &'a str,
    /// Window as `YYYY-MM-DDTHH:MM:SS` strings (year 0000 for syslog times).
    pub window: Option<(String, String)>,
    /// Bucket width in seconds, for `buckets`.
    pub bucket: Option<u64>,
    /// Lines of the file the format did not parse (awk columns are exact only without).
    pub unparsed: u64,
}

/// Single-quotes `s` for sh.
pub fn shq(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._/-+=:,@%".contains(&b))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The pipeline, or why there is none.
pub fn pipeline(c: &PipeCtx<'_>) -> Result<String, String> {
    if let Some(p) = grep(c) {
        return Ok(p);
    }
    if c.fmt.kind == ParseKind::Json {
        return jq(c);
    }
    if let Some(p) = awk(c) {
        return Ok(p);
    }
    perl(c)
}

fn all_conds<'a>(c: &'a PipeCtx<'a>) -> Vec<&'a Cond> {
    fn walk<'a>(c: &'a Cond, out: &mut Vec<&'a Cond>) {
        match c {
            Cond::All(cs) => cs.iter().for_each(|c| walk(c, out)),
            c => out.push(c),
        }
    }
    let mut out = Vec::new();
    for c in &c.plan.conds {
        walk(c, &mut out);
    }
    out
}

/// The shell tail that turns one key per line into the top groups as `uniq -c` shows them.
fn top_tail(limit: usize) -> String {
    format!("LC_ALL=C sort | uniq -c | LC_ALL=C sort -k1,1nr -k2 | head -n {limit}")
}

fn grep(c: &PipeCtx<'_>) -> Option<String> {
    if c.q.measure != Measure::Count
        || c.window.is_some()
        || !c.q.group_by.is_empty()
        || c.fmt.is_multiline()
    {
        return None;
    }
    let conds = all_conds(c);
    let mut stages = Vec::new();
    for cond in &conds {
        let (flags, pat, neg) = match cond {
            Cond::Contains {
                f: None, text, neg, ..
            } => ("-F", text.clone(), *neg),
            Cond::ContainsCi {
                f: None, text, neg, ..
            } => ("-F -i", text.clone(), *neg),
            Cond::Regex { f: None, re } => ("-P", re.as_str().to_string(), false),
            _ => return None,
        };
        stages.push((flags, pat, neg));
    }
    let file = shq(c.file);
    if stages.is_empty() {
        return Some(format!("grep -c '' {file}"));
    }
    let n = stages.len();
    let parts: Vec<String> = stages
        .into_iter()
        .enumerate()
        .map(|(i, (flags, pat, neg))| {
            let v = if neg { " -v" } else { "" };
            let count = if i + 1 == n { " -c" } else { "" };
            let src = if i == 0 {
                format!(" {file}")
            } else {
                String::new()
            };
            format!("grep{count}{v} {flags} -e {}{src}", shq(&pat))
        })
        .collect();
    Some(parts.join(" | "))
}

/// awk column of each field, for single-line pattern formats: `$n` for a field that is a
/// whole whitespace-separated word, or the definition's `awk` expression.
fn awk_expr(fmt: &Format, spec: &FieldSpec) -> Option<String> {
    if let Some(a) = &spec.awk {
        return Some(a.clone());
    }
    let Parser::Pattern(p) = &fmt.parser else {
        return None;
    };
    let Origin::Capture(target) = spec.origin else {
        return None;
    };
    let src = p.source();
    let mut col = 1usize;
    let mut at_start = true;
    let mut i = 0;
    let b = src.as_bytes();
    let mut field = 0usize;
    while i < b.len() {
        if b[i] == b'$' {
            let mut j = i + 1;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            let words = fmt
                .fields
                .iter()
                .find(|f| f.name == src[i + 1..j])
                .map_or(1, |f| f.words);
            let ends_word = j == b.len() || b[j].is_ascii_whitespace();
            if field == target {
                return (at_start && ends_word && words == 1).then(|| format!("${col}"));
            }
            if words == 0 {
                return None;
            }
            col += usize::from(words) - 1;
            at_start = false;
            field += 1;
            i = j;
        } else {
            if b[i].is_ascii_whitespace() {
                if !at_start {
                    col += 1;
                }
                at_start = true;
            } else {
                at_start = false;
            }
            i += 1;
        }
    }
    None
}

fn awk_str(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', r"\\").replace('"', "\\\""))
}

fn num_lit(v: f64) -> String {
    super::agg::fmt_num(v)
}

fn awk(c: &PipeCtx<'_>) -> Option<String> {
    // Columns say nothing about whether a line fits the format: only when every line did.
    if c.window.is_some()
        || c.unparsed > 0
        || c.fmt.is_multiline()
        || !matches!(c.fmt.parser, Parser::Pattern(_))
    {
        return None;
    }
    let col = |f: &FieldRef| {
        let spec = c.schema.fields.get(f.id)?;
        if c.schema.level == Some(f.id) {
            return None;
        }
        awk_expr(c.fmt, spec)
    };
    let mut conds = Vec::new();
    for cond in all_conds(c) {
        conds.push(match cond {
            Cond::Num { f, op, value } => {
                let x = col(f)?;
                let o = match op {
                    FilterOp::Eq => "==",
                    FilterOp::Ne => "!=",
                    FilterOp::Lt => "<",
                    FilterOp::Le => "<=",
                    FilterOp::Gt => ">",
                    FilterOp::Ge => ">=",
                    _ => return None,
                };
                format!("{x} != \"-\" && {x}+0 {o} {}", num_lit(*value))
            }
            Cond::Range { f, lo, hi } => {
                let x = col(f)?;
                format!(
                    "{x} != \"-\" && {x}+0 >= {} && {x}+0 <= {}",
                    num_lit(*lo),
                    num_lit(*hi)
                )
            }
            Cond::Text { f, value, cs, neg } => {
                let x = col(f)?;
                let v = String::from_utf8_lossy(value).into_owned();
                let (l, r) = if *cs {
                    (x, awk_str(&v))
                } else {
                    (format!("tolower({x})"), awk_str(&v.to_lowercase()))
                };
                format!("{l} {} {r}", if *neg { "!=" } else { "==" })
            }
            Cond::Contains { f, text, neg, .. } | Cond::ContainsCi { f, text, neg, .. } => {
                let ci = matches!(cond, Cond::ContainsCi { .. });
                let x = match f {
                    Some(f) => col(f)?,
                    None => "$0".into(),
                };
                let (h, n) = if ci {
                    (format!("tolower({x})"), awk_str(&text.to_lowercase()))
                } else {
                    (x, awk_str(text))
                };
                format!("index({h}, {n}) {} 0", if *neg { "==" } else { ">" })
            }
            _ => return None,
        });
    }
    let cond = conds.join(" && ");
    let file = shq(c.file);
    let with = |extra: &str| match (cond.is_empty(), extra.is_empty()) {
        (true, _) => extra.to_string(),
        (false, true) => cond.clone(),
        (false, false) => format!("{cond} && {extra}"),
    };
    let value_of = |f: &FieldRef| -> Option<String> {
        let x = col(f)?;
        Some(if f.is_numeric() { format!("{x}+0") } else { x })
    };
    let keys = |fs: &[FieldRef]| -> Option<String> {
        fs.iter()
            .map(value_of)
            .collect::<Option<Vec<_>>>()
            .map(|v| v.join(", "))
    };
    let m = c.q.measure;
    if !c.plan.group.is_empty() {
        if m != Measure::Count {
            return None;
        }
        let k = keys(&c.plan.group)?;
        let prog = format!("{} {{print {k}}}", with(""));
        return Some(format!(
            "awk {} {file} | {}",
            shq(prog.trim()),
            top_tail(c.q.limit())
        ));
    }
    match m {
        Measure::Count => Some(if cond.is_empty() {
            format!("awk 'END {{print NR}}' {file}")
        } else {
            format!("awk {} {file} | wc -l", shq(&cond))
        }),
        Measure::CountDistinct => {
            let f = c.plan.field.as_ref()?;
            let prog = format!("{} {{print {}}}", with(""), value_of(f)?);
            Some(format!(
                "awk {} {file} | LC_ALL=C sort -u | wc -l",
                shq(prog.trim())
            ))
        }
        Measure::Min | Measure::Max | Measure::Sum | Measure::Mean => {
            let f = c.plan.field.as_ref()?;
            let x = col(f)?;
            let guard = with(&format!("{x} != \"-\""));
            let body = match m {
                Measure::Max => "v = x + 0; if (n == 0 || v > m) m = v; n++",
                Measure::Min => "v = x + 0; if (n == 0 || v < m) m = v; n++",
                _ => "s += x; n++",
            }
            .replace('x', &x);
            let end = match m {
                Measure::Max | Measure::Min => "if (n) printf \"%.6f\\n\", m",
                Measure::Sum => "printf \"%.6f\\n\", s",
                _ => "if (n) printf \"%.6f\\n\", s / n",
            };
            let prog = format!("{guard} {{{body}}} END {{{end}}}");
            Some(format!("awk {} {file}", shq(&prog)))
        }
        _ => None,
    }
}

fn jq_path(key: &str, schema: &Schema) -> String {
    let top = schema.fields.iter().any(|f| f.name == key) && !key.contains('.');
    if top {
        format!(".[{}]", serde_json::to_string(key).unwrap_or_default())
    } else {
        let parts: Vec<String> = key
            .split('.')
            .map(|p| serde_json::to_string(p).unwrap_or_default())
            .collect();
        format!("getpath([{}])", parts.join(","))
    }
}

const JQ_DEFS: &str = "def num: if type == \"number\" then . elif type == \"string\" then (tonumber? // null) else null end; def txt: if type == \"string\" then . elif . == null then null else tojson end;";

/// The canonical level names the engine shows, for a level field in jq.
const LEVEL_WORDS: &[(&str, &str)] = &[
    ("FATAL", "FATAL"),
    ("PANIC", "FATAL"),
    ("EMERG", "FATAL"),
    ("EMERGENCY", "FATAL"),
    ("ALERT", "FATAL"),
    ("CRITICAL", "CRITICAL"),
    ("CRIT", "CRITICAL"),
    ("ERROR", "ERROR"),
    ("ERR", "ERROR"),
    ("SEVERE", "ERROR"),
    ("WARN", "WARN"),
    ("WARNING", "WARN"),
    ("NOTICE", "NOTICE"),
    ("INFO", "INFO"),
    ("DEBUG", "DEBUG"),
    ("TRACE", "TRACE"),
];

fn jq(c: &PipeCtx<'_>) -> Result<String, String> {
    if c.window.is_some() || c.q.measure == Measure::Buckets {
        return Err("jq has no parser for the log's time forms: no pipeline for time windows or buckets over JSON lines".into());
    }
    if c.fmt.level_format != LevelFormat::Word {
        return Err("the level is a syslog priority number: no one-line jq equivalent".into());
    }
    let field = |f: &FieldRef| -> String {
        let name = &c.schema.fields[f.id].name;
        let base = format!("($j | {} | txt)", jq_path(name, c.schema));
        if c.schema.level == Some(f.id) {
            let map: Vec<String> = LEVEL_WORDS
                .iter()
                .map(|(w, l)| format!("\"{w}\":\"{l}\""))
                .chain(c.fmt.level_map.iter().map(|(k, v)| {
                    format!(
                        "{}:{}",
                        serde_json::to_string(k).unwrap_or_default(),
                        serde_json::to_string(v).unwrap_or_default()
                    )
                }))
                .collect();
            format!(
                "({base} as $r | ({{{}}}[($r // \"\") | ascii_upcase] // $r))",
                map.join(",")
            )
        } else {
            base
        }
    };
    let s = |t: &str| serde_json::to_string(t).unwrap_or_default();
    let mut conds = Vec::new();
    for cond in all_conds(c) {
        conds.push(match cond {
            Cond::Num { f, op, value } => {
                let o = match op {
                    FilterOp::Eq => "==",
                    FilterOp::Ne => "!=",
                    FilterOp::Lt => "<",
                    FilterOp::Le => "<=",
                    FilterOp::Gt => ">",
                    FilterOp::Ge => ">=",
                    _ => return Err("unsupported comparison".into()),
                };
                format!(
                    "({} | num | . != null and . {o} {})",
                    field(f),
                    num_lit(*value)
                )
            }
            Cond::Range { f, lo, hi } => format!(
                "({} | num | . != null and . >= {} and . <= {})",
                field(f),
                num_lit(*lo),
                num_lit(*hi)
            ),
            Cond::Text { f, value, cs, neg } => {
                let v = String::from_utf8_lossy(value).into_owned();
                let e = if *cs {
                    format!("({} == {})", field(f), s(&v))
                } else {
                    format!(
                        "(({} // \"\" | ascii_downcase) == {})",
                        field(f),
                        s(&v.to_ascii_lowercase())
                    )
                };
                if *neg {
                    format!("({e} | not)")
                } else {
                    e
                }
            }
            Cond::Contains { f, text, neg, .. } | Cond::ContainsCi { f, text, neg, .. } => {
                let ci = matches!(cond, Cond::ContainsCi { .. });
                let h = match f {
                    Some(f) => format!("({} // \"\")", field(f)),
                    None => "$l".to_string(),
                };
                let e = format!(
                    "({h} | test({}; \"{}\"))",
                    s(&regex::escape(text)),
                    if ci { "i" } else { "" }
                );
                if *neg {
                    format!("({e} | not)")
                } else {
                    e
                }
            }
            Cond::Regex { f, re } => {
                let h = match f {
                    Some(f) => format!("({} // \"\")", field(f)),
                    None => "$l".to_string(),
                };
                let src = re.as_str();
                let (src, flags) = match src.strip_prefix("(?i)") {
                    Some(r) => (r, "i"),
                    None => (src, ""),
                };
                format!("({h} | test({}; \"{flags}\"))", s(src))
            }
            Cond::All(_) => return Err("nested filters".into()),
        });
    }
    let sel = if conds.is_empty() {
        String::new()
    } else {
        format!(" | select({})", conds.join(" and "))
    };
    let head = format!("{JQ_DEFS} . as $l | ((fromjson? | objects) // {{}}) as $j{sel}");
    let file = shq(c.file);
    let keyf = |f: &FieldRef| {
        if f.is_numeric() {
            format!("({} | num | if . == null then null elif . == floor then tostring else tostring end)", field(f))
        } else {
            field(f)
        }
    };
    let m = c.q.measure;
    if !c.plan.group.is_empty() {
        if m != Measure::Count {
            return Err("grouped statistics: no one-line jq equivalent shown".into());
        }
        let keys: Vec<String> = c.plan.group.iter().map(keyf).collect();
        let prog = format!(
            "{head} | [{}] | select(all(. != null)) | join(\" \")",
            keys.join(", ")
        );
        return Ok(format!(
            "jq -rR {} {file} | {}",
            shq(&prog),
            top_tail(c.q.limit())
        ));
    }
    match m {
        Measure::Count => Ok(format!(
            "jq -cR {} {file} | wc -l",
            shq(&format!("{head} | 1"))
        )),
        Measure::CountDistinct => {
            let f = c.plan.field.as_ref().ok_or("no field")?;
            let prog = format!("{head} | {} | select(. != null)", keyf(f));
            Ok(format!(
                "jq -rR {} {file} | LC_ALL=C sort -u | wc -l",
                shq(&prog)
            ))
        }
        m if m.is_stat() => {
            let f = c.plan.field.as_ref().ok_or("no field")?;
            let agg = match m {
                Measure::Min => "min".to_string(),
                Measure::Max => "max".to_string(),
                Measure::Sum => "add".to_string(),
                Measure::Mean => "add / length".to_string(),
                m => {
                    let p: u64 = m.as_str()[1..].parse().unwrap_or(50);
                    format!("sort | .[((length * {p} + 99) / 100 | floor) - 1]")
                }
            };
            let prog = format!("{JQ_DEFS} [inputs | . as $l | ((fromjson? | objects) // {{}}) as $j{sel} | {} | num | select(. != null)] | {agg}", field(f));
            Ok(format!("jq -nR {} {file}", shq(&prog)))
        }
        _ => Err(format!("no jq equivalent shown for `{}`", m.as_str())),
    }
}

fn perl_str(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '\\' | '"' | '$' | '@' => {
                out.push('\\');
                out.push(ch);
            }
            c if c.is_control() => out.push_str(&format!("\\x{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A Rust regex as the body of a Perl `/.../`: `/` and `@` escaped, and `$` wherever Perl
/// would read a variable (inside a class, or before a name).
fn perl_re(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::new();
    let mut esc = false;
    let mut class = false;
    for (i, &ch) in chars.iter().enumerate() {
        if esc {
            out.push(ch);
            esc = false;
            continue;
        }
        match ch {
            '\\' => esc = true,
            '[' => class = true,
            ']' => class = false,
            '/' | '@' => out.push('\\'),
            '$' => {
                let next = chars.get(i + 1).copied().unwrap_or(')');
                if class || next.is_alphanumeric() || matches!(next, '_' | '{' | '[' | ']' | '$') {
                    out.push('\\');
                }
            }
            _ => {}
        }
        out.push(ch);
    }
    out
}

/// The Perl code that fills `%f` from `$_` (one event).
fn perl_extract(c: &PipeCtx<'_>) -> Result<String, String> {
    let fmt = c.fmt;
    let mut code = String::from("my %f; ");
    match fmt.kind {
        ParseKind::Pattern | ParseKind::Regex => {
            let re = fmt.line_regex.as_deref().ok_or("no line regex")?;
            code.push_str(&format!("my $ok = /{}/; %f = %+ if $ok; ", perl_re(re)));
            if fmt.tail == Tail::Extras {
                code.push_str("if ($ok && defined $f{_tail}) { while ($f{_tail} =~ /(?:^| )([^ =]+)=(\"(?:[^\"\\\\]|\\\\.)*\"|[^ ]*)/g) { my ($k, $v) = ($1, $2); $v =~ s/^\"(.*)\"$/$1/; $f{$k} //= $v } } ");
            }
        }
        ParseKind::Logfmt => {
            code.push_str("my $ok = 0; while (/(?:^| )([^ =]+)=(\"(?:[^\"\\\\]|\\\\.)*\"|[^ ]*)/g) { my ($k, $v) = ($1, $2); $v =~ s/^\"(.*)\"$/$1/; $f{$k} //= $v; $ok++ } ");
        }
        _ => return Err("this format's rule (the analyser's timestamp and level detection) has no one-line Perl equivalent".into()),
    }
    for d in &fmt.derived {
        let src = match d.from {
            DerivedFrom::Event => "$_".to_string(),
            DerivedFrom::Field(i) => format!("$f{{{}}}", perl_str(&fmt.fields[i].name)),
        };
        code.push_str(&format!(
            "if (defined {src} && {src} =~ /{}/) {{ for my $k (keys %+) {{ $f{{$k}} //= $+{{$k}} }} }} ",
            perl_re(d.regex.as_str())
        ));
    }
    if let Some(l) = c.schema.level {
        let spec = &c.schema.fields[l];
        if matches!(spec.origin, Origin::Analyser(_)) {
            code.push_str("delete $f{level}; ");
        } else if fmt.level_format == LevelFormat::Word {
            let map: Vec<String> = LEVEL_WORDS
                .iter()
                .map(|(w, lv)| format!("{} => {}", perl_str(w), perl_str(lv)))
                .collect();
            let name = perl_str(&spec.name);
            code.push_str(&format!("my %L = ({}); ", map.join(", ")));
            for (k, v) in &fmt.level_map {
                code.push_str(&format!(
                    "$L{{{}}} = {}; ",
                    perl_str(&k.to_uppercase()),
                    perl_str(v)
                ));
            }
            code.push_str(&format!("if (defined $f{{{name}}}) {{ my $u = uc $f{{{name}}}; $f{{{name}}} = $L{{$u}} if exists $L{{$u}} }} "));
        }
    }
    Ok(code)
}

const PERL_NUM: &str = "sub num { my $v = shift; return (defined $v && $v =~ /^\\s*[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?\\s*$/) ? $v + 0 : undef } ";
const PERL_TK: &str = "my %M = (jan=>1,feb=>2,mar=>3,apr=>4,may=>5,jun=>6,jul=>7,aug=>8,sep=>9,oct=>10,nov=>11,dec=>12); sub tk { my $t = shift; return undef unless defined $t; if ($t =~ /^(\\d{4})-(\\d\\d)-(\\d\\d)[T ](\\d\\d:\\d\\d:\\d\\d)/) { return \"$1-$2-$3T$4\" } if ($t =~ m{^(\\d\\d)/(\\w{3})/(\\d{4}):(\\d\\d:\\d\\d:\\d\\d)}) { return sprintf(\"%s-%02d-%sT%s\", $3, $M{lc $2}, $1, $4) } if ($t =~ /^(\\w{3}) +(\\d+) (\\d\\d:\\d\\d:\\d\\d)/) { return sprintf(\"0000-%02d-%02dT%s\", $M{lc $1}, $2, $3) } if ($t =~ /^(\\d{10})(?:\\.\\d+)?$/) { my @g = gmtime($1); return sprintf(\"%04d-%02d-%02dT%02d:%02d:%02d\", $g[5] + 1900, $g[4] + 1, @g[3, 2, 1, 0]) } return undef } ";

fn perl_cond(c: &PipeCtx<'_>) -> Result<String, String> {
    let fv = |f: &FieldRef| format!("$f{{{}}}", perl_str(&c.schema.fields[f.id].name));
    let mut conds = vec!["$ok".to_string()];
    let mut needs_ok = false;
    let mut text_only = true;
    for cond in all_conds(c) {
        let e = match cond {
            Cond::Num { f, op, value } => {
                let o = match op {
                    FilterOp::Eq => "==",
                    FilterOp::Ne => "!=",
                    FilterOp::Lt => "<",
                    FilterOp::Le => "<=",
                    FilterOp::Gt => ">",
                    FilterOp::Ge => ">=",
                    _ => return Err("unsupported comparison".into()),
                };
                format!(
                    "defined(num({})) && num({}) {o} {}",
                    fv(f),
                    fv(f),
                    num_lit(*value)
                )
            }
            Cond::Range { f, lo, hi } => format!(
                "defined(num({0})) && num({0}) >= {1} && num({0}) <= {2}",
                fv(f),
                num_lit(*lo),
                num_lit(*hi)
            ),
            Cond::Text { f, value, cs, neg } => {
                let v = perl_str(&String::from_utf8_lossy(value));
                let e = if *cs {
                    format!("defined {0} && {0} eq {v}", fv(f))
                } else {
                    format!("defined {0} && lc({0}) eq lc({v})", fv(f))
                };
                if *neg {
                    format!("!({e})")
                } else {
                    e
                }
            }
            Cond::Contains { f, text, neg, .. } | Cond::ContainsCi { f, text, neg, .. } => {
                let ci = if matches!(cond, Cond::ContainsCi { .. }) {
                    "i"
                } else {
                    ""
                };
                let h = f.as_ref().map_or("$_".to_string(), fv);
                let e = format!(
                    "(defined {h} && {h} =~ /\\Q{}\\E/{ci})",
                    perl_re(text).replace("\\E", "\\\\E")
                );
                if *neg {
                    format!("!{e}")
                } else {
                    e
                }
            }
            Cond::Regex { f, re } => {
                let h = f.as_ref().map_or("$_".to_string(), fv);
                format!("(defined {h} && {h} =~ /{}/)", perl_re(re.as_str()))
            }
            Cond::All(_) => return Err("nested filters".into()),
        };
        let whole = matches!(
            cond,
            Cond::Contains { f: None, .. }
                | Cond::ContainsCi { f: None, .. }
                | Cond::Regex { f: None, .. }
        );
        needs_ok |= !whole;
        text_only &= whole;
        conds.push(e);
    }
    let fields_used = !c.plan.group.is_empty() || c.plan.field.is_some() || c.window.is_some();
    if text_only && !fields_used && !needs_ok {
        conds.remove(0);
    }
    if let Some((a, b)) = &c.window {
        let t = c.schema.time.ok_or("no time field")?;
        let tf = fv(&FieldRef {
            id: t,
            name: String::new(),
            kind: FieldKind::Time,
            unit: llmops_common::query::Unit::None,
        });
        conds.push(format!(
            "defined(tk({tf})) && tk({tf}) ge {} && tk({tf}) le {}",
            perl_str(a),
            perl_str(b)
        ));
    }
    Ok(if conds.is_empty() {
        "1".into()
    } else {
        conds.join(" && ")
    })
}

fn perl(c: &PipeCtx<'_>) -> Result<String, String> {
    let extract = perl_extract(c)?;
    let cond = perl_cond(c)?;
    let fv = |f: &FieldRef| format!("$f{{{}}}", perl_str(&c.schema.fields[f.id].name));
    let keyv = |f: &FieldRef| {
        if f.is_numeric() {
            format!("num({})", fv(f))
        } else {
            fv(f)
        }
    };
    let m = c.q.measure;
    let (act, end, tail) = if !c.plan.group.is_empty() {
        if m != Measure::Count {
            return Err("grouped statistics: no one-line Perl equivalent shown".into());
        }
        let ks: Vec<String> = c.plan.group.iter().map(keyv).collect();
        let defined: Vec<String> = ks.iter().map(|k| format!("defined({k})")).collect();
        (
            format!(
                "print join(\" \", {}), \"\\n\" if {}",
                ks.join(", "),
                defined.join(" && ")
            ),
            String::new(),
            format!(" | {}", top_tail(c.q.limit())),
        )
    } else {
        match m {
            Measure::Count => ("$n++".into(), "print $n + 0, \"\\n\"".into(), String::new()),
            Measure::CountDistinct => {
                let f = c.plan.field.as_ref().ok_or("no field")?;
                let k = keyv(f);
                (
                    format!("print {k}, \"\\n\" if defined({k})"),
                    String::new(),
                    " | LC_ALL=C sort -u | wc -l".into(),
                )
            }
            m if m.is_stat() || m == Measure::Stats => {
                let f = c.plan.field.as_ref().ok_or("no field")?;
                let pct = |p: u64| format!("$v[int(({p} * @v + 99) / 100) - 1]");
                let out = match m {
                    Measure::Min => "printf \"%.6f\\n\", $v[0]".to_string(),
                    Measure::Max => "printf \"%.6f\\n\", $v[-1]".to_string(),
                    Measure::Sum => "printf \"%.6f\\n\", $s".to_string(),
                    Measure::Mean => "printf \"%.6f\\n\", $s / @v".to_string(),
                    Measure::Stats => format!(
                        "printf \"%d %.6f %.6f %.6f %.6f %.6f %.6f %.6f\\n\", scalar(@v), $v[0], $v[-1], $s / @v, {}, {}, {}, {}",
                        pct(50), pct(90), pct(95), pct(99)
                    ),
                    m => format!("printf \"%.6f\\n\", {}", pct(m.as_str()[1..].parse().unwrap_or(50))),
                };
                (
                    format!(
                        "my $x = num({}); if (defined $x) {{ push @v, $x; $s += $x }}",
                        fv(f)
                    ),
                    format!("@v = sort {{ $a <=> $b }} @v; {out} if @v"),
                    String::new(),
                )
            }
            Measure::Buckets => {
                let t = c.schema.time.ok_or("no time field")?;
                let len = match c.bucket {
                    Some(60) => 16,
                    Some(3600) => 13,
                    Some(86400) => 10,
                    Some(1) => 19,
                    _ => {
                        return Err(
                            "buckets of 5 or 10 minutes have no one-line Perl equivalent".into(),
                        )
                    }
                };
                let tf = format!("$f{{{}}}", perl_str(&c.schema.fields[t].name));
                (
                    format!("my $t = tk({tf}); print substr($t, 0, {len}), \"\\n\" if defined $t"),
                    String::new(),
                    " | LC_ALL=C sort | uniq -c".into(),
                )
            }
            _ => return Err(format!("no shell equivalent shown for `{}`", m.as_str())),
        }
    };
    let per_event = format!("sub ev {{ local $_ = shift; {extract}if ({cond}) {{ {act} }} }} ");
    let reader = match &c.fmt.multiline {
        None => "while (<>) { chomp; s/\\r$//; ev($_) } ".to_string(),
        Some(ml) => {
            let start = ml
                .start
                .as_ref()
                .map_or("(?!)".to_string(), |r| perl_re(r.as_str()));
            let cont = ml
                .cont
                .as_ref()
                .map_or(".?".to_string(), |r| perl_re(r.as_str()));
            let header = ml
                .header
                .as_ref()
                .map_or("(?!)".to_string(), |r| perl_re(r.as_str()));
            format!("my ($e, $oh); while (<>) {{ chomp; s/\\r$//; my $h = /{header}/ ? 1 : 0; if (/{start}/) {{ if (defined $e && $oh) {{ $e .= \"\\n$_\"; $oh &&= $h }} else {{ ev($e) if defined $e; $e = $_; $oh = $h }} }} elsif (defined $e && /{cont}/) {{ $e .= \"\\n$_\"; $oh &&= $h }} else {{ ev($e) if defined $e; undef $e; ev($_) }} }} ev($e) if defined $e; ")
        }
    };
    let prog = format!("my ($n, $s, @v); {PERL_NUM}{PERL_TK}{per_event}{reader}{end}");
    Ok(format!("perl -e {} {}{tail}", shq(&prog), shq(c.file)))
}
