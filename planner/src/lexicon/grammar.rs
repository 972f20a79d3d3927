//! The small words of a query in the lexicon's `grammar.toml`: grouping, comparisons,
//! units, number words, windows, bucket widths, negation, case, limits, follow-ups and the
//! request for a whole-file summary.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{BucketCue, CompareCue, UnitCue, Words};

/// Informal spellings of one word ("w/", "thru"), read as it in questions.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Spelling {
    pub word: String,
    pub en: Vec<String>,
    /// Read so only after one of these words earlier in the sentence (a verb's subject or
    /// auxiliary: "did", "who"); empty: anywhere.
    #[serde(default)]
    pub after: Vec<String>,
    /// Not read so when the next word is one of these (a noun phrase goes on: "the app log
    /// in total").
    #[serde(default)]
    pub not_before: Vec<String>,
}

/// Number words standing for digits ("一秒", "a second").
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Numbers {
    #[serde(default)]
    pub zh: BTreeMap<String, f64>,
    #[serde(default)]
    pub en: BTreeMap<String, f64>,
}

/// Words that bound a time window.
#[derive(Debug, Clone, Deserialize)]
pub struct WindowWords {
    pub last_zh: Vec<String>,
    pub last_en: Vec<String>,
    pub around_zh: Vec<String>,
    pub around_en: Vec<String>,
    pub between_zh: Vec<String>,
    pub between_en: Vec<String>,
    pub from_zh: Vec<String>,
    pub from_en: Vec<String>,
    pub to_zh: Vec<String>,
    pub to_en: Vec<String>,
    /// Of the `last` words, those that, said of a thing and not of a length of time, ask
    /// for the latest events ("the last package upgraded").
    #[serde(default)]
    pub latest_zh: Vec<String>,
    #[serde(default)]
    pub latest_en: Vec<String>,
    pub around_default_seconds: u64,
}

impl WindowWords {
    fn words(zh: &[String], en: &[String]) -> Words {
        Words {
            zh: zh.to_vec(),
            en: en.to_vec(),
        }
    }

    pub fn last(&self) -> Words {
        Self::words(&self.last_zh, &self.last_en)
    }

    pub fn latest(&self) -> Words {
        Self::words(&self.latest_zh, &self.latest_en)
    }

    pub fn around(&self) -> Words {
        Self::words(&self.around_zh, &self.around_en)
    }

    pub fn between(&self) -> Words {
        Self::words(&self.between_zh, &self.between_en)
    }

    pub fn from(&self) -> Words {
        Self::words(&self.from_zh, &self.from_en)
    }

    pub fn to(&self) -> Words {
        Self::words(&self.to_zh, &self.to_en)
    }
}

/// Limit words: "top 5", "前 10 个".
#[derive(Debug, Clone, Deserialize)]
pub struct LimitWords {
    #[serde(flatten)]
    pub before: Words,
    #[serde(default)]
    pub after_zh: Vec<String>,
}

/// Words before a thing (`zh`, `en`) or after it (`after_zh`, `after_en`): those around
/// "10 分钟" that make it a bucket's size, those that count a condition in.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct AroundWords {
    /// Words right before it.
    #[serde(flatten)]
    pub before: Words,
    #[serde(default)]
    pub after_zh: Vec<String>,
    #[serde(default)]
    pub after_en: Vec<String>,
}

impl AroundWords {
    pub fn after(&self) -> Words {
        Words {
            zh: self.after_zh.clone(),
            en: self.after_en.clone(),
        }
    }
}

/// Words that make a clause a question.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct InterrogativeWords {
    /// Words that ask wherever they stand.
    #[serde(flatten)]
    pub anywhere: Words,
    /// English words that ask only when they open the clause.
    #[serde(default)]
    pub open_en: Vec<String>,
}

impl InterrogativeWords {
    /// Whether the lower-cased clause asks something rather than requests it.
    pub fn asks(&self, lower: &str) -> bool {
        let t = lower.trim_start_matches(|c: char| !c.is_alphanumeric() && c.is_ascii());
        let t = ["and ", "so ", "ok ", "okay ", "then "]
            .iter()
            .find_map(|w| t.strip_prefix(w))
            .unwrap_or(t);
        self.anywhere.occur_in(lower)
            || self.open_en.iter().any(|w| {
                t.strip_prefix(w.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\'']))
            })
    }
}

