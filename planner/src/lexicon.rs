//! The planner's lexicon: Chinese and English cue words for measures, fields, filters,
//! sources and the small words that shape a query, kept in data
//! (`assets/planner/lexicon/*.toml`, embedded at build time), and the matcher that finds
//! them in a message. Understanding reads cues from here; it holds no word lists of its own.

mod grammar;
mod matcher;

use std::sync::OnceLock;

use serde::Deserialize;

use llmops_common::query::{BucketWidth, FilterOp, Measure, Order, Scalar, Source, Unit};

pub use grammar::{Grammar, Numbers, Spelling, WindowWords};
pub use matcher::{blank, find, occurrences, Cue, Hit};

/// Cue words in both languages: Chinese phrases match as text, English ones as whole words.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Words {
    #[serde(default)]
    pub zh: Vec<String>,
    #[serde(default)]
    pub en: Vec<String>,
}

impl Words {
    pub fn all(&self) -> impl Iterator<Item = &str> {
        self.zh.iter().chain(self.en.iter()).map(String::as_str)
    }

    /// Whether `w` is one of the words, in any case.
    pub fn has(&self, w: &str) -> bool {
        self.all().any(|x| x.eq_ignore_ascii_case(w))
    }

    /// Whether any of the words occurs in the lower-cased text (Chinese as text, English
    /// as whole words or phrases).
    pub fn occur_in(&self, lower: &str) -> bool {
        self.all().any(|w| !occurrences(lower, w).is_empty())
    }
}

impl Lexicon {
    /// Whether `name` is a log's field (a role the lexicon names for logs).
    pub fn is_log_field(&self, name: &str) -> bool {
        self.fields
            .iter()
            .any(|f| f.field == name && f.source == Some(Source::Log))
    }

    /// A system table's quantity: a numeric column that is no key or code (threads, memory).
    pub fn is_quantity(&self, source: Source, field: &str) -> bool {
        self.fields
            .iter()
            .any(|c| c.field == field && c.source == Some(source) && c.numeric && !c.integer)
    }

    /// A column a ranking of the table's rows reads itself: a quantity, and for processes not
    /// CPU or memory, which the monitor ranks, sampled as `top` samples them.
    pub fn ranked_by_the_table(&self, source: Source, field: &str) -> bool {
        self.is_quantity(source, field)
            && (source != Source::Processes
                || llmops_tooldata::ProcSort::of_column(field).is_none())
    }

    /// The log field a measure cue reads by itself ("slowest": `duration`).
    pub fn measure_log_field(&self, measure: usize) -> Option<&str> {
        self.measures[measure]
            .field
            .as_deref()
            .filter(|f| self.is_log_field(f))
    }
}

/// Words that ask for a measure.
#[derive(Debug, Clone, Deserialize)]
pub struct MeasureCue {
    pub measure: Measure,
    /// The field the measure reads when the question names none (`slowest` -> `duration`).
    #[serde(default)]
    pub field: Option<String>,
    #[serde(default)]
    pub order: Option<Order>,
    #[serde(default)]
    pub limit: Option<u32>,
    /// Which measure wins when several are cued.
    pub weight: u8,
    /// What the words mean over a log with a time window, when that differs ("what was
    /// redis doing before 3:15" is a timeline; "what is redis doing" a process's details).
    #[serde(default)]
    pub over_a_window: Option<Measure>,
    /// What the words mean asked of a field's name ("how many tenants", "客户端有几个"):
    /// a count of its values, not of the events.
    #[serde(default)]
    pub of_a_field: Option<Measure>,
    #[serde(flatten)]
    pub words: Words,
}

