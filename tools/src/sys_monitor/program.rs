//! The program a process runs, read from its command line: the executable's name, or the
//! script, jar or module an interpreter runs. A process asked for by name ("is postgres
//! running", "kill report-cruncher") is matched on this, not on its whole command line,
//! where a name also stands in an editor's file, a `tail -f` of its log or the question
//! itself (`llmops-tui ask "is postgres running?"`). Also the arguments of a
//! `/proc/PID/cmdline`, which the program and a process's details are read from.

/// Interpreters whose program is the script, jar or module they are given (with any
/// version after the name: `python3.11`, `ruby3.2`, `node18`).
const INTERPRETERS: [&str; 13] = [
    "java", "python", "pypy", "node", "nodejs", "ruby", "perl", "php", "bash", "sh", "dash", "zsh",
    "ksh",
];

/// Options of an interpreter that take the next argument as their value (it is no script).
const WITH_VALUE: [&str; 15] = [
    "-cp",
    "-classpath",
    "--class-path",
    "-p",
    "--module-path",
    "--add-opens",
    "--add-exports",
    "--add-modules",
    "--add-reads",
    "-r",
    "--require",
    "-I",
    "-X",
    "-W",
    "-o",
];

/// The program of a process with arguments `argv` (`/proc/PID/cmdline` split at its NULs)
/// and kernel name `comm`:
/// - a kernel thread (no arguments, or `[kworker/0:1]`): `comm`;
/// - an interpreter with a script, jar or module (`python3 /srv/bin/gunicorn app:app`,
///   `java -Xmx1g -jar /opt/report-cruncher-2.3.jar`, `python -m celery`): its file
///   name without directory or version (`gunicorn`, `report-cruncher.jar`, `celery`);
///   a Java main class by its last segment (`com.acme.Ledger` -> `Ledger`); an inline
///   script (`sh -c …`) or none: the interpreter;
/// - otherwise the executable's file name, without what a server writes after it when it
///   renames its processes (`nginx: worker process`, `postgres: checkpointer`,
///   `redis-server *:6379`) or a login shell's leading `-`.
pub fn program_of<S: AsRef<str>>(argv: &[S], comm: &str) -> String {
    let mut args = argv.iter().map(AsRef::as_ref);
    let Some(first) = args.next() else {
        return comm.to_string();
    };
    if first.starts_with('[') && first.ends_with(']') {
        return comm.to_string();
    }
    // A title a server set over its arguments is one argument: its name comes first.
    let titled = argv.len() == 1 && !first.starts_with('/');
    let first = match first.split_once(": ") {
        Some((name, _)) => name,
        None if titled => first.split_whitespace().next().unwrap_or(first),
        None => first,
    };
    let exe = base(first).trim_end_matches(':').trim_start_matches('-');
    let family = exe.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    if !INTERPRETERS.contains(&family) {
        return exe.to_string();
    }
    let java = family == "java";
    while let Some(w) = args.next() {
        match w {
            "-jar" => return args.next().map_or(exe.to_string(), script),
            "-m" if java => return args.next().map_or(exe.to_string(), main_class),
            "-m" => return args.next().map_or(exe.to_string(), script),
            "-c" | "-e" => return exe.to_string(),
            w if WITH_VALUE.contains(&w) => {
                args.next();
            }
            w if w.starts_with('-') => {}
            w if java => return main_class(w),
            w => return script(w),
        }
    }
    exe.to_string()
}

/// A Java main class by its last segment (`com.acme.Ledger`, a module's `app/com.acme.Ledger`).
fn main_class(w: &str) -> String {
    let class = w.rsplit('/').next().unwrap_or(w);
    class.rsplit('.').next().unwrap_or(class).to_string()
}

/// [`program_of`] of a command line written with spaces between its arguments.
#[cfg(test)]
pub(crate) fn program_of_line(line: &str, comm: &str) -> String {
    let argv: Vec<&str> = line.split_whitespace().collect();
    program_of(&argv, comm)
}

/// The NUL-separated command line as arguments (control characters as `?`, as ps shows
/// them); a kernel thread has none and shows as `[comm]`.
pub(super) fn argv_of(raw: &[u8], comm: &str) -> Vec<String> {
    let argv: Vec<String> = raw
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| {
            String::from_utf8_lossy(a)
                .chars()
                .map(|c| if c.is_control() { '?' } else { c })
                .collect()
        })
        .collect();
    if argv.is_empty() {
        vec![format!("[{comm}]")]
    } else {
        argv
    }
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
    use super::{program_of, program_of_line};

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
            assert_eq!(program_of_line(command, comm), program, "{command}");
        }
    }

    #[test]
    fn arguments_are_read_as_the_process_wrote_them() {
        for (argv, comm, program) in [
            (&["/opt/My App/bin/srv", "--port", "9"][..], "srv", "srv"),
            (&["python3", "/srv/my jobs/etl.py"][..], "python3", "etl.py"),
            (&["nginx: worker process"][..], "nginx", "nginx"),
            (
                &["postgres: 15/main: checkpointer"][..],
                "postgres",
                "postgres",
            ),
            (&["redis-server *:6379"][..], "redis-server", "redis-server"),
            (&["-bash"][..], "bash", "bash"),
            (
                &["python3", "-X", "importtime", "app.py"][..],
                "python3",
                "app.py",
            ),
            (&["bash", "-o", "pipefail", "job.sh"][..], "bash", "job.sh"),
            (&["ruby3.2", "/srv/worker.rb"][..], "ruby3.2", "worker.rb"),
            (
                &[
                    "java",
                    "--add-opens",
                    "a/b=ALL-UNNAMED",
                    "-m",
                    "app/com.acme.Main",
                ][..],
                "java",
                "Main",
            ),
        ] {
            assert_eq!(program_of(argv, comm), program, "{argv:?}");
        }
        let none: [&str; 0] = [];
        assert_eq!(program_of(&none, "kthreadd"), "kthreadd");
    }
}
