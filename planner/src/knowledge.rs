//! Built-in bilingual knowledge: what the whitelisted commands and common ops concepts
//! mean, plus the fixed small-talk replies. Answers questions without any tool.

use super::text::{ascii_words, contains_any, Lang};

struct Entry {
    /// Ways users write the concept; ASCII keys match as whole words (multi-word keys as
    /// phrases), Chinese keys as substrings.
    keys: &'static [&'static str],
    zh: &'static str,
    en: &'static str,
}

const ENTRIES: &[Entry] = &[
    Entry { keys: &["tail -f"], zh: "`tail -f 文件` 持续跟踪文件末尾，新写入的行会实时显示，常用来盯日志（Ctrl+C 退出）。`-F` 还能跟随被轮转的日志。注意：这里的命令工具只返回一次性输出，不支持持续跟踪，可以用 `tail -n 50 文件` 看最新内容。", en: "`tail -f FILE` follows the end of a file and prints new lines as they are written, the usual way to watch a log (Ctrl+C stops it); `-F` also survives log rotation. The command tool here returns one-shot output, so use `tail -n 50 FILE` for the latest lines." },
    Entry { keys: &["tail"], zh: "`tail` 显示文件末尾几行，默认 10 行；`tail -n 50 文件` 显示最后 50 行，`tail -f` 持续跟踪新内容。", en: "`tail` prints the last lines of a file (10 by default); `tail -n 50 FILE` shows the last 50, `tail -f` keeps following new output." },
    Entry { keys: &["head -n", "head"], zh: "`head` 显示文件开头几行，默认 10 行；`head -n 20 文件` 显示前 20 行，`head -c 100` 按字节截取。", en: "`head` prints the first lines of a file (10 by default); `head -n 20 FILE` shows the first 20, `head -c 100` the first 100 bytes." },
    Entry { keys: &["ls -la", "ls -l", "ls"], zh: "`ls` 列出目录内容。常用参数：`-l` 长格式（权限、属主、大小、时间），`-a` 包含隐藏文件，`-h` 人类可读大小，`-t` 按时间排序。", en: "`ls` lists directory contents. Common flags: `-l` long format (permissions, owner, size, time), `-a` include hidden files, `-h` human-readable sizes, `-t` sort by time." },
    Entry { keys: &["ll"], zh: "`ll` 不是独立命令，而是很多发行版里 `ls -l`（有时是 `ls -alF`）的 shell 别名，效果就是长格式列表。所以 `ls` 只列名字，`ll` 额外显示权限、属主、大小和修改时间。命令工具不经过 shell，没有别名，请用 `ls -l` 或 `ls -la`。", en: "`ll` is not a real program: most distributions define it as a shell alias for `ls -l` (sometimes `ls -alF`). So `ls` lists names only, while `ll` adds permissions, owner, size and time. The command tool has no shell aliases; use `ls -l` or `ls -la`." },
    Entry { keys: &["cat"], zh: "`cat` 把文件内容完整输出到终端，适合小文件；大文件建议用 `head`/`tail` 或让我分段读取。", en: "`cat` prints a whole file; good for small files. For big ones use `head`/`tail`, or ask me to read it in pages." },
    Entry { keys: &["grep -r", "grep"], zh: "`grep 模式 文件` 在文件中搜索匹配的行。常用参数：`-i` 忽略大小写，`-n` 显示行号，`-c` 只计数，`-v` 反向匹配，`-r` 递归目录，`-E` 扩展正则。例：`grep -n ERROR app.log`。", en: "`grep PATTERN FILE` prints the lines that match. Useful flags: `-i` ignore case, `-n` line numbers, `-c` count only, `-v` invert, `-r` recurse into directories, `-E` extended regex. Example: `grep -n ERROR app.log`." },
    Entry { keys: &["ps aux", "ps -ef", "ps"], zh: "`ps` 查看进程快照。`ps aux` 列出所有用户的全部进程（含 CPU%、内存%、启动命令），`ps -ef` 是 System V 风格的等价写法。", en: "`ps` shows a snapshot of processes. `ps aux` lists every process of every user with CPU%, MEM% and the command; `ps -ef` is the System V equivalent." },
    Entry { keys: &["pwd"], zh: "`pwd`（print working directory）显示当前所在的目录的绝对路径。", en: "`pwd` (print working directory) prints the absolute path of the current directory." },
    Entry { keys: &["whoami"], zh: "`whoami` 显示当前生效的用户名，用来确认服务以哪个用户身份运行。", en: "`whoami` prints the effective user name, e.g. to check which user a service runs as." },
    Entry { keys: &["df -h", "df"], zh: "`df` 查看各文件系统（挂载点）的磁盘空间：总量、已用、可用和使用率；`-h` 用 K/M/G 显示，`-i` 查看 inode 使用情况。", en: "`df` reports disk space per mounted filesystem: size, used, available and use%; `-h` prints human-readable sizes, `-i` shows inode usage." },
    Entry { keys: &["free -h", "free -m", "free"], zh: "`free` 查看内存和 swap：total、used、free、buff/cache、available；判断内存是否够用主要看 available。`-h` 人类可读，`-m` 以 MB 显示。", en: "`free` shows memory and swap: total, used, free, buff/cache and available; `available` is what tells you whether memory is short. `-h` human-readable, `-m` in MiB." },
    Entry { keys: &["du"], zh: "`du` 统计目录或文件占用的磁盘空间，如 `du -sh 目录`。它不在本助手的命令白名单中，整体磁盘情况可以用 `df -h` 或直接问我“磁盘使用情况”。", en: "`du` sums the disk space used by files/directories, e.g. `du -sh DIR`. It is not in this assistant's whitelist; use `df -h` or ask me for disk usage." },
    Entry { keys: &["top", "htop"], zh: "`top`/`htop` 实时显示 CPU、内存和最耗资源的进程。本助手不运行交互式程序，可以问我“CPU 使用率”或执行 `ps aux`。", en: "`top`/`htop` show live CPU, memory and the busiest processes. Interactive tools are not run here; ask me for CPU usage or run `ps aux`." },
    Entry { keys: &["chmod"], zh: "`chmod` 修改文件权限，如 `chmod 644 文件`、`chmod +x 脚本`。它会改变系统状态，不在本助手的白名单中。", en: "`chmod` changes file permissions, e.g. `chmod 644 FILE` or `chmod +x script`. It modifies the system, so it is not in this assistant's whitelist." },
    Entry { keys: &["rm -rf", "rm"], zh: "`rm` 删除文件，`rm -rf` 递归强制删除且不提示，误用会造成不可恢复的数据丢失。本助手不会执行删除类命令。", en: "`rm` deletes files; `rm -rf` deletes recursively without asking and can destroy data irrecoverably. This assistant never runs it." },
    Entry { keys: &["kill"], zh: "`kill PID` 向进程发送信号（默认 TERM 请求退出，`-9` 强制结束）。本助手不执行会改变进程状态的命令。", en: "`kill PID` sends a signal to a process (TERM asks it to exit, `-9` forces it). This assistant does not run state-changing commands." },
    Entry { keys: &["find"], zh: "`find 目录 -name 模式` 按名字、大小、时间等条件查找文件。它不在白名单中；在已上传文件和系统文档中查找，可以直接让我“搜索 …”。", en: "`find DIR -name PATTERN` locates files by name, size, time and more. It is not whitelisted here; ask me to search uploads and docs instead." },
    Entry { keys: &["less", "more"], zh: "`less`/`more` 分页查看文件。这里不支持交互式分页，可以用 `head`/`tail` 或让我读取文件。", en: "`less`/`more` page through a file interactively; not available here, use `head`/`tail` or ask me to read the file." },
    Entry { keys: &["管道", "pipe"], zh: "管道 `|` 把前一个命令的输出作为后一个命令的输入，如 `ps aux | grep nginx`。本助手的命令工具不经过 shell，但会自己连接简单的 `|` 管道（每一段都必须是允许的只读命令，最多 5 段）；`&&`、`;`、重定向不支持。", en: "A pipe `|` feeds one command's output into the next, e.g. `ps aux | grep nginx`. The command tool here runs without a shell but connects plain `|` pipelines itself (every stage an allowed read-only command, at most 5); `&&`, `;` and redirects are not supported." },
    Entry { keys: &["load average", "负载均值", "平均负载", "系统负载"], zh: "负载均值（load average）是过去 1、5、15 分钟内处于运行或等待状态的平均任务数。和 CPU 核数比较：持续高于核数说明 CPU 排队、系统繁忙。", en: "Load average is the mean number of runnable or waiting tasks over the last 1, 5 and 15 minutes. Compare it with the core count: staying above it means work is queuing." },
    Entry { keys: &["swap", "交换分区"], zh: "swap（交换分区）是内存不足时用来暂存内存页的磁盘空间。频繁使用 swap 会明显变慢，通常说明物理内存不够。", en: "Swap is disk space the kernel uses for memory pages when RAM runs short; heavy swapping slows the system and usually means RAM is insufficient." },
    Entry { keys: &["inode"], zh: "inode 是文件系统记录文件元数据的结构，每个文件占一个。inode 用完时即使还有空间也无法新建文件，可用 `df -i` 查看。", en: "An inode stores a file's metadata, one per file. When a filesystem runs out of inodes you cannot create files even with free space; check with `df -i`." },
    Entry { keys: &["sudo"], zh: "`sudo` 以其他用户（通常是 root）身份执行命令。本助手不提权。", en: "`sudo` runs a command as another user, usually root. This assistant never escalates privileges." },
    Entry { keys: &["systemctl"], zh: "`systemctl` 管理 systemd 服务（start/stop/restart/status）。会改变服务状态，不在本助手白名单中。", en: "`systemctl` manages systemd services (start/stop/restart/status). It changes service state, so it is not whitelisted here." },
    Entry { keys: &["journalctl"], zh: "`journalctl` 查看 systemd 日志，如 `journalctl -u 服务名 -n 100`。不在白名单中；可以把日志上传给我分析。", en: "`journalctl` reads the systemd journal, e.g. `journalctl -u SERVICE -n 100`. Not whitelisted here; upload the log and I will analyse it." },
    Entry { keys: &["crontab", "cron", "定时任务"], zh: "cron 按计划周期执行任务，`crontab -e` 编辑、`crontab -l` 查看当前用户的任务，格式为“分 时 日 月 周 命令”。", en: "cron runs jobs on a schedule; `crontab -e` edits and `crontab -l` lists the current user's jobs, in the form `min hour day month weekday command`." },
    Entry { keys: &["ssh"], zh: "`ssh 用户@主机` 通过加密通道登录远程主机，`-i` 指定私钥，`-p` 指定端口。", en: "`ssh user@host` logs into a remote host over an encrypted channel; `-i` picks a key, `-p` a port." },
];

