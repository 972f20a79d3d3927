//! The Perl form of a query: the format's own regex (patterns compile to one), derived
//! rules, multi-line events, windows and statistics, as one `perl -e` program.

use llmops_common::query::Measure;

use super::{all_conds, cmp_op, level_words, num_lit, shq, top_tail, PipeCtx};
use crate::table::def::{DerivedFrom, Format, LevelFormat, Origin, ParseKind, Tail};
use crate::table::plan::{Cond, FieldRef};

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
    let mut code = String::from("my %f; ");
    line_extract(c.fmt, &mut code)?;
    unquote_extract(c.fmt, &mut code);
    derived_extract(c.fmt, &mut code);
    in_message_extract(c, &mut code);
    keyed_extract(c, &mut code);
    level_extract(c, &mut code);
    spans_extract(c, &mut code);
    Ok(code)
}

/// A negative span of time is none, as the engine reads it (`event::no_span`).
fn spans_extract(c: &PipeCtx<'_>, code: &mut String) {
    for spec in &c.schema.fields {
        if super::super::event::is_span(spec) {
            let k = perl_str(&spec.name);
            code.push_str(&format!(
                "delete $f{{{k}}} if defined $f{{{k}}} && $f{{{k}}} =~ /^\\s*-\\d/; "
            ));
        }
    }
}

/// The fields of the line itself, by the format's parser.
fn line_extract(fmt: &Format, code: &mut String) -> Result<(), String> {
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
        ParseKind::W3c => code.push_str(&columns_extract(fmt)?),
        _ => return Err("this format's rule (the analyser's timestamp and level detection) has no one-line Perl equivalent".into()),
    }
    Ok(())
}