/// Follow-up markers and words referring to the last answer's top item.
#[derive(Debug, Clone, Deserialize)]
pub struct FollowWords {
    #[serde(flatten)]
    pub markers: Words,
    pub refer_zh: Vec<String>,
    pub refer_en: Vec<String>,
    /// Words before a number asking for more of the last list ("the next 3").
    #[serde(default)]
    pub next_zh: Vec<String>,
    #[serde(default)]
    pub next_en: Vec<String>,
    /// Words after a number asking the same ("3 more").
    #[serde(default)]
    pub more_en: Vec<String>,
    /// Of the refer words, the pronouns that stand for the last answer's item ("它", "it"),
    /// not for a thing they qualify ("这个服务器").
    #[serde(default)]
    pub pronouns: Vec<String>,
    /// Of the markers, those that mark a follow-up only where they open the message ("and
    /// the 4xx?"); inside a question they join ("between 11:10 and 11:20").
    #[serde(default)]
    pub opening_only: Vec<String>,
    /// Words that refer back only right before a field's name ("this client": the one the
    /// last answer named), being too common elsewhere ("this morning") to refer alone.
    #[serde(default)]
    pub before_a_field: Vec<String>,
    /// Words for the time the last answer pointed at ("at that time", "那一分钟").
    #[serde(default)]
    pub then_zh: Vec<String>,
    #[serde(default)]
    pub then_en: Vec<String>,
    /// Words asking the last query's events counted all together ("in total", "一共").
    #[serde(default)]
    pub total_zh: Vec<String>,
    #[serde(default)]
    pub total_en: Vec<String>,
}

impl FollowWords {
    pub fn next(&self) -> Words {
        Words {
            zh: self.next_zh.clone(),
            en: self.next_en.clone(),
        }
    }

    pub fn then(&self) -> Words {
        Words {
            zh: self.then_zh.clone(),
            en: self.then_en.clone(),
        }
    }

    pub fn total(&self) -> Words {
        Words {
            zh: self.total_zh.clone(),
            en: self.total_en.clone(),
        }
    }

    pub fn refer(&self) -> Words {
        Words {
            zh: self.refer_zh.clone(),
            en: self.refer_en.clone(),
        }
    }
}

/// "warn and above", "ERROR 及以上": the words, and the levels from the least severe up.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct AtOrAbove {
    #[serde(flatten)]
    pub words: Words,
    pub levels: Vec<String>,
}

impl AtOrAbove {
    /// The levels from `level` up, when it is one of them.
    pub fn from(&self, level: &str) -> Option<&[String]> {
        let at = self.levels.iter().position(|l| l == level)?;
        Some(&self.levels[at..])
    }
}