/// Question phrasings that ask what something is or how to use it.
fn is_concept_question(text: &str) -> bool {
    let lower = text.to_lowercase();
    contains_any(
        &lower,
        &[
            "是什么意思",
            "什么意思",
            "是做什么",
            "做什么的",
            "干什么的",
            "干嘛的",
            "干嘛用",
            "有什么用",
            "有啥用",
            "怎么用",
            "如何使用",
            "怎么使用",
            "用法",
            "区别",
            "不同",
            "解释",
            "什么是",
            "是什么",
            "含义",
            "作用",
            "参数是",
            "啥意思",
            "what does",
            "what is",
            "what's",
            "how do i use",
            "how to use",
            "usage of",
            "explain",
            "difference",
            " vs",
            "meaning",
            "how does",
            "what are",
            "used for",
        ],
    )
}

/// Finds concept entries in the text, longest key first, without overlaps.
fn find_entries(text: &str) -> Vec<&'static Entry> {
    let lower = text.to_lowercase();
    let mut taken = vec![false; lower.len()];
    let mut keys: Vec<(&'static str, usize)> = ENTRIES
        .iter()
        .enumerate()
        .flat_map(|(i, e)| e.keys.iter().map(move |k| (*k, i)))
        .collect();
    keys.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.1.cmp(&b.1)));
    let mut hits: Vec<(usize, usize)> = Vec::new();
    for (k, i) in keys {
        let mut from = 0;
        while let Some(pos) = lower[from..].find(k) {
            let start = from + pos;
            let end = start + k.len();
            from = end;
            if k.is_ascii() {
                // Whole-word match: "ls" must not fire inside "else", "ll" inside "all".
                let before = lower[..start].chars().next_back();
                let after = lower[end..].chars().next();
                let word_char =
                    |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
                if word_char(before) || word_char(after) || used_as_a_word(&lower, start, end) {
                    continue;
                }
            }
            if taken[start..end].iter().any(|t| *t) {
                continue;
            }
            taken[start..end].iter_mut().for_each(|t| *t = true);
            if !hits.iter().any(|h| h.1 == i) {
                hits.push((start, i));
            }
        }
    }
    hits.sort();
    hits.into_iter().map(|(_, i)| &ENTRIES[i]).collect()
}