/// Words that name a field of a table.
#[derive(Debug, Clone, Deserialize)]
pub struct FieldCue {
    pub field: String,
    /// Only for this kind of table.
    #[serde(default)]
    pub source: Option<Source>,
    /// A statistic can read it.
    #[serde(default)]
    pub numeric: bool,
    /// Its values are numbers (a status, a pid, a port): a name never binds to it.
    #[serde(default)]
    pub integer: bool,
    /// A quantity: a count asked of it is its sum ("how many bytes", "一共多少字节").
    #[serde(default)]
    pub additive: bool,
    /// The words group by the field themselves ("哪种错误", "most common error").
    #[serde(default)]
    pub grouped: bool,
    /// The field is what an event says (a statement, a message): a superlative beside it
    /// asks for one event ("最慢的一条语句"), it ranks no groups.
    #[serde(default)]
    pub event_text: bool,
    /// Each event's value names one of many instances (a killed process by its program's
    /// name): "how many processes were killed" counts the events, not the names.
    #[serde(default)]
    pub instances: bool,
    /// A condition the words carry ("which errors": only failures), kept unless the
    /// question states a condition of that kind itself.
    #[serde(default)]
    pub filter: Option<CueFilter>,
    /// Asked of a path ("free space on /var"), the figure is its filesystem's, as `df PATH`
    /// reads it; a figure without it ("how big is /var/log") is the directory's own.
    #[serde(default)]
    pub of_a_paths_filesystem: bool,
    /// The words ask for the field ("who started", "哪个用户启动"): a name after them is
    /// what is asked about, never the field's value (as after "owned by").
    #[serde(default)]
    pub asks: bool,
    /// The words follow the value they state, as a verb its subject ("does root own"):
    /// the name right before them is the field's value, in English as in Chinese.
    #[serde(default)]
    pub follows_its_value: bool,
    /// How the figure of several rows a name picks combines: their sum unless said (a
    /// program's memory); `max` for how long a program has run (its oldest process).
    #[serde(default)]
    pub of_many: Option<Measure>,
    #[serde(flatten)]
    pub words: Words,
}

/// Words that are a condition on rows.
#[derive(Debug, Clone, Deserialize)]
pub struct FilterCue {
    #[serde(default)]
    pub field: Option<String>,
    pub op: FilterOp,
    pub value: Scalar,
    #[serde(flatten)]
    pub words: Words,
    /// Word groups that make the cue when one word of each stands near the others, in any
    /// order ("failed ssh logins", "logins that failed", "ssh 登录失败").
    #[serde(default)]
    pub together: Vec<Vec<String>>,
    /// Who or what the condition happens to: "what segfaulted" and "谁登录失败" group by
    /// it when the question names no field of its own.
    #[serde(default)]
    pub subject: Option<String>,
    /// The log formats whose vocabulary the words are (a tag only they define): the cue
    /// counts only over a log detected as one of them. Empty: any log.
    #[serde(default)]
    pub formats: Vec<String>,
}

/// A condition written in the lexicon.
#[derive(Debug, Clone, Deserialize)]
pub struct CueFilter {
    #[serde(default)]
    pub field: Option<String>,
    pub op: FilterOp,
    pub value: Scalar,
}

/// Words that name a table.
#[derive(Debug, Clone, Deserialize)]
pub struct SourceCue {
    pub source: Source,
    /// The column a bare number right next to the word is a value of ("进程 4242": pid).
    #[serde(default)]
    pub key: Option<String>,
    /// A condition the cue carries ("listening": the socket's state is LISTEN).
    #[serde(default)]
    pub filter: Option<CueFilter>,
    /// A condition that narrows only when something matches it ("workers": the worker
    /// processes, when a service has any).
    #[serde(default)]
    pub soft: Option<CueFilter>,
    /// The condition names rows the question asks about ("the root partition"), so the
    /// question is a query, not the table's overview ("disks").
    #[serde(default)]
    pub names: bool,
    /// A path asked about with the words is its filesystem ("the partition /var/log is
    /// on"), not the directory ("磁盘空间 /var/log 占了多少": its own size, `du`'s).
    #[serde(default)]
    pub of_a_paths_filesystem: bool,
    #[serde(flatten)]
    pub words: Words,
}

/// Words for a bucket width.
#[derive(Debug, Clone, Deserialize)]
pub struct BucketCue {
    pub bucket: BucketWidth,
    #[serde(flatten)]
    pub words: Words,
}

/// Words for a comparison.
#[derive(Debug, Clone, Deserialize)]
pub struct CompareCue {
    pub op: FilterOp,
    #[serde(flatten)]
    pub words: Words,
}

/// Words for a unit.
#[derive(Debug, Clone, Deserialize)]
pub struct UnitCue {
    pub unit: Unit,
    #[serde(flatten)]
    pub words: Words,
}

#[derive(Debug, Deserialize)]
struct MeasuresFile {
    measure: Vec<MeasureCue>,
}

#[derive(Debug, Deserialize)]
struct FieldsFile {
    field: Vec<FieldCue>,
}

