//! Logs and system tables as queryable tables: a registry of log formats in data
//! (`formats/*.toml`), detection by content, lazy field extraction, and one query engine
//! (filters, windows, counts, groups, exact percentiles, buckets, rows, timelines) over log
//! files ([`run_query`]) and in-memory tables ([`run_table`]). Every result says what it
//! computed and, where one exists, the shell pipeline that computes the same.

mod agg;
mod assemble;
mod columns;
mod def;
mod describe;
mod envelope;
mod error;
mod event;
mod extract;
mod finish;
mod go_duration;
mod hit;
mod inline_pairs;
mod json_path;
mod learn;
mod learn_table;
mod log_columns;
mod memtable;
mod pattern;
mod pipeline;
mod plan;
mod rarity;
mod registry;
mod rest_group;
mod role_keys;
mod roles;
mod run;
mod scan;
mod schema;
mod split;
mod tags;
mod text_fields;
mod timeline;
pub mod truth;
mod value_roles;
mod window;

pub use def::{Format, ParseKind};
pub use error::QueryError;
pub use log_columns::{columns, describe, describe_sample, Described, Sample};
pub use memtable::{run_table, Cell, MemTable};
pub use registry::{Detection, Registry, SAMPLE_LINES};
pub use roles::{fallbacks as role_fallbacks, spoken_names};
pub use run::{builtin_registry, run_query, run_query_with};
pub use scan::{QueryFile, QueryOptions};
pub use tags::{tag_fields, tag_text_pattern};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_columns;
#[cfg(test)]
mod tests_engine;
#[cfg(test)]
mod tests_extract;
#[cfg(test)]
mod tests_formats;
#[cfg(test)]
mod tests_formats_cloud;
#[cfg(test)]
mod tests_formats_paas;
#[cfg(test)]
mod tests_formats_runtimes;
#[cfg(test)]
mod tests_formats_services;
#[cfg(test)]
mod tests_formats_web;
#[cfg(test)]
mod tests_formats_wrapped;
#[cfg(test)]
mod tests_learn;
#[cfg(test)]
mod tests_learn_table;
#[cfg(test)]
mod tests_learn_text;
#[cfg(test)]
mod tests_record_pairs;
#[cfg(test)]
mod tests_servers;
#[cfg(test)]
mod tests_split;
#[cfg(test)]
mod tests_tags;
#[cfg(test)]
mod tests_text_fields;
#[cfg(test)]
mod tests_timeline;
#[cfg(test)]
mod tests_timeline_kinds;
#[cfg(test)]
mod tests_truth;