/// Whether a command's name at `start..end` is an ordinary word of a question about a
/// table: a name that is also the lexicon's word for "the first N" ("top"), followed by a
/// count or by a table's name ("the top 5 processes", "top five", "top processes by
/// memory"), as the command never is. ("chmod 755", "swap 分区" stay the commands.)
fn used_as_a_word(lower: &str, start: usize, end: usize) -> bool {
    use crate::lexicon::Cue;
    let lex = crate::lexicon::lexicon();
    let key = &lower[start..end];
    let a_limit_word = crate::lexicon::find(lex, key)
        .iter()
        .any(|h| h.start == 0 && h.end == key.len() && matches!(h.cue, Cue::Limit | Cue::Group));
    let rest = lower[end..].trim_start();
    let next = rest
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or("");
    let a_table = |h: &crate::lexicon::Hit| {
        h.start == 0
            && matches!(h.cue, Cue::Source(i)
                if lex.sources[i].source != llmops_common::query::Source::Log)
    };
    a_limit_word
        && ((!next.is_empty() && next.bytes().all(|b| b.is_ascii_digit()))
            || lex
                .grammar
                .numbers
                .en
                .iter()
                .any(|(w, v)| *v >= 2.0 && w == next)
            || crate::lexicon::find(lex, rest).iter().any(a_table))
}