/// CSV quoting undone as the engine undoes it.
fn unquote_extract(fmt: &Format, code: &mut String) {
    // Values captured with their CSV quotes, as the engine reads them.
    for q in &fmt.quoted {
        let k = perl_str(q);
        code.push_str(&format!(
            r#"if (defined $f{{{k}}} && $f{{{k}}} =~ /^"(.*)"$/s) {{ ($f{{{k}}} = $1) =~ s/""/"/g }} "#
        ));
    }
    // Values cut from inside CSV quotes, whose `""` is one `"`.
    for q in fmt
        .doubled_quotes
        .iter()
        .filter(|q| !fmt.quoted.contains(q))
    {
        let k = perl_str(q);
        code.push_str(&format!(r#"$f{{{k}}} =~ s/""/"/g if defined $f{{{k}}}; "#));
    }
}

/// The format's derived rules, in order.
fn derived_extract(fmt: &Format, code: &mut String) {
    for d in &fmt.derived {
        let src = match d.from {
            DerivedFrom::Event => "$_".to_string(),
            DerivedFrom::Field(i) => format!("$f{{{}}}", perl_str(&fmt.fields[i].name)),
        };
        // By the group's number, as the engine reads it: a query's own extract has no
        // group name (its value may be the whole match, `$&`).
        let sets: String = d
            .groups
            .iter()
            .map(|&(g, fid)| {
                let var = if g == 0 {
                    "$&".to_string()
                } else {
                    format!("${g}")
                };
                format!(
                    "$f{{{}}} //= {var} if defined {var}; ",
                    perl_str(&fmt.fields[fid].name)
                )
            })
            .collect();
        code.push_str(&format!(
            "if (defined {src} && {src} =~ /{}/) {{ {sets}}} ",
            perl_re(d.regex.as_str())
        ));
    }
}

/// Fields read from `key=value` (or `"key": value`) inside the message.
fn in_message_extract(c: &PipeCtx<'_>, code: &mut String) {
    for spec in &c.schema.fields {
        if let Origin::InMessage { message, key } = &spec.origin {
            let msg = format!("$f{{{}}}", perl_str(&c.schema.fields[*message].name));
            code.push_str(&format!("{{ my $k = {}; ", perl_str(key)));
            code.push_str(&format!("if (defined {msg} && {msg} =~ "));
            code.push_str(r#"/(?:(?:^|[ \t,(\[{;])\Q$k\E=|[{,] *"\Q$k\E": *|(?:^|[ \t,(\[{;'])\Q$k\E:[ \t]+(?=\d+(?:\.\d+)?[A-Za-z]{0,2}(?![\w.])(?! (?i:ns|us|ms|s|sec|secs|seconds|msec|b|kb|mb|bytes)(?![A-Za-z]))))("(?:[^"\\]|\\.)*"|[^ \t,)\]};]*)/) "#);
            code.push_str(r#"{ my $v = $1; $v =~ s/^"(.*)"$/$1/; $f{$k} //= $v } } "#);
        }
    }
}

/// Fields from a role's keys, and `key(value)` / `key: value` of the record.
fn keyed_extract(c: &PipeCtx<'_>, code: &mut String) {
    for spec in &c.schema.fields {
        // A role's keys, the first an event has.
        if let Origin::AnyKey(keys) = &spec.origin {
            let alts: Vec<String> = keys
                .iter()
                .map(|k| format!("$f{{{}}}", perl_str(k)))
                .collect();
            code.push_str(&format!(
                "$f{{{}}} //= {}; ",
                perl_str(&spec.name),
                alts.join(" // ")
            ));
        }
        if let Origin::InRecord(key) = &spec.origin {
            let k = perl_str(key);
            code.push_str(&format!(
                r#"{{ my $k = {k}; if (/(?:^|[ \t\n])\Q$k\E(?:\(([^()\s]+)\)(?=\s|$)| *: +(\S+))/) {{ $f{{$k}} //= defined $1 ? $1 : $2 }} }} "#
            ));
        }
    }
}

/// The level field mapped to the engine's level names.
fn level_extract(c: &PipeCtx<'_>, code: &mut String) {
    let fmt = c.fmt;
    if let Some(l) = c.schema.level {
        let spec = &c.schema.fields[l];
        if matches!(spec.origin, Origin::Analyser(_)) {
            code.push_str("delete $f{level}; ");
        } else if fmt.level_format == LevelFormat::Word {
            let map: Vec<String> = level_words()
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
}

/// The Perl code that reads a `w3c` line: a header line sets the columns (`@C`, the
/// defaults before any) and is no event; a data line fills `%f` by column.
fn columns_extract(fmt: &Format) -> Result<String, String> {
    let c = fmt.columns().ok_or("no columns")?;
    let sep = perl_re(&regex::escape(&char::from(c.separator).to_string()));
    let defaults: Vec<String> = c.defaults.iter().map(|d| perl_str(d)).collect();
    let empty: Vec<String> = c
        .empty
        .iter()
        .map(|e| format!("$f{{$k}} eq {}", perl_str(e)))
        .collect();
    let mut code = format!(
        "our @C; @C = ({}) unless @C; if (/^#/) {{ if (index($_, {h}) == 0) {{ my $l = substr($_, length {h}); $l =~ s/^[ \\t]+//; @C = split /[ \\t]+/, $l }} return }} \
         my @w = split /{sep}/, $_, -1; my $ok = @C && @w == @C; if ($ok) {{ @f{{@C}} = @w; for my $k (keys %f) {{ delete $f{{$k}} if $f{{$k}} eq ''{}{} }} }} ",
        defaults.join(", "),
        if empty.is_empty() { "" } else { " || " },
        empty.join(" || "),
        h = perl_str(&c.header),
    );
    for p in &c.plus_space {
        let v = format!("$f{{{}}}", perl_str(p));
        code.push_str(&format!("{v} =~ tr/+/ / if defined {v}; "));
    }
    if c.time_columns.len() > 1 {
        let parts: Vec<String> = c
            .time_columns
            .iter()
            .map(|n| format!("$f{{{}}}", perl_str(n)))
            .collect();
        let defined: Vec<String> = parts.iter().map(|p| format!("defined {p}")).collect();
        code.push_str(&format!(
            "$f{{timestamp}} = join('T', {}) . 'Z' if {}; ",
            parts.join(", "),
            defined.join(" && ")
        ));
    }
    Ok(code)
}

/// `num`: a number, or a Go duration (`416µs`, `1m2.5s`, `289 ms`) in seconds, as the engine
/// reads them.
const PERL_NUM: &str = "sub num { my $v = shift; return undef unless defined $v; return $v + 0 if $v =~ /^\\s*[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?\\s*$/; my $U = qr/ns|us|\\xc2\\xb5s|\\xce\\xbcs|ms|s|m|h/; return undef unless $v =~ /^\\s*([-+]?)((?:\\d+(?:\\.\\d*)? ?(?:$U))+)\\s*$/; my ($g, $d, $t) = ($1, $2, 0); my %u = (ns => 1e-9, us => 1e-6, \"\\xc2\\xb5s\" => 1e-6, \"\\xce\\xbcs\" => 1e-6, ms => 1e-3, s => 1, m => 60, h => 3600); while ($d =~ /(\\d+(?:\\.\\d*)?) ?($U)/g) { $t += $1 * $u{$2} } return $g eq '-' ? -$t : $t } ";
const PERL_TK: &str = "my %M = (jan=>1,feb=>2,mar=>3,apr=>4,may=>5,jun=>6,jul=>7,aug=>8,sep=>9,oct=>10,nov=>11,dec=>12); sub tk { my $t = shift; return undef unless defined $t; if ($t =~ /^(\\d{4})-(\\d\\d)-(\\d\\d)[T ](\\d\\d:\\d\\d:\\d\\d)/) { return \"$1-$2-$3T$4\" } if ($t =~ m{^(\\d\\d)/(\\w{3})/(\\d{4}):(\\d\\d:\\d\\d:\\d\\d)}) { return sprintf(\"%s-%02d-%sT%s\", $3, $M{lc $2}, $1, $4) } if ($t =~ /^(\\w{3}) +(\\d+) (\\d\\d:\\d\\d:\\d\\d)/) { return sprintf(\"0000-%02d-%02dT%s\", $M{lc $1}, $2, $3) } if ($t =~ /^(\\d\\d:\\d\\d:\\d\\d)(?:[.,]\\d+)?$/) { return \"0000-01-01T$1\" } if ($t =~ /^(\\d{10})(?:\\.\\d+)?$/) { my @g = gmtime($1); return sprintf(\"%04d-%02d-%02dT%02d:%02d:%02d\", $g[5] + 1900, $g[4] + 1, @g[3, 2, 1, 0]) } return undef } ";

/// `$f{"name"}`: a field of the event in the Perl program.
fn fv(c: &PipeCtx<'_>, f: &FieldRef) -> String {
    format!("$f{{{}}}", perl_str(&c.schema.fields[f.id].name))
}

/// A field as a group or distinct key (numbers by value).
fn keyv(c: &PipeCtx<'_>, f: &FieldRef) -> String {
    if f.is_numeric() {
        format!("num({})", fv(c, f))
    } else if f.path_key {
        let v = fv(c, f);
        format!("(defined({v}) ? ({v} =~ s/\\?.*//sr) : undef)")
    } else {
        fv(c, f)
    }
}

/// One filter as a Perl condition.
fn perl_one(c: &PipeCtx<'_>, cond: &Cond) -> Result<String, String> {
    let hay = |f: &Option<FieldRef>| f.as_ref().map_or("$_".to_string(), |f| fv(c, f));
    Ok(match cond {
        Cond::Num { f, op, value } => {
            let o = cmp_op(*op).ok_or("unsupported comparison")?;
            format!(
                "defined(num({0})) && num({0}) {o} {1}",
                fv(c, f),
                num_lit(*value)
            )
        }
        Cond::Range { f, lo, hi } => format!(
            "defined(num({0})) && num({0}) >= {1} && num({0}) <= {2}",
            fv(c, f),
            num_lit(*lo),
            num_lit(*hi)
        ),
        Cond::Text { f, value, cs, neg } => {
            let v = perl_str(&String::from_utf8_lossy(value));
            let x = fv(c, f);
            let e = if *cs {
                format!("{x} eq {v}")
            } else {
                format!("lc({x}) eq lc({v})")
            };
            // `!=` holds of rows that have the field, as in the engine.
            if *neg {
                format!("defined {x} && !({e})")
            } else {
                format!("defined {x} && {e}")
            }
        }
        Cond::Contains { f, text, neg, .. } | Cond::ContainsCi { f, text, neg, .. } => {
            let ci = if matches!(cond, Cond::ContainsCi { .. }) {
                "i"
            } else {
                ""
            };
            let h = hay(f);
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
            let h = hay(f);
            format!("(defined {h} && {h} =~ /{}/)", perl_re(re.as_str()))
        }
        Cond::All(cs) | Cond::Any(cs) => {
            let join = if matches!(cond, Cond::All(_)) {
                " && "
            } else {
                " || "
            };
            let parts = cs
                .iter()
                .map(|x| perl_one(c, x))
                .collect::<Result<Vec<_>, _>>()?;
            format!("({})", parts.join(join))
        }
        Cond::Not { f, inner } => {
            let e = format!("!({})", perl_one(c, inner)?);
            match f {
                Some(f) => format!("(defined {} && {e})", fv(c, f)),
                None => e,
            }
        }
    })
}

/// The condition an event must meet: it parsed (unless only whole-event text filters are
/// asked), every filter, and the window.
fn perl_cond(c: &PipeCtx<'_>) -> Result<String, String> {
    let all = all_conds(c);
    // A negation with no field of its own holds for every event, parsed or not: it needs
    // no `$ok` (one on a field tests the field's presence itself).
    let whole_only = all.iter().all(|x| {
        matches!(
            x,
            Cond::Contains { f: None, .. }
                | Cond::ContainsCi { f: None, .. }
                | Cond::Regex { f: None, .. }
                | Cond::Not { f: None, .. }
        )
    });
    let fields_used = !c.plan.group.is_empty() || c.plan.field.is_some() || c.window.is_some();
    let mut conds = Vec::new();
    if !whole_only || fields_used || c.fmt.only_rows {
        conds.push("$ok".to_string());
    }
    for x in all {
        conds.push(perl_one(c, x)?);
    }
    if let Some((a, b)) = &c.window {
        let t = c.schema.time.ok_or("no time field")?;
        let tf = format!("$f{{{}}}", perl_str(&c.schema.fields[t].name));
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

/// Statistics: values collected, sorted, and the figure printed.
fn perl_stat(c: &PipeCtx<'_>, m: Measure) -> Result<(String, String, String), String> {
    let f = c.plan.field.as_ref().ok_or("no field")?;
    // Nearest rank, as the engine reads it: rank ceil(r/10000 * n), `r` in hundredths of a
    // percent.
    let pct = |r: u64| format!("$v[int(({r} * @v + 9999) / 10000) - 1]");
    let out = match m {
        Measure::Min => "printf \"%.6f\\n\", $v[0]".to_string(),
        Measure::Max => "printf \"%.6f\\n\", $v[-1]".to_string(),
        Measure::Sum => "printf \"%.6f\\n\", $s".to_string(),
        Measure::Mean => "printf \"%.6f\\n\", $s / @v".to_string(),
        Measure::Stats => format!(
            "printf \"%d %.6f %.6f %.6f %.6f %.6f %.6f %.6f\\n\", scalar(@v), $v[0], $v[-1], $s / @v, {}, {}, {}, {}",
            pct(5000),
            pct(9000),
            pct(9500),
            pct(9900)
        ),
        m => format!(
            "printf \"%.6f\\n\", {}",
            pct(m.rank().map_or(5000, |r| r.hundredths()))
        ),
    };
    Ok((
        format!(
            "my $x = num({}); if (defined $x) {{ push @v, $x; $s += $x }}",
            fv(c, f)
        ),
        format!("@v = sort {{ $a <=> $b }} @v; {out} if @v"),
        String::new(),
    ))
}

/// Matching events per bucket (minute, hour, day or second of the normalised time).
fn perl_buckets(c: &PipeCtx<'_>) -> Result<(String, String, String), String> {
    let t = c.schema.time.ok_or("no time field")?;
    let len = match c.bucket {
        Some(60) => 16,
        Some(3600) => 13,
        Some(86400) => 10,
        Some(1) => 19,
        _ => return Err("buckets of 5 or 10 minutes have no one-line Perl equivalent".into()),
    };
    let tf = format!("$f{{{}}}", perl_str(&c.schema.fields[t].name));
    Ok((
        format!("my $t = tk({tf}); print substr($t, 0, {len}), \"\\n\" if defined $t"),
        String::new(),
        " | LC_ALL=C sort | uniq -c".into(),
    ))
}

/// What each matching event does, what the end prints, and the shell tail after perl.
fn perl_action(c: &PipeCtx<'_>) -> Result<(String, String, String), String> {
    let m = c.q.measure;
    if !c.plan.group.is_empty() {
        if m != Measure::Count {
            return Err("grouped statistics: no one-line Perl equivalent shown".into());
        }
        let ks: Vec<String> = c.plan.group.iter().map(|f| keyv(c, f)).collect();
        let defined: Vec<String> = ks.iter().map(|k| format!("defined({k})")).collect();
        return Ok((
            format!(
                "print join(\" \", {}), \"\\n\" if {}",
                ks.join(", "),
                defined.join(" && ")
            ),
            String::new(),
            format!(" | {}", top_tail(c.q.limit())),
        ));
    }
    match m {
        Measure::Count => Ok(("$n++".into(), "print $n + 0, \"\\n\"".into(), String::new())),
        Measure::CountDistinct => {
            let k = keyv(c, c.plan.field.as_ref().ok_or("no field")?);
            Ok((
                format!("print {k}, \"\\n\" if defined({k})"),
                String::new(),
                " | LC_ALL=C sort -u | wc -l".into(),
            ))
        }
        m if m.is_stat() || m == Measure::Stats => perl_stat(c, m),
        Measure::Buckets => perl_buckets(c),
        _ => Err(format!("no shell equivalent shown for `{m}`")),
    }
}

/// The loop that reads events: one per line, or the format's multi-line rules.
fn perl_reader(c: &PipeCtx<'_>) -> String {
    let Some(ml) = &c.fmt.multiline else {
        return "while (<>) { chomp; s/\\r$//; ev($_) } ".to_string();
    };
    let re = |r: &Option<regex::Regex>, none: &str| {
        r.as_ref().map_or(none.to_string(), |r| perl_re(r.as_str()))
    };
    let (start, cont, header, own) = (
        re(&ml.start, "(?!)"),
        re(&ml.cont, ".?"),
        re(&ml.header, "(?!)"),
        re(&ml.own_record, "(?!)"),
    );
    // A `preamble` format's lines before the first start are no events.
    let single = if ml.preamble {
        "ev($_) if $st"
    } else {
        "ev($_)"
    };
    format!(
        "my ($e, $oh, $st); while (<>) {{ chomp; s/\\r$//; my $h = /{header}/ ? 1 : 0; \
         if (/{start}/) {{ $st = 1; if (defined $e && $oh) {{ $e .= \"\\n$_\"; $oh &&= $h }} \
         else {{ ev($e) if defined $e; $e = $_; $oh = $h }} }} \
         elsif (defined $e && /{cont}/ && !/{own}/) {{ $e .= \"\\n$_\"; $oh &&= $h }} \
         else {{ ev($e) if defined $e; undef $e; {single} }} }} ev($e) if defined $e; "
    )
}

pub(super) fn perl(c: &PipeCtx<'_>) -> Result<String, String> {
    let extract = perl_extract(c)?;
    let cond = perl_cond(c)?;
    let (act, end, tail) = perl_action(c)?;
    // A level found by the analyser's rule (no level column) has no Perl reading: a
    // question on it gets no pipeline rather than one that disagrees with the engine.
    if let Some(l) = c.schema.level {
        let is_level = |f: &FieldRef| f.id == l;
        let used = all_conds(c).iter().any(|x| x.field().is_some_and(is_level))
            || c.plan.group.iter().any(is_level)
            || c.plan.field.as_ref().is_some_and(is_level);
        if used && matches!(c.schema.fields[l].origin, Origin::Analyser(_)) {
            return Err("the level is the analyser's rule on each line, which has no one-line Perl equivalent".into());
        }
    }
    let per_event = format!(
        "sub ev {{ local $_ = shift; return unless /\\S/; {extract}if ({cond}) {{ {act} }} }} "
    );
    let reader = perl_reader(c);
    let prog = format!("my ($n, $s, @v); {PERL_NUM}{PERL_TK}{per_event}{reader}{end}");
    Ok(format!("perl -e {} {}{tail}", shq(&prog), shq(c.file)))
}
