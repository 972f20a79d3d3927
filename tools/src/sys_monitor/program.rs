//! The program a process runs, read from its command line: the executable's name, or the
//! script, jar or module an interpreter runs. A process asked for by name ("is postgres
//! running", "kill report-cruncher") is matched on this, not on its whole command line,
//! where a name also stands in an editor's file, a `tail -f` of its log or the question
//! itself (`llmops-tui ask "is postgres running?"`).

/// Interpreters whose program is the script, jar or module they are given.
const INTERPRETERS: [&str; 16] = [
    "java", "python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "ruby", "perl",
    "php", "bash", "sh", "dash", "zsh", "ksh",
];

/// Options of an interpreter that take the next word as their value (it is no script).
const WITH_VALUE: [&str; 6] = [
    "-cp",
    "-classpath",
    "--class-path",
    "-p",
    "--module-path",
    "-r",
];

/// The program of a process with command line `command` (arguments joined by spaces) and
/// kernel name `comm`:
/// - a kernel thread (`[kworker/0:1]`, no command line) or an empty line: `comm`;
/// - an interpreter with a script, jar or module (`python3 /srv/bin/gunicorn app:app`,
///   `java -Xmx1g -jar /opt/report-cruncher-2.3.jar`, `python -m celery`): its file
///   name without directory or version (`gunicorn`, `report-cruncher.jar`, `celery`);
///   a Java main class by its last segment (`com.acme.Ledger` -> `Ledger`); an inline
///   script (`sh -c …`) or none: the interpreter;
/// - otherwise the executable's file name, without the `:` a server writes after its name
///   when it renames its workers (`nginx: worker process`, `postgres: checkpointer`).
pub fn program_of(command: &str, comm: &str) -> String {
    let mut words = command.split_whitespace();
    let Some(first) = words.next() else {
        return comm.to_string();
    };
    if first.starts_with('[') && command.ends_with(']') {
        return comm.to_string();
    }
    let exe = base(first).trim_end_matches(':');
    let interpreter = INTERPRETERS.contains(&exe)
        || ["python", "pypy", "php"].iter().any(|p| {
            exe.strip_prefix(p)
                .is_some_and(|v| v.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
        });
    if !interpreter {
        return exe.to_string();
    }
    while let Some(w) = words.next() {
        match w {
            "-jar" | "-m" => return words.next().map_or(exe.to_string(), script),
            "-c" | "-e" => return exe.to_string(),
            w if WITH_VALUE.contains(&w) => {
                words.next();
            }
            w if w.starts_with('-') => {}
            w if exe == "java" => return w.rsplit('.').next().unwrap_or(w).to_string(),
            w => return script(w),
        }
    }
    exe.to_string()
}

/// A path's last component.
fn base(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// A script or jar by its file name, without directory or version after a `-`
/// (`/opt/report-cruncher-2.3.1.jar` -> `report-cruncher.jar`): the name with or without
/// its extension finds it.
fn script(path: &str) -> String {
    let name = base(path);
    let (stem, ext) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && ext.bytes().all(|b| b.is_ascii_alphabetic()) => {
            (stem, Some(ext))
        }
        _ => (name, None),
    };
    let unversioned = stem
        .match_indices('-')
        .find(|(i, _)| {
            let rest = &stem[i + 1..];
            let rest = rest.strip_prefix('v').unwrap_or(rest);
            rest.starts_with(|c: char| c.is_ascii_digit())
                && rest
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        })
        .map_or(stem, |(i, _)| &stem[..i]);
    match ext {
        Some(e) => format!("{unversioned}.{e}"),
        None => unversioned.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::program_of;

    #[test]
    fn the_program_is_the_executable_or_what_an_interpreter_runs() {
        for (command, comm, program) in [
            ("/usr/sbin/nginx -g daemon off;", "nginx", "nginx"),
            ("nginx: worker process", "nginx", "nginx"),
            ("postgres: 15/main: checkpointer", "postgres", "postgres"),
            ("redis-server *:6379", "redis-server", "redis-server"),
            ("[kworker/0:1-events]", "kworker/0:1", "kworker/0:1"),
            ("", "kthreadd", "kthreadd"),
            (
                "java -Xmx2g -jar /opt/report-cruncher-2.3.1.jar --daily",
                "java",
                "report-cruncher.jar",
            ),
            (
                "java -cp /opt/app/lib/* com.acme.Ledger --port 9",
                "java",
                "Ledger",
            ),
            (
                "/usr/bin/python3 /srv/venv/bin/gunicorn app:app -w 4",
                "gunicorn",
                "gunicorn",
            ),
            (
                "python3.11 -u worker_main.py",
                "python3.11",
                "worker_main.py",
            ),
            ("python3 -m celery -A tasks worker", "celery", "celery"),
            ("node /srv/ledger.js", "node", "ledger.js"),
            (
                "/bin/bash /tmp/ask.sh is postgres running?",
                "ask.sh",
                "ask.sh",
            ),
            ("sh -c echo hi; sleep 5", "sh", "sh"),
            ("bash", "bash", "bash"),
            ("vim /etc/nginx/nginx.conf", "vim", "vim"),
            ("tail -f /var/log/report-cruncher.log", "tail", "tail"),
            ("/opt/tool-v2/bin/agent-x --v", "agent-x", "agent-x"),
        ] {
            assert_eq!(program_of(command, comm), program, "{command}");
        }
    }
}