/// Answers "what is X / how do I use X / X vs Y" from the table; `None` if no concept matches
/// or the text is not such a question.
pub fn explain(text: &str, lang: Lang) -> Option<String> {
    if !is_concept_question(text) {
        return None;
    }
    // "What is in config.yaml" is about a file, not a concept.
    let words = ascii_words(text);
    if words.iter().any(|w| w == "in" || w == "inside") {
        return None;
    }
    let entries = find_entries(text);
    if entries.is_empty() || about_more_than_concepts(&words, &entries) {
        return None;
    }
    let body: Vec<&str> = entries.iter().map(|e| lang.pick(e.zh, e.en)).collect();
    Some(if entries.len() > 1 {
        let lead = lang.pick("对比说明：", "Side by side:");
        format!("{lead}\n\n- {}", body.join("\n- "))
    } else {
        body.join("")
    })
}

/// Words a question about concepts is framed with, beyond the lexicon's stop words.
const FRAMING: &[&str] = &[
    "whats",
    "mean",
    "means",
    "meaning",
    "difference",
    "vs",
    "versus",
    "explain",
    "command",
    "commands",
    "option",
    "flag",
    "work",
    "works",
];

/// Whether the English words say more than the concepts they name: a question about two
/// services' logs that uses "kill" among many other words asks about the logs, not `kill`.
fn about_more_than_concepts(words: &[String], entries: &[&Entry]) -> bool {
    let key_words: Vec<String> = entries
        .iter()
        .flat_map(|e| e.keys.iter().flat_map(|k| ascii_words(k)))
        .collect();
    let stop = &crate::lexicon::lexicon().grammar.stop.en;
    let other = words
        .iter()
        .filter(|w| {
            w.len() > 2
                && !FRAMING.contains(&w.as_str())
                && !stop.iter().any(|s| s == *w)
                && !key_words.contains(w)
        })
        .count();
    other > 2
}