/// `grammar.toml`.
#[derive(Debug, Clone, Deserialize)]
pub struct Grammar {
    pub group: Words,
    /// Group words that rank: before a numeric field they sort by it ("most memory")
    /// instead of grouping by it ("which user_id").
    #[serde(default)]
    pub rank: Words,
    /// Group words that ask: the field after them is shown, never given a value.
    #[serde(default)]
    pub asks: Words,
    /// Group words that say "for each one": unknown words after them name the events each
    /// figure is of ("avg time per chunk"), not a field asked.
    #[serde(default)]
    pub each: Words,
    /// Words after a level that take the more severe levels with it ("ERROR 及以上").
    #[serde(default)]
    pub at_or_above: AtOrAbove,
    pub compare: Vec<CompareCue>,
    pub unit: Vec<UnitCue>,
    pub numbers: Numbers,
    pub window: WindowWords,
    pub bucket: Vec<BucketCue>,
    /// Words around a number and a time unit that make it a bucket's size.
    #[serde(default)]
    pub bucket_sized: AroundWords,
    pub negate: Words,
    /// Words that set two things side by side ("A 和 B", "X vs Y").
    #[serde(default)]
    pub side_by_side: Words,
    /// Words asking several values of one field side by side ("4xx vs 5xx", "分别"): a
    /// query per value.
    #[serde(default)]
    pub each_side: Words,
    /// Words that ask about every log at hand ("across all logs", "这几个日志").
    #[serde(default)]
    pub all_logs: Words,
    /// Words that count out one event ("最慢的一条", "the single slowest").
    #[serde(default)]
    pub one_event: Words,
    /// Words that point at one event whose cause is asked ("the first ERROR", "that
    /// exception"): that event's cause, not the night's incident summary.
    #[serde(default)]
    pub cause_of_one: Words,
    /// Words that ask yes or no whether events of a kind exist ("有没有 504").
    #[serde(default)]
    pub yes_no: Words,
    /// Words that open a log's name after them ("errors in app.log"): a cue ending in one
    /// right before a log's name ("logged in app.json") is not that cue.
    #[serde(default)]
    pub before_a_file: Words,
    /// Informal spellings read as the words they stand for ("w/" is "with").
    #[serde(default)]
    pub spelling: Vec<Spelling>,
    /// Words of a clause that only says in what form the answer is wanted, besides a unit
    /// or a share's word ("in ms", "给百分比").
    #[serde(default)]
    pub answer_form: Words,
    /// Words saying how exact the answer is wanted ("exact second"): a form, like a unit.
    #[serde(default)]
    pub answer_exact: Words,
    /// Nouns for a log's events, one or several ("event", "records", "事件"): after a
    /// kind's value ("dns events") and after a plural-looking name ("the last health event").
    #[serde(default)]
    pub event_words: Words,
    /// Words that name events of a kind where a log's column of kinds holds it ("告警" is a
    /// Suricata `alert`), before any other reading of the word (a level).
    #[serde(default)]
    pub kind_words: Vec<KindWords>,
    /// Words for every event of a log, whatever it says ("requests", "请求", "lines"): with
    /// "in total" after an item, all of the item's events.
    #[serde(default)]
    pub all_events: Words,
    /// Words asking what events said ("what did they say", "说了什么", "具体内容"): after a
    /// count, with a time asked, the events themselves.
    #[serde(default)]
    pub what_said: Words,
    /// Units no figure is converted to ("in litres"): a clause of only these asks nothing.
    #[serde(default)]
    pub answer_form_unconverted: Words,
    /// Words asking a share of the count ("占比", "what percentage").
    #[serde(default)]
    pub share: Words,
    /// Words asking the share of their own condition among the rest ("失败率", "error
    /// rate"): the rest of the question picks the population. `after_zh`, `after_en`: the
    /// words that ask it right after any condition ("5xx rate", "超时率").
    #[serde(default)]
    pub rate: AroundWords,
    /// Words before the population a share is of ("of", "among") and, in English, the verbs
    /// after it (`after_en`: "were", "that"); in Chinese the words after it (`after_zh`: 里).
    #[serde(default)]
    pub share_of: AroundWords,
    /// Words opening a clause that says which things are meant ("orders that…", "orders
    /// got…").
    #[serde(default)]
    pub relative: Words,
    /// English plurals not made with `s` ("children": "child"), so a log's word is found
    /// whichever number the question says it in.
    #[serde(default)]
    pub plurals: BTreeMap<String, String>,
    /// English verbs whose other forms are not the base with `-s`, `-ed` or `-ing` ("win":
    /// "won"), each with those forms: any of them finds the others in a log's text.
    #[serde(default)]
    pub verb_forms: BTreeMap<String, Vec<String>>,
    /// Words asking when things happened ("timestamps", "in order", "几点"): before
    /// a list's colon, each item of the list is a moment asked.
    #[serde(default)]
    pub times_asked: Words,
    /// Words that may stand between a verb and its object ("skip a run", "lose the
    /// lease"): the two are one phrase of what happened.
    #[serde(default)]
    pub determiners: Words,
    /// Words linking unknown words to a condition beside them, which then says whose they
    /// are ("nginx 的重启", "restarts of nginx", "java 被 oom 杀"); side by side needs none.
    #[serde(default)]
    pub object_links: Words,
    /// Words opening a yes-or-no question ("any zombies?", "有僵尸进程吗"); a Chinese one
    /// asks only when the question ends in one of `after_zh`.
    #[serde(default)]
    pub yes_no_opening: AroundWords,
    /// Words between a count and what it counts ("how many of the tenants", "几个的").
    #[serde(default)]
    pub articles: Words,
    /// Words for the events themselves ("requests", "日志"): a count asked of them counts
    /// events, whatever field of the log shares the name (nginx's `request`).
    #[serde(default)]
    pub events: Words,
    /// Negation written after the condition ("fatal 的不算", "404s excluded").
    #[serde(default)]
    pub negate_after: Words,
    /// Words joining the items of a list ("GET or POST", "404 和 500").
    #[serde(default)]
    pub joiners: Words,
    /// Words linking a name to the field asked of it ("the parent of sshd", "does X use").
    #[serde(default)]
    pub helping: Words,
    /// Negation of a clause that ends in 的 and says what the events are without ("没有报错的
    /// 请求"); alone ("没有 5xx") it says none exist, which is no condition.
    #[serde(default)]
    pub negate_clause: Words,
    /// A condition said to be counted in, before or after it ("errors included").
    #[serde(default)]
    pub included: AroundWords,
    /// Words opening a short clause that only says a condition is not asked ("any
    /// status").
    #[serde(default)]
    pub scope: Words,
    pub contains: Words,
    pub case: Words,
    pub limit: LimitWords,
    pub follow: FollowWords,
    pub summary: Words,
    /// Asking what went wrong across the session's logs (the incident summary).
    pub incident: Words,
    /// Function words: never a name or a literal to search for.
    #[serde(default)]
    pub stop: Words,
    /// Words that make a clause a question, so an action verb in it is asked about.
    #[serde(default)]
    pub interrogative: InterrogativeWords,
    /// Time zones named in a question, by their offset from UTC.
    #[serde(default)]
    pub zone: Vec<ZoneCue>,
    /// Words that define a field from the events' text.
    #[serde(default)]
    pub defined: DefinedWords,
    /// A position in a ranking ("the second slowest", "第二慢", "排第三的").
    #[serde(default)]
    pub ordinal: OrdinalWords,
}