#[derive(Debug, Deserialize)]
struct FiltersFile {
    filter: Vec<FilterCue>,
}

#[derive(Debug, Deserialize)]
struct SourcesFile {
    source: Vec<SourceCue>,
    #[serde(default)]
    kind: Vec<LogKind>,
    #[serde(default)]
    short: Vec<ShortName>,
}

/// Short names of a program (`sources.toml` `[[short]]`): "es" for elasticsearch.
#[derive(Debug, Deserialize)]
pub struct ShortName {
    pub program: String,
    pub names: Vec<String>,
}

/// Words that name a log by its kind (`sources.toml` `[[kind]]`): a detected format, or
/// fields a known program's JSON log has.
#[derive(Debug, Deserialize)]
pub struct LogKind {
    /// The words name a program's role ("the cache"): they name no log when the question
    /// names its logs otherwise.
    #[serde(default)]
    pub role: bool,
    #[serde(default)]
    pub formats: Vec<String>,
    #[serde(default)]
    pub columns: Vec<String>,
    #[serde(flatten)]
    pub words: Words,
}

impl LogKind {
    /// Whether an upload is a log of this kind.
    pub fn is(&self, u: &llmops_common::UploadRef) -> bool {
        let by_format = u
            .format
            .as_deref()
            .is_some_and(|f| self.formats.iter().any(|k| k == f));
        let by_columns = !self.columns.is_empty()
            && self
                .columns
                .iter()
                .all(|c| u.columns.iter().any(|col| col.name == *c));
        by_format || by_columns
    }
}

/// A question one fixed read-only command answers (`commands.toml`).
#[derive(Debug, Deserialize)]
pub struct CommandCue {
    pub argv: Vec<String>,
    /// The words are about a config or file the question names, if it names one.
    #[serde(default)]
    pub not_about_files: bool,
    #[serde(flatten)]
    pub words: Words,
}

/// One thing events say, in both languages (`phrases.toml`).
#[derive(Debug, Deserialize)]
pub struct Phrase {
    #[serde(flatten)]
    pub words: Words,
}

#[derive(Debug, Deserialize)]
struct PhrasesFile {
    phrase: Vec<Phrase>,
}

#[derive(Debug, Deserialize)]
struct CommandsFile {
    command: Vec<CommandCue>,
    natural: Vec<CommandCue>,
}

/// The whole lexicon.
#[derive(Debug)]
pub struct Lexicon {
    pub measures: Vec<MeasureCue>,
    pub fields: Vec<FieldCue>,
    pub filters: Vec<FilterCue>,
    pub sources: Vec<SourceCue>,
    pub kinds: Vec<LogKind>,
    pub short_names: Vec<ShortName>,
    pub phrases: Vec<Phrase>,
    pub grammar: Grammar,
    pub commands: Vec<CommandCue>,
    /// Wordings of the basic commands themselves, read after everything more specific.
    pub natural_commands: Vec<CommandCue>,
}

const MEASURES: &str = include_str!("../../assets/planner/lexicon/measures.toml");
const FIELDS: &str = include_str!("../../assets/planner/lexicon/fields.toml");
const FILTERS: &str = include_str!("../../assets/planner/lexicon/filters.toml");
const SOURCES: &str = include_str!("../../assets/planner/lexicon/sources.toml");
const GRAMMAR: &str = include_str!("../../assets/planner/lexicon/grammar.toml");
const COMMANDS: &str = include_str!("../../assets/planner/lexicon/commands.toml");
const PHRASES: &str = include_str!("../../assets/planner/lexicon/phrases.toml");

/// Why a lexicon file could not be used.
#[derive(Debug, thiserror::Error)]
#[error("词典文件 {file} 无法解析 (lexicon file {file} does not parse): {source}")]
pub struct LexiconError {
    pub file: &'static str,
    #[source]
    pub source: toml::de::Error,
}

fn parse<T: serde::de::DeserializeOwned>(
    file: &'static str,
    text: &str,
) -> Result<T, LexiconError> {
    toml::from_str(text).map_err(|source| LexiconError { file, source })
}

impl Lexicon {
    /// How the figure of the several rows a field cue's name picks combines: the cue's
    /// `of_many`, else their sum (a program's memory is its processes' together).
    pub fn of_many(&self, cue: Cue) -> Measure {
        match cue {
            Cue::Field(i) => self.fields[i].of_many,
            _ => None,
        }
        .unwrap_or(Measure::Sum)
    }