/// Fixed small-talk replies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chat {
    Greet,
    Thanks,
    Bye,
    Identity,
    UploadHowto,
    Unknown,
}

pub fn chat_reply(kind: Chat, lang: Lang) -> String {
    let caps_zh = "我可以：查看 CPU/内存/磁盘和占用最多的进程；执行只读命令（ps、df、free、ss、ip、journalctl、systemctl status、du、grep、tail 等，支持 | 管道）；搜索文档和你上传的文件；完整分析日志（精确计数）、读取配置；准备文件下载。";
    let caps_en = "I can check CPU/memory/disk and the processes using the most, run read-only commands (ps, df, free, ss, ip, journalctl, systemctl status, du, grep, tail and more, with | pipelines), search the docs and your uploads, analyse whole logs (exact counts) and read configs, and prepare file downloads.";
    match (kind, lang) {
        (Chat::Greet, Lang::Zh) => format!("你好！我是 llmops 运维助手。{caps_zh}有什么需要？"),
        (Chat::Greet, Lang::En) => format!("Hi! I'm the llmops operations assistant. {caps_en} What do you need?"),
        (Chat::Thanks, Lang::Zh) => "不客气！还有其他需要随时告诉我。".to_string(),
        (Chat::Thanks, Lang::En) => "You're welcome! Ask any time.".to_string(),
        (Chat::Bye, Lang::Zh) => "再见！需要时随时回来。".to_string(),
        (Chat::Bye, Lang::En) => "Bye! Come back any time.".to_string(),
        (Chat::Identity, Lang::Zh) => format!("我是 llmops 运维助手，运行在这台服务器上（当前为离线规划模式）。{caps_zh}"),
        (Chat::Identity, Lang::En) => format!("I'm llmops, an operations assistant running on this server (offline planner mode). {caps_en}"),
        (Chat::UploadHowto, Lang::Zh) => "上传文件的方法：\n- TUI 中输入 `/upload <路径> [备注]`，或在文件面板里选择本地文件上传；备注会和文件一起发给我。\n- 命令行：`llmops-tui upload 文件路径`。\n上传完成并建立索引后，直接告诉我想做什么，例如“分析这个日志”或“这个配置里端口是多少”。".to_string(),
        (Chat::UploadHowto, Lang::En) => "To upload a file:\n- In the TUI type `/upload <path> [note]`, or pick a local file in the files pane; the note travels with the file.\n- From a shell: `llmops-tui upload FILE`.\nOnce it is indexed, just tell me what you want, e.g. \"analyse this log\" or \"what port does this config use\".".to_string(),
        (Chat::Unknown, Lang::Zh) => format!("抱歉，我没理解你的意思。{caps_zh}例如：“CPU 使用率”“df -h”“搜索部署文档”“把 config.yaml 发给我”。"),
        (Chat::Unknown, Lang::En) => format!("Sorry, I didn't get that. {caps_en} For example: \"cpu usage\", \"df -h\", \"search deployment docs\", \"send me config.yaml\"."),
    }
}

/// "what tools do you have", "你能执行哪些命令", "what can you do": a question about the
/// assistant's capabilities (answered from what it is, never by running or searching).
pub fn asks_capabilities(text: &str) -> bool {
    use super::text::{ascii_words, contains_any, has_word};
    let lower = text.to_lowercase();
    let words = ascii_words(&lower);
    let w = |x: &str| has_word(&words, x);
    // "what is the command line of sshd", "X 的启动命令是什么": a process's command asked.
    let lex = super::lexicon::lexicon();
    let a_field = super::lexicon::find(lex, &lower).iter().any(
        |h| matches!(h.cue, super::lexicon::Cue::Field(i) if lex.fields[i].field == "command"),
    );
    if a_field
        || super::incident::names_a_file(text)
        || words.iter().any(|x| super::slots::is_known_command(x))
        || contains_any(
            &lower,
            &["文档", "手册", "runbook", "docs", "documentation", "manual"],
        )
    {
        return false;
    }
    let thing = [
        "tool",
        "tools",
        "command",
        "commands",
        "capabilities",
        "features",
        "functions",
    ]
    .iter()
    .any(|x| w(x))
        || contains_any(&lower, &["工具", "命令", "功能", "能力"]);
    let asking = [
        "what",
        "which",
        "list",
        "available",
        "allowed",
        "support",
        "supported",
    ]
    .iter()
    .any(|x| w(x))
        || contains_any(
            &lower,
            &[
                "do you have",
                "can you use",
                "can you run",
                "哪些",
                "什么",
                "能用",
                "可以用",
                "支持",
            ],
        );
    (thing && asking)
        || contains_any(
            &lower,
            &[
                "what can you do",
                "what are you able to do",
                "你能做什么",
                "你会什么",
                "你能干什么",
                "你可以做什么",
            ],
        )
}