/// A position in a ranking: English ordinals from the second on, the superlatives they
/// stand before, and the Chinese characters that make "第N<X>" the superlative "最<X>".
#[derive(Debug, Clone, Default, Deserialize)]
pub struct OrdinalWords {
    /// "second", "third", ...: the position is the index plus 2.
    #[serde(default)]
    pub en: Vec<String>,
    #[serde(default)]
    pub superlative_en: Vec<String>,
    #[serde(default)]
    pub superlative_zh: Vec<String>,
    /// "ranked second", "in second place": the position alone, the ranking is the
    /// question's (`most`, `最多` if it names none).
    #[serde(default)]
    pub ranked_en: Vec<String>,
    #[serde(default)]
    pub ranked_zh: Vec<String>,
}

/// Words that define a field from the events' text: "<prefix> ids" (the tokens that start
/// with the prefix and hold a digit) and "the part after <literal>" / "<literal> 后面那段"
/// (what follows a literal that ends with `/`, `=` or `:`).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct DefinedWords {
    /// Nouns after a prefix ("TKT ids", "TKT 编号").
    #[serde(default)]
    pub id: Words,
    /// Words asking which thing, before a noun the lines write a value after ("which
    /// replica", "哪个 shard"); not the ones asking who.
    #[serde(default)]
    pub which: Words,
    /// English words before the literal ("after", "following").
    #[serde(default)]
    pub after_en: Vec<String>,
    /// Chinese words after the literal ("后面", "之后").
    #[serde(default)]
    pub after_zh: Vec<String>,
    /// Nouns for the part: before "after" in English ("the part after"), after "后面" in
    /// Chinese ("后面那段").
    #[serde(default)]
    pub part: Words,
    /// Words that open a clause explaining the question before it ("i.e.", "就是").
    #[serde(default)]
    pub gloss: Words,
    /// The domain of a mail address, where a log writes addresses but no domain field.
    #[serde(default)]
    pub mail_domain: Words,
    /// Of those, the words that ask for the recipient's domain (the `to=` address).
    #[serde(default)]
    pub recipient: Words,
    /// Values known by their shape (a MAC address, a domain name), cut out of the events'
    /// text where a log has no field of that name or role.
    #[serde(default)]
    pub shape: Vec<ShapeCue>,
}

/// A value known by its shape: the field it becomes, the words that name it and the regex
/// whose first group is the first such value in an event.
#[derive(Debug, Clone, Deserialize)]
pub struct ShapeCue {
    pub field: String,
    #[serde(flatten)]
    pub words: Words,
    pub regex: String,
    /// A network address: asked of a field that writes it with a port (`10.0.0.5:41822`),
    /// it is the address alone.
    #[serde(default)]
    pub address: bool,
}

/// A time zone a question names ("北京时间", "EDT"): its offset from UTC as `+HH:MM`.
/// `exact` words match as written (abbreviations: "EDT", not "edt" in a word).
#[derive(Debug, Clone, Deserialize)]
pub struct ZoneCue {
    pub offset: String,
    #[serde(default)]
    pub words: Vec<String>,
    #[serde(default)]
    pub exact: Vec<String>,
}

/// Words for events of one kind, by the kind's value as logs write it.
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct KindWords {
    pub kind: String,
    #[serde(default)]
    pub zh: Vec<String>,
    #[serde(default)]
    pub en: Vec<String>,
}