    /// Parses the embedded files.
    pub fn load() -> Result<Lexicon, LexiconError> {
        let m: MeasuresFile = parse("measures.toml", MEASURES)?;
        let f: FieldsFile = parse("fields.toml", FIELDS)?;
        let fl: FiltersFile = parse("filters.toml", FILTERS)?;
        let s: SourcesFile = parse("sources.toml", SOURCES)?;
        let grammar: Grammar = parse("grammar.toml", GRAMMAR)?;
        let c: CommandsFile = parse("commands.toml", COMMANDS)?;
        let ph: PhrasesFile = parse("phrases.toml", PHRASES)?;
        Ok(Lexicon {
            phrases: ph.phrase,
            commands: c.command,
            natural_commands: c.natural,
            measures: m.measure,
            fields: f.field,
            filters: fl.filter,
            sources: s.source,
            kinds: s.kind,
            short_names: s.short,
            grammar,
        })
    }

    /// The programs a short name stands for ("es" -> elasticsearch), and a program's short
    /// names when the word is its name, lower case.
    pub fn programs_named(&self, word: &str) -> impl Iterator<Item = &str> + '_ {
        let word = word.to_ascii_lowercase();
        // A program's own name names a log its short name names too ("rabbitmq" names
        // `rabbit@mq-01.log`).
        self.short_names.iter().flat_map(move |s| {
            let short = s.names.contains(&word);
            let own = s.program == word;
            short
                .then_some(s.program.as_str())
                .into_iter()
                .chain(s.names.iter().map(String::as_str).filter(move |_| own))
        })
    }

    /// Every wording of `text` when a phrase entry has it (case ignored), else none.
    pub fn wordings(&self, text: &str) -> Option<Vec<&str>> {
        let t = text.trim().to_lowercase();
        self.phrases
            .iter()
            .find(|p| p.words.all().any(|w| w.to_lowercase() == t))
            .map(|p| p.words.all().collect())
    }

    /// Whether a statistic can read the field.
    pub fn is_numeric(&self, field: &str) -> bool {
        self.fields.iter().any(|f| f.field == field && f.numeric)
    }

    /// Whether the field's values are numbers (a name or a word never is one).
    pub fn holds_numbers(&self, field: &str) -> bool {
        self.fields
            .iter()
            .any(|f| f.field == field && (f.numeric || f.integer))
    }
}

/// The embedded lexicon, parsed once.
pub fn lexicon() -> &'static Lexicon {
    static L: OnceLock<Lexicon> = OnceLock::new();
    // The files are part of the binary and a unit test parses them: a failure here is a
    // build of broken data, caught before release.
    L.get_or_init(|| Lexicon::load().expect("the embedded lexicon parses (tested)"))
}

/// A literal number as the lexicon's numbers table or digits give it.
pub fn scalar_number(s: &Scalar) -> Option<f64> {
    match s {
        Scalar::Number(n) => Some(*n),
        Scalar::Text(t) => t.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_files_parse_and_every_entry_has_words() {
        let l = Lexicon::load().expect("lexicon parses");
        assert!(l.measures.iter().all(|m| m.words.all().next().is_some()));
        assert!(l.fields.iter().all(|m| m.words.all().next().is_some()));
        assert!(l.filters.iter().all(|m| m.words.all().next().is_some()));
        assert!(l.sources.iter().all(|m| m.words.all().next().is_some()));
        assert!(l.commands.iter().chain(&l.natural_commands).all(|c| c
            .words
            .all()
            .next()
            .is_some()
            && !c.argv.is_empty()));
        assert!(l.measures.iter().any(|m| m.measure == Measure::P95));
        assert!(l.is_numeric("duration"));
        assert!(!l.is_numeric("client"));
    }

    #[test]
    fn cue_words_are_lower_case_so_matching_can_fold_the_message_only() {
        let l = lexicon();
        let words = l
            .measures
            .iter()
            .map(|m| &m.words)
            .chain(l.fields.iter().map(|f| &f.words))
            .chain(l.filters.iter().map(|f| &f.words))
            .chain(l.sources.iter().map(|f| &f.words));
        for w in words.flat_map(Words::all) {
            assert_eq!(w, w.to_lowercase(), "{w}");
            assert_eq!(w, w.trim(), "{w:?}");
        }
    }
}