/// Greetings, thanks and goodbyes need a word that says so: "为什么会这样呢" is not a
/// goodbye, whatever the classifier's nearest example was.
pub fn small_talk_cue(intent: super::classify::Intent, clause: &str) -> bool {
    use super::classify::Intent;
    use super::text::{ascii_words, contains_any, has_word};
    let lower = clause.to_lowercase();
    let words = ascii_words(&lower);
    let any_word = |ws: &[&str]| ws.iter().any(|w| has_word(&words, w));
    match intent {
        Intent::Greet => {
            contains_any(
                &lower,
                &[
                    "你好",
                    "您好",
                    "嗨",
                    "哈喽",
                    "早上好",
                    "下午好",
                    "晚上好",
                    "在吗",
                    "早安",
                ],
            ) || any_word(&[
                "hi",
                "hello",
                "hey",
                "morning",
                "evening",
                "afternoon",
                "yo",
                "greetings",
                "howdy",
            ])
        }
        Intent::Thanks => {
            contains_any(
                &lower,
                &["谢", "感谢", "多亏", "辛苦", "太好了", "好的", "棒"],
            ) || any_word(&[
                "thanks",
                "thank",
                "thx",
                "ty",
                "cheers",
                "appreciate",
                "great",
                "awesome",
                "perfect",
                "nice",
            ])
        }
        Intent::Bye => {
            contains_any(
                &lower,
                &[
                    "再见",
                    "拜拜",
                    "回头见",
                    "下次见",
                    "先这样",
                    "走了",
                    "下线",
                    "晚安",
                    "结束",
                ],
            ) || any_word(&[
                "bye", "goodbye", "later", "cya", "exit", "quit", "done", "night", "farewell",
            ])
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explains_commands() {
        let a = explain("ls和ll有什么区别", Lang::Zh).unwrap();
        assert!(a.contains("ls -l") && a.contains("别名"), "{a}");
        let a = explain("tail -f 是什么意思", Lang::Zh).unwrap();
        assert!(a.contains("跟踪"), "{a}");
        assert!(explain("df命令是做什么的", Lang::Zh)
            .unwrap()
            .contains("磁盘"));
        assert!(explain("how do I use grep?", Lang::En)
            .unwrap()
            .contains("PATTERN"));
        assert!(explain("what is load average", Lang::En).is_some());
        // "top" read as the command only where it is one: not before a count or a table.
        assert!(explain("what is top", Lang::En).is_some());
        assert!(explain("what are the top 5 processes by cpu", Lang::En).is_none());
        assert!(explain("what are the top five processes", Lang::En).is_none());
        // Other commands keep their arguments and neighbours.
        assert!(explain("what does chmod 755 do", Lang::En).is_some());
        assert!(explain("ssh 端口是什么意思", Lang::Zh).is_some());
    }

    #[test]
    fn ignores_non_questions_and_files() {
        assert!(explain("ls -la", Lang::En).is_none());
        assert!(explain("what is in config.yaml", Lang::En).is_none());
        assert!(explain("数据库端口是多少", Lang::Zh).is_none());
        // "all" must not match "ll".
        assert!(explain("what is all this", Lang::En).is_none());
        // A question about events that uses a concept's word is not about the concept.
        assert!(explain(
            "the importer's kill request vs the scheduler's restart in jobs.log: which came first?",
            Lang::En
        )
        .is_none());
        assert!(explain("what's the difference between kill and pkill", Lang::En).is_some());
    }
}
